import { describe, expect, it } from 'vitest';
import { fieldTitle, fieldWords } from '../../../engine/contract/field-title.ts';
import { FIELD_NAMES } from '../../../engine/contract/fields.ts';
import { HEALTH_FIELDS } from '../../../engine/contract/health.ts';
import { DisplayFieldsSchema } from '../../../engine/contract/workbench.ts';

describe('fieldTitle', () => {
  it('names every compared, displayed and health field in words, each differently', () => {
    const keys = [...new Set([...FIELD_NAMES, ...HEALTH_FIELDS, ...Object.keys(DisplayFieldsSchema.shape)])];
    const titles = keys.map(fieldTitle);
    for (const [i, key] of keys.entries()) expect(titles[i], key).not.toBe(key);
    expect(new Set(titles).size).toBe(keys.length);
    expect(['birthDate', 'postalCode', 'addressLine', 'identifier'].map(fieldTitle)).toEqual([
      'Birth date',
      'Postal code',
      'Address',
      'Identifier',
    ]);
  });

  it('reads a key it does not know as itself, including inherited names', () => {
    expect(['nhsNumber', 'toString', '__proto__', 'constructor'].map(fieldTitle)).toEqual([
      'nhsNumber',
      'toString',
      '__proto__',
      'constructor',
    ]);
  });
});

describe('fieldWords', () => {
  it('writes a known field in lower case within a sentence, an unknown one as its key', () => {
    expect(['birthDate', 'email', 'nhsNumber'].map(fieldWords)).toEqual(['birth date', 'email', 'nhsNumber']);
  });
});
