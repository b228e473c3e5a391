import { describe, it, expect } from 'vitest';
import {
  buildNameComparatorSet,
  compareNames,
  compareWithComparator,
  distinctNames,
  prepareName,
} from '../../../engine/comparators/name-comparison.ts';
import type { NameComparatorSet } from '../../../engine/comparators/name-comparison.ts';
import { demoNicknameDictionary } from '../../../engine/comparators/dictionaries/index.ts';
import { jaroWinkler } from '../../../engine/comparators/jaro-winkler.ts';
import { normalisedDamerauLevenshtein } from '../../../engine/comparators/damerau-levenshtein.ts';
import type { ComparatorName } from '../../../engine/contract/fields.ts';
import type { ComparatorProfile } from '../../../engine/contract/profile.ts';
import { isEngineError } from '../../../engine/contract/errors.ts';

// Reference: specification, "Comparator profile", rule 1: all configured comparators are evaluated,
// the highest similarity is recorded, and nickname evidence records culture and dictionary version.

function profileWith(overrides: Partial<ComparatorProfile> = {}): ComparatorProfile {
  return {
    Version: 'comparators-1',
    FamilyName: ['JaroWinkler', 'Phonetic'],
    GivenNames: ['JaroWinkler', 'Nickname'],
    PhoneticMatchFloor: 0.8,
    NicknameMatchFloor: 0.95,
    NicknameDictionaries: [demoNicknameDictionary()],
    ...overrides,
  };
}

function compare(a: string, b: string, set: NameComparatorSet): ReturnType<typeof compareNames> {
  return compareNames(prepareName(a, set), prepareName(b, set), set);
}

describe('compareNames', () => {
  const profile = profileWith();

  it('returns 1 with the first configured comparator for equal names', () => {
    const set = buildNameComparatorSet(['Phonetic', 'JaroWinkler'], profile);
    expect(compare('smith', 'smith', set)).toEqual({ similarity: 1, comparator: 'Phonetic' });
  });

  it('records the comparator giving the highest similarity', () => {
    const set = buildNameComparatorSet(['JaroWinkler', 'Phonetic'], profile);
    // Smith / Schmidt agree phonetically (XMT), and Jaro-Winkler (about 0.736) is below the 0.8 floor.
    expect(jaroWinkler('smith', 'schmidt')).toBeLessThan(0.8);
    expect(compare('smith', 'schmidt', set)).toEqual({ similarity: 0.8, comparator: 'Phonetic' });

    // Martha / Marhta: Jaro-Winkler 0.961 beats the phonetic floor.
    expect(compare('martha', 'marhta', set)).toEqual({
      similarity: jaroWinkler('martha', 'marhta'),
      comparator: 'JaroWinkler',
    });
  });

  it('keeps the comparator listed first on a tie', () => {
    // Two different names with no phonetic agreement and no shared characters: every comparator gives 0.
    const set = buildNameComparatorSet(['DiceCoefficient', 'Exact', 'JaroWinkler'], profile);
    expect(compare('ab', 'xy', set)).toEqual({ similarity: 0, comparator: 'DiceCoefficient' });
    // Phonetic with floor equal to another comparator's score: the first listed wins.
    const tied = profileWith({ PhoneticMatchFloor: normalisedDamerauLevenshtein('smith', 'smyth') });
    const forward = buildNameComparatorSet(['NormalisedDamerauLevenshtein', 'Phonetic'], tied);
    const backward = buildNameComparatorSet(['Phonetic', 'NormalisedDamerauLevenshtein'], tied);
    expect(compare('smith', 'smyth', forward).comparator).toBe('NormalisedDamerauLevenshtein');
    expect(compare('smith', 'smyth', backward).comparator).toBe('Phonetic');
  });

  it('records culture and dictionary version when the nickname comparator wins', () => {
    const set = buildNameComparatorSet(profile.GivenNames as ComparatorName[], profile);
    expect(compare('william', 'bill', set)).toEqual({
      similarity: 0.95,
      comparator: 'Nickname',
      culture: 'en-US',
      dictionaryVersion: 'en-US-demo-1',
    });
    const other = compare('william', 'willa', set);
    expect(other.comparator).toBe('JaroWinkler');
    expect(other.culture).toBeUndefined();
    expect(other.dictionaryVersion).toBeUndefined();
  });

  it('leaves out nickname evidence when another comparator beats the nickname floor', () => {
    const low = profileWith({ NicknameMatchFloor: 0.5 });
    const set = buildNameComparatorSet(['Nickname', 'JaroWinkler'], low);
    // will / william: Jaro-Winkler above 0.5.
    const result = compare('will', 'william', set);
    expect(result.comparator).toBe('JaroWinkler');
    expect(result).not.toHaveProperty('culture');
  });

  it('evaluates each comparator kind', () => {
    const set = buildNameComparatorSet(['Exact'], profile);
    expect(compare('ann', 'anne', set)).toEqual({ similarity: 0, comparator: 'Exact' });
    const dice = buildNameComparatorSet(['DiceCoefficient'], profile);
    expect(compare('night', 'nacht', dice)).toEqual({ similarity: 0.25, comparator: 'DiceCoefficient' });
    const dl = buildNameComparatorSet(['NormalisedDamerauLevenshtein'], profile);
    expect(compare('ca', 'abc', dl).similarity).toBeCloseTo(1 / 3, 12);
  });
});

