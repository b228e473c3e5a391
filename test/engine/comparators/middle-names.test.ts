import { describe, expect, it } from 'vitest';
import { middleNameList, middleNamesDisagree, type MiddleNameParts } from '../../../engine/comparators/middle-names.ts';
import { buildNameComparatorSet } from '../../../engine/comparators/name-comparison.ts';
import { demoNicknameDictionary } from '../../../engine/comparators/dictionaries/index.ts';
import type { ComparatorProfile } from '../../../engine/contract/profile.ts';

const profile: ComparatorProfile = {
  Version: 'comparators-1',
  FamilyName: ['JaroWinkler', 'Phonetic'],
  GivenNames: ['JaroWinkler', 'Phonetic'],
  PhoneticMatchFloor: 0.8,
  NicknameMatchFloor: 0.95,
  NicknameDictionaries: [demoNicknameDictionary()],
};
const set = buildNameComparatorSet(['JaroWinkler', 'Phonetic'], profile);
const noDictionary = buildNameComparatorSet(['JaroWinkler', 'Phonetic'], { ...profile, NicknameDictionaries: [] });
const person = (middleNames: string | null, givenName = 'edward'): MiddleNameParts => ({
  middleNames: middleNameList(middleNames),
  given: { text: givenName },
});
const disagree = (a: string | null, b: string | null, s = set): boolean => middleNamesDisagree(person(a), person(b), s);

describe('middleNamesDisagree (the middle-name hold: two records whose middle names name two people)', () => {
  it('is true for two different middle names, and for two lists that share none', () => {
    expect(disagree('alejandro', 'leonardo')).toBe(true);
    expect(disagree('kailey', 'philip')).toBe(true);
    expect(disagree('ann marie', 'louise')).toBe(true);
    // Diana and Toni sound alike (Double Metaphone TN): sound alone does not make them one name.
    expect(disagree('diana', 'toni')).toBe(true);
  });

  it('is false when either record has none, or the same', () => {
    expect(disagree(null, 'leonardo')).toBe(false);
    expect(disagree('leonardo', null)).toBe(false);
    expect(disagree(null, null)).toBe(false);
    expect(disagree('leonardo', 'leonardo')).toBe(false);
  });

  it('is false for an initial, a typo, a spelling variant or a keying error, and for nicknames the dictionary lists', () => {
    // An initial says too little, whatever its letter.
    expect(disagree('l', 'alejandro')).toBe(false);
    expect(disagree('alejandro', 'x')).toBe(false);
    // Spelt alike (Jaro-Winkler Strong) or one keying error apart.
    expect(disagree('katherine', 'catherine')).toBe(false);
    expect(disagree('jon', 'john')).toBe(false);
    expect(disagree('leonardo', 'loenardo')).toBe(false);
    expect(disagree('al', 'ali')).toBe(false);
    // Nicknames of one name, with a dictionary that lists them; without one they are two names.
    expect(disagree('william', 'bill')).toBe(false);
    expect(disagree('william', 'bill', noDictionary)).toBe(true);
  });

  it('is false when one list holds a name of the other, or a middle name is the other record’s given name', () => {
    expect(disagree('ann marie', 'marie')).toBe(false);
    expect(disagree('anne', 'louise anne')).toBe(false);
    // John Michael and Michael James: the person goes by their middle name in one source.
    expect(middleNamesDisagree(person('michael', 'john'), person('james', 'michael'), set)).toBe(false);
  });

  it('compares at most four middle names a record', () => {
    expect(disagree('aaron bruno carlo leonardo', 'leonardo')).toBe(false);
    // A fifth name that would agree is not read (the cap bounds what one record's long list can cost a comparison).
    expect(disagree('aaron bruno carlo dario leonardo', 'leonardo')).toBe(true);
  });
});
