import { describe, expect, it } from 'vitest';
import type { R4Address } from '../../../engine/fhir/patient.ts';
import { addressFieldsOf, normaliseAddressLines, selectAddress } from '../../../engine/normalise/address.ts';

describe('selectAddress', () => {
  const work: R4Address = { use: 'work', city: 'Work' };
  const home: R4Address = { use: 'home', city: 'Home' };
  const home2: R4Address = { use: 'home', city: 'Home 2' };

  it('takes the first home address, else the first', () => {
    expect(selectAddress([work, home, home2])).toBe(home);
    expect(selectAddress([work, { city: 'X' }])).toBe(work);
    expect(selectAddress([])).toBeUndefined();
    expect(selectAddress(undefined)).toBeUndefined();
  });
});

describe('addressFieldsOf', () => {
  it('normalises each part', () => {
    expect(
      addressFieldsOf([
        {
          use: 'home',
          line: ['Unit 4/12', '', 'Rue de l’Église'],
          city: 'Saint-Étienne',
          state: 'Loire ',
          postalCode: '42 000',
        },
      ]),
    ).toEqual({ addressLine: 'unit 4 12 rue de leglise', city: 'saint etienne', state: 'loire', postalCode: '42000' });
  });

  it('gives nulls for missing parts and missing addresses', () => {
    const none = { addressLine: null, city: null, state: null, postalCode: null };
    expect(addressFieldsOf(undefined)).toEqual(none);
    expect(addressFieldsOf([{ country: 'AU' }])).toEqual(none);
    expect(addressFieldsOf([{ line: [' ', '--'], city: '.', state: '', postalCode: ' ' }])).toEqual(none);
  });

  it('joins lines with single spaces', () => {
    expect(normaliseAddressLines(['1  Main St.', 'Level 2'])).toBe('1 main st level 2');
    expect(normaliseAddressLines([])).toBeNull();
  });
});