describe('distinctNames (the twin hold: names that compare alike yet are two names)', () => {
  const profile = profileWith();

  it('is false within one keying error and for nicknames of one name, whether or not the set prepared nicknames', () => {
    for (const set of [
      buildNameComparatorSet(['JaroWinkler'], profile),
      buildNameComparatorSet(['JaroWinkler', 'Nickname'], profile),
    ]) {
      const distinct = (a: string, b: string): boolean => distinctNames(prepareName(a, set), prepareName(b, set), set);
      // One insertion, deletion, substitution or adjacent transposition: a clerk's slip.
      for (const [a, b] of [
        ['andre', 'andres'],
        ['andrew', 'andre'],
        ['neil', 'neal'],
        ['martha', 'marhta'],
        ['mary ann', 'maryann'],
      ] as const)
        expect(distinct(a, b), `${a} / ${b}`).toBe(false);
      expect(distinct('bill', 'william')).toBe(false);
      // Two keying errors or more, no shared nickname group: two names.
      for (const [a, b] of [
        ['neal', 'nels'],
        ['anais', 'janis'],
        ['john', 'joannie'],
        ['annabel', 'annabeth'],
      ] as const)
        expect(distinct(a, b), `${a} / ${b}`).toBe(true);
    }
  });
});

describe('prepareName and buildNameComparatorSet', () => {
  const profile = profileWith();

  it('computes phonetic codes and nickname groups only when the set uses them', () => {
    const plain = buildNameComparatorSet(['JaroWinkler'], profile);
    expect(prepareName('bill', plain)).toEqual({ text: 'bill', phonetic: null, nickname: undefined });
    const full = buildNameComparatorSet(['Phonetic', 'Nickname'], profile);
    const prepared = prepareName('bill', full);
    expect(prepared.phonetic).toEqual(['PL', 'PL']);
    expect(prepared.nickname).toMatchObject({ culture: 'en-US', dictionaryVersion: 'en-US-demo-1' });
  });

  it('shares one nickname index per profile', () => {
    const a = buildNameComparatorSet(['Nickname'], profile);
    const b = buildNameComparatorSet(['JaroWinkler', 'Nickname'], profile);
    expect(a.nicknames).toBe(b.nicknames);
    expect(buildNameComparatorSet(['Nickname'], profileWith()).nicknames).not.toBe(a.nicknames);
  });

  it('rejects an empty or unknown comparator list', () => {
    expect(() => buildNameComparatorSet([], profile)).toThrow(/at least one comparator/);
    let caught: unknown;
    try {
      buildNameComparatorSet(['Soundex' as ComparatorName], profile);
    } catch (error) {
      caught = error;
    }
    expect(isEngineError(caught)).toBe(true);
  });
});

describe('compareWithComparator', () => {
  const profile = profileWith();

  it('uses the profile floors and dictionaries', () => {
    expect(compareWithComparator('Phonetic', 'smith', 'schmidt', profile)).toEqual({
      similarity: 0.8,
      comparator: 'Phonetic',
    });
    expect(compareWithComparator('Nickname', 'bob', 'robert', profile)).toEqual({
      similarity: 0.95,
      comparator: 'Nickname',
      culture: 'en-US',
      dictionaryVersion: 'en-US-demo-1',
    });
    expect(compareWithComparator('JaroWinkler', 'MARTHA', 'MARHTA', profile).similarity).toBeCloseTo(0.9611, 4);
    expect(compareWithComparator('NormalisedDamerauLevenshtein', 'CA', 'ABC', profile).similarity).toBeCloseTo(
      1 / 3,
      12,
    );
    expect(compareWithComparator('DiceCoefficient', 'night', 'nacht', profile).similarity).toBe(0.25);
    expect(compareWithComparator('Exact', 'a', 'a', profile)).toEqual({ similarity: 1, comparator: 'Exact' });
  });

  it('gives 1 for equal strings and 0 otherwise when the profile has no dictionaries', () => {
    const bare = profileWith({ NicknameDictionaries: [] });
    expect(compareWithComparator('Nickname', 'bill', 'bill', bare)).toEqual({ similarity: 1, comparator: 'Nickname' });
    expect(compareWithComparator('Nickname', 'bill', 'william', bare)).toEqual({
      similarity: 0,
      comparator: 'Nickname',
    });
  });
});
