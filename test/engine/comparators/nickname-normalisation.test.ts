/**
 * Nickname dictionary names are normalised exactly like patient names (issue 7, item 13): accents, case,
 * apostrophes, punctuation and honorifics. So `José` and `Jose` in two groups are one name in two groups
 * (refused), an accented entry matches the normalised names it is compared with, and an entry that
 * normalises to nothing is refused.
 */
import { describe, expect, it } from 'vitest';
import { buildNicknameIndex, nicknameGroup } from '../../../engine/comparators/nickname.ts';
import {
  buildNameComparatorSet,
  compareNames,
  compareWithComparator,
  prepareName,
} from '../../../engine/comparators/name-comparison.ts';
import { comparatorProfileIssues } from '../../../engine/profile/validate-comparators.ts';
import { normaliseGivenNames } from '../../../engine/normalise/name.ts';
import type { ComparatorProfile, NicknameDictionary } from '../../../engine/contract/profile.ts';

const spanish: NicknameDictionary = {
  Version: 'es-test-1',
  Culture: 'es-ES',
  Entries: { José: ['Pepe', 'Chepe'], 'María-Dolores': ['Lola'], Ignacio: ['Nacho'] },
};

function profile(dictionaries: NicknameDictionary[]): ComparatorProfile {
  return {
    Version: 'c1',
    FamilyName: ['JaroWinkler'],
    GivenNames: ['JaroWinkler', 'Nickname'],
    PhoneticMatchFloor: 0.88,
    NicknameMatchFloor: 0.9,
    NicknameDictionaries: dictionaries,
  };
}

const given = (raw: string): string => normaliseGivenNames([raw]).givenName ?? '';

describe('nickname names are normalised like patient names', () => {
  it('refuses José and Jose (or JOSÉ, or José with a title) in two groups', () => {
    for (const other of ['Jose', 'JOSÉ', 'Jose\u0301', 'Dr José']) {
      const issues = comparatorProfileIssues(
        profile([spanish, { Version: 'pt-test-1', Culture: 'pt-PT', Entries: { [other]: ['Zé'] } }]),
      );
      expect(issues.map((i) => i.message).join('\n'), other).toMatch(/to a second nickname group/);
    }
    expect(
      comparatorProfileIssues(
        profile([spanish, { Version: 'pt-test-1', Culture: 'pt-PT', Entries: { Joaquim: ['Quim'] } }]),
      ),
    ).toEqual([]);
  });

  it('refuses a name that normalises to nothing', () => {
    const issues = comparatorProfileIssues(
      profile([{ Version: 'x-1', Culture: 'en-GB', Entries: { Robert: ['Mr', '?'] } }]),
    );
    expect(issues.map((i) => i.path)).toEqual([
      'Comparators.NicknameDictionaries[0].Entries.Robert[0]',
      'Comparators.NicknameDictionaries[0].Entries.Robert[1]',
    ]);
    expect(issues[0]?.message).toMatch(/nothing is left once normalised like a patient name/);
  });

  it('matches accented and punctuated entries against normalised patient names', () => {
    const set = buildNameComparatorSet(['JaroWinkler', 'Nickname'], profile([spanish]));
    const pairs: [string, string][] = [
      ['José', 'Pepe'],
      ['JOSE', 'chepe'],
      ['Ignácio', 'NACHO'],
    ];
    for (const [a, b] of pairs) {
      const result = compareNames(prepareName(given(a), set), prepareName(given(b), set), set);
      expect(result, `${a} / ${b}`).toMatchObject({
        similarity: 0.9,
        comparator: 'Nickname',
        culture: 'es-ES',
        dictionaryVersion: 'es-test-1',
      });
    }
    const index = buildNicknameIndex([spanish]);
    expect(nicknameGroup(index, 'maria dolores')?.group).toBe(nicknameGroup(index, 'lola')?.group);
    expect(compareWithComparator('Nickname', 'José', 'Pépé', profile([spanish])).similarity).toBe(0.9);
  });
});
