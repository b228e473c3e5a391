import { settingsFromObject } from '../../../engine/config/settings.ts';
import { describe, expect, it } from 'vitest';
import { blockingTags, materialTag, type KeyRing } from '../../../engine/blocking/tags.ts';
import { ruleKeyMaterial } from '../../../engine/blocking/key-material.ts';
import { keyRingFor } from '../../../engine/config/key-ring.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import { SAMPLE_FIELDS } from '../../helpers/fields.ts';
import type { BlockingConfig } from '../../../engine/contract/profile.ts';

const fields: MatchFields = {
  ...SAMPLE_FIELDS,
  previousFamilyNames: ['smith'],
  identifiers: [{ system: 'urn:x', value: 'A1' }],
};

const blocking: BlockingConfig = {
  Version: 3,
  ActiveKeyVersion: 'k2',
  InactiveKeyVersion: 'k1',
  Rules: [
    {
      Name: 'family-year',
      Parts: [
        { Field: 'familyName', Transform: 'Phonetic' },
        { Field: 'birthDate', Transform: 'Year' },
      ],
    },
    { Name: 'postcode', Parts: [{ Field: 'postalCode', Transform: 'Exact' }] },
    {
      Name: 'email',
      Parts: [
        { Field: 'phone', Transform: 'Exact' },
        { Field: 'city', Transform: 'Initial' },
      ],
    },
  ],
};

const ring = (versions: string[]): KeyRing => ({
  keys: versions.map((v, i) => ({ version: v, secret: Buffer.alloc(32, i + 1) })),
});

describe('blocking key material', () => {
  it('builds keys from transformed parts, one per value of a multi-valued field', () => {
    const [familyYear] = blocking.Rules;
    if (familyYear === undefined) throw new Error('rule missing');
    const keys = ruleKeyMaterial(fields, familyYear);
    // Current and previous family names both block (married-name changes); Double Metaphone FRTR and SM0.
    expect(keys).toEqual(['family-year\u001fFR0R\u001f1984', 'family-year\u001fSM0\u001f1984']);
  });

  it('splits a full birth date into its year and its month and day, and takes neither from a partial date', () => {
    const rule = (Transform: 'Year' | 'MonthDay') => ({
      Name: 'given-date',
      Parts: [
        { Field: 'givenName' as const, Transform: 'Exact' as const },
        { Field: 'birthDate' as const, Transform },
      ],
    });
    expect(ruleKeyMaterial(fields, rule('MonthDay'))).toEqual(['given-date\u001fannabel\u001f03-17']);
    // A mistyped year keeps the month and day key; a mistyped day keeps the year key.
    expect(ruleKeyMaterial({ ...fields, birthDate: '1948-03-17' }, rule('MonthDay'))).toEqual(
      ruleKeyMaterial(fields, rule('MonthDay')),
    );
    expect(ruleKeyMaterial({ ...fields, birthDate: '1984-03-19' }, rule('Year'))).toEqual(
      ruleKeyMaterial(fields, rule('Year')),
    );
    expect(ruleKeyMaterial({ ...fields, birthDate: '1984-03' }, rule('MonthDay'))).toEqual([]);
    expect(ruleKeyMaterial({ ...fields, birthDate: '1984' }, rule('MonthDay'))).toEqual([]);
  });

  it('makes one key for either order of an Unordered rule, so swapped given and family names meet', () => {
    const names = {
      Name: 'names',
      Parts: [
        { Field: 'familyName' as const, Transform: 'Phonetic' as const },
        { Field: 'givenName' as const, Transform: 'Phonetic' as const },
      ],
    };
    const swapped: MatchFields = {
      ...fields,
      familyName: 'annabel',
      givenName: 'fairweather',
      previousFamilyNames: [],
    };
    const plain: MatchFields = { ...fields, previousFamilyNames: [] };
    // In order, a swap shares nothing; unordered, it shares the one key.
    expect(ruleKeyMaterial(swapped, names).some((k) => ruleKeyMaterial(plain, names).includes(k))).toBe(false);
    const unordered = { ...names, Unordered: true };
    expect(ruleKeyMaterial(swapped, unordered)).toEqual(ruleKeyMaterial(plain, unordered));
    expect(ruleKeyMaterial(plain, unordered)).toHaveLength(1);
    // A previous family name still gives a key of its own; a missing part still gives none.
    expect(ruleKeyMaterial(fields, unordered)).toHaveLength(2);
    expect(ruleKeyMaterial({ ...fields, givenName: null }, unordered)).toEqual([]);
  });

  it('yields nothing for a rule whose part is missing', () => {
    expect(
      ruleKeyMaterial(
        { ...fields, postalCode: null },
        { Name: 'postcode', Parts: [{ Field: 'postalCode', Transform: 'Exact' }] },
      ),
    ).toEqual([]);
  });
});

describe('blocking tags', () => {
  it('are 16-byte HMACs that reveal no demographics, recorded with rule, rule-set and key version', () => {
    const tags = blockingTags(fields, blocking, ring(['k2', 'k1']));
    expect(tags.length).toBe(2 * (2 + 1 + 1));
    for (const t of tags) {
      expect(t.tag).toHaveLength(16);
      expect(t.tag.toString('latin1')).not.toMatch(/fair|1984|PO13/i);
      expect(t.ruleSetVersion).toBe(3);
    }
    expect(new Set(tags.map((t) => t.keyVersion))).toEqual(new Set(['k1', 'k2']));
  });

  it('keep the stored tag format: the first 16 bytes of HMAC-SHA256(secret, version ‖ 0x1E ‖ material)', () => {
    // Pinned: tags already stored in registries must stay findable, whatever computes the HMAC.
    expect(
      materialTag({ version: 'k1', secret: Buffer.from('a'.repeat(32)) }, 'SMITH|1980-01-02').toString('hex'),
    ).toBe('981b29ef0289d739f85ac954a2a02c57');
  });

  it('are deterministic for one key and differ between keys', () => {
    const a = blockingTags(fields, blocking, ring(['k2'])).map((t) => t.tag.toString('hex'));
    const b = blockingTags(fields, blocking, ring(['k2'])).map((t) => t.tag.toString('hex'));
    const other = blockingTags(fields, blocking, { keys: [{ version: 'k2', secret: Buffer.alloc(32, 9) }] }).map((t) =>
      t.tag.toString('hex'),
    );
    expect(a).toEqual(b);
    expect(a.filter((t) => other.includes(t))).toEqual([]);
  });

  it('records that share a value share its tag', () => {
    const other = { ...fields, familyName: 'jones', previousFamilyNames: [], givenName: 'zoe', phone: null };
    const mine = new Set(blockingTags(fields, blocking, ring(['k2'])).map((t) => t.tag.toString('hex')));
    const shared = blockingTags(other, blocking, ring(['k2'])).filter((t) => mine.has(t.tag.toString('hex')));
    expect(shared.map((t) => t.ruleName)).toEqual(['postcode']);
  });

  it('resolves key versions from the configuration file and names a missing one', () => {
    const settings = settingsFromObject({ BlockingKeys: { t1: { k2: Buffer.alloc(32, 1).toString('base64') } } });
    expect(
      keyRingFor({ ...blocking, InactiveKeyVersion: undefined }, settings, 't1').keys.map((k) => k.version),
    ).toEqual(['k2']);
    expect(() => keyRingFor(blocking, settings, 't1')).toThrow(/"k1".*BlockingKeys\.t1\.k1/);
  });
});
