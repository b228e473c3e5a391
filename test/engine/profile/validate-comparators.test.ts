import { describe, it, expect } from 'vitest';
import {
  comparatorProfileIssues,
  MAX_ALIASES_PER_NAME,
  MAX_NICKNAME_DICTIONARIES,
  MAX_NICKNAME_ENTRIES,
} from '../../../engine/profile/validate-comparators.ts';
import type { ErrorIssue } from '../../../engine/contract/errors.ts';

// Reference: specification, "Comparator profile", rule 3 (alias in more than one group, duplicate
// versions, empty values, too many dictionaries, unknown comparators, Nickname without a dictionary)
// and "Versioning", rule 3 (duplicate version labels are rejected).

interface Dictionary {
  Version: string;
  Culture: string;
  Entries: Record<string, string[]>;
}

function dictionary(overrides: Partial<Dictionary> = {}): Dictionary {
  return {
    Version: 'nick-1',
    Culture: 'en-US',
    Entries: { william: ['bill', 'will'], robert: ['bob', 'rob'] },
    ...overrides,
  };
}

function profile(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Version: 'comparators-1',
    FamilyName: ['JaroWinkler', 'Phonetic'],
    GivenNames: ['JaroWinkler', 'Nickname'],
    PhoneticMatchFloor: 0.8,
    NicknameMatchFloor: 0.9,
    NicknameDictionaries: [dictionary()],
    ...overrides,
  };
}

/** The single issue at a path, asserting its message names that path and the quoted value. */
function expectIssue(issues: readonly ErrorIssue[], path: string, value: unknown): ErrorIssue {
  const matching = issues.filter((issue) => issue.path === path);
  expect(matching, JSON.stringify(issues)).toHaveLength(1);
  const [issue] = matching;
  if (issue === undefined) throw new Error('unreachable');
  expect(issue.message).toContain(path);
  expect(issue.message).toContain(JSON.stringify(value));
  return issue;
}

describe('comparatorProfileIssues', () => {
  it('accepts a valid profile', () => {
    expect(comparatorProfileIssues(profile())).toEqual([]);
    expect(comparatorProfileIssues(profile({ GivenNames: ['Exact'], NicknameDictionaries: [] }))).toEqual([]);
  });

  it('reports structural problems with dotted paths and the offending value', () => {
    const issues = comparatorProfileIssues(
      profile({ NicknameDictionaries: [dictionary({ Version: 7 as unknown as string })], Extra: true }),
    );
    expectIssue(issues, 'Comparators.NicknameDictionaries[0].Version', 7);
    const extra = issues.find((issue) => issue.path === 'Comparators');
    expect(extra?.message).toContain('"Extra"');
    expect(comparatorProfileIssues(null)).toHaveLength(1);
  });

  it('uses the given base path', () => {
    const issues = comparatorProfileIssues(profile({ FamilyName: [] }), 'profile.Comparators');
    expectIssue(issues, 'profile.Comparators.FamilyName', []);
  });

  it('rejects an unknown comparator and lists the supported ones', () => {
    const issues = comparatorProfileIssues(profile({ FamilyName: ['JaroWinkler', 'Soundex'] }));
    const issue = expectIssue(issues, 'Comparators.FamilyName[1]', 'Soundex');
    for (const name of [
      'Exact',
      'JaroWinkler',
      'NormalisedDamerauLevenshtein',
      'DiceCoefficient',
      'Phonetic',
      'Nickname',
    ]) {
      expect(issue.message).toContain(name);
    }
    expect(issues).toHaveLength(1);
  });

  it('rejects an empty comparator list', () => {
    expectIssue(comparatorProfileIssues(profile({ GivenNames: [] })), 'Comparators.GivenNames', []);
  });

  it('rejects a comparator listed twice', () => {
    const issues = comparatorProfileIssues(profile({ GivenNames: ['Exact', 'JaroWinkler', 'Exact'] }));
    expect(expectIssue(issues, 'Comparators.GivenNames[2]', 'Exact').message).toContain('Comparators.GivenNames[0]');
  });

  it('rejects a Nickname comparator when there is no dictionary', () => {
    const issues = comparatorProfileIssues(
      profile({ FamilyName: ['Nickname'], GivenNames: ['Exact', 'Nickname'], NicknameDictionaries: [] }),
    );
    expectIssue(issues, 'Comparators.FamilyName[0]', 'Nickname');
    expectIssue(issues, 'Comparators.GivenNames[1]', 'Nickname');
    expect(issues).toHaveLength(2);
  });

  it('rejects an empty comparator version, dictionary version and culture', () => {
    const issues = comparatorProfileIssues(
      profile({ Version: '  ', NicknameDictionaries: [dictionary({ Version: '', Culture: ' ' })] }),
    );
    expectIssue(issues, 'Comparators.Version', '  ');
    expectIssue(issues, 'Comparators.NicknameDictionaries[0].Version', '');
    expectIssue(issues, 'Comparators.NicknameDictionaries[0].Culture', ' ');
  });

  it('rejects an empty canonical name, an empty alias and a canonical name without aliases', () => {
    const issues = comparatorProfileIssues(
      profile({
        NicknameDictionaries: [dictionary({ Entries: { ' ': ['x'], william: ['bill', '  '], robert: [] } })],
      }),
    );
    expectIssue(issues, 'Comparators.NicknameDictionaries[0].Entries. ', ' ');
    expectIssue(issues, 'Comparators.NicknameDictionaries[0].Entries.william[1]', '  ');
    expectIssue(issues, 'Comparators.NicknameDictionaries[0].Entries.robert', 'robert');
  });

  it('rejects a dictionary without entries', () => {
    const issues = comparatorProfileIssues(profile({ NicknameDictionaries: [dictionary({ Entries: {} })] }));
    expectIssue(issues, 'Comparators.NicknameDictionaries[0].Entries', {});
  });

  it('rejects a culture that is not a language-region tag', () => {
    for (const culture of ['english', 'en', 'en-us', 'EN-US', 'en_US', ' en-US']) {
      const issues = comparatorProfileIssues(profile({ NicknameDictionaries: [dictionary({ Culture: culture })] }));
      expectIssue(issues, 'Comparators.NicknameDictionaries[0].Culture', culture);
    }
    for (const culture of ['fr-CA', 'haw-US']) {
      expect(comparatorProfileIssues(profile({ NicknameDictionaries: [dictionary({ Culture: culture })] }))).toEqual(
        [],
      );
    }
  });

  it('rejects two dictionaries with the same version', () => {
    const issues = comparatorProfileIssues(
      profile({
        NicknameDictionaries: [dictionary(), dictionary({ Version: 'nick-1', Entries: { margaret: ['peggy'] } })],
      }),
    );
    const issue = expectIssue(issues, 'Comparators.NicknameDictionaries[1].Version', 'nick-1');
    expect(issue.message).toContain('Comparators.NicknameDictionaries[0].Version');
    expect(issues).toHaveLength(1);
  });

  it('rejects a dictionary version equal to the comparator version', () => {
    const issues = comparatorProfileIssues(
      profile({ NicknameDictionaries: [dictionary({ Version: 'comparators-1' })] }),
    );
    expectIssue(issues, 'Comparators.NicknameDictionaries[0].Version', 'comparators-1');
  });

  it('rejects an alias assigned to two groups in one dictionary, case-insensitively after trimming', () => {
    const issues = comparatorProfileIssues(
      profile({ NicknameDictionaries: [dictionary({ Entries: { william: ['bill'], wilbur: [' Bill '] } })] }),
    );
    const issue = expectIssue(issues, 'Comparators.NicknameDictionaries[0].Entries.wilbur[0]', ' Bill ');
    expect(issue.message).toContain('Comparators.NicknameDictionaries[0].Entries.william[0]');
  });

  it('rejects an alias assigned to groups in different dictionaries', () => {
    const issues = comparatorProfileIssues(
      profile({
        NicknameDictionaries: [
          dictionary(),
          dictionary({ Version: 'nick-2', Culture: 'en-GB', Entries: { bobby: ['rob'] } }),
        ],
      }),
    );
    expectIssue(issues, 'Comparators.NicknameDictionaries[1].Entries.bobby[0]', 'rob');
  });

  it('rejects a canonical name that is already in another group', () => {
    const issues = comparatorProfileIssues(
      profile({ NicknameDictionaries: [dictionary({ Entries: { william: ['bill'], Bill: ['billy'] } })] }),
    );
    expectIssue(issues, 'Comparators.NicknameDictionaries[0].Entries.Bill', 'Bill');
  });

  it('rejects an alias repeated within its own group', () => {
    const issues = comparatorProfileIssues(
      profile({ NicknameDictionaries: [dictionary({ Entries: { william: ['bill', 'BILL', 'William'] } })] }),
    );
    expectIssue(issues, 'Comparators.NicknameDictionaries[0].Entries.william[1]', 'BILL');
    expectIssue(issues, 'Comparators.NicknameDictionaries[0].Entries.william[2]', 'William');
    expect(issues).toHaveLength(2);
  });

  it('rejects too many dictionaries', () => {
    const many = Array.from({ length: MAX_NICKNAME_DICTIONARIES + 1 }, (_, i) =>
      dictionary({ Version: `nick-${i}`, Entries: { [`name${i}`]: [`alias${i}`] } }),
    );
    expect(MAX_NICKNAME_DICTIONARIES).toBe(8);
    const issues = comparatorProfileIssues(profile({ NicknameDictionaries: many }));
    expectIssue(issues, 'Comparators.NicknameDictionaries', MAX_NICKNAME_DICTIONARIES + 1);
    expect(issues).toHaveLength(1);
    expect(comparatorProfileIssues(profile({ NicknameDictionaries: many.slice(0, 8) }))).toEqual([]);
  });

  it('rejects too many canonical names in one dictionary', () => {
    const entries: Record<string, string[]> = {};
    for (let i = 0; i <= MAX_NICKNAME_ENTRIES; i++) entries[`name${i}`] = [`alias${i}`];
    const issues = comparatorProfileIssues(profile({ NicknameDictionaries: [dictionary({ Entries: entries })] }));
    expectIssue(issues, 'Comparators.NicknameDictionaries[0].Entries', MAX_NICKNAME_ENTRIES + 1);
    expect(issues).toHaveLength(1);
  });

  it('rejects too many aliases for one name', () => {
    const aliases = Array.from({ length: MAX_ALIASES_PER_NAME + 1 }, (_, i) => `alias${i}`);
    const issues = comparatorProfileIssues(
      profile({ NicknameDictionaries: [dictionary({ Entries: { william: aliases } })] }),
    );
    const issue = expectIssue(issues, 'Comparators.NicknameDictionaries[0].Entries.william', 'william');
    expect(issue.message).toContain(String(MAX_ALIASES_PER_NAME + 1));
  });

  it('rejects floors outside [0, 1]', () => {
    const issues = comparatorProfileIssues(profile({ PhoneticMatchFloor: 1.5, NicknameMatchFloor: -0.1 }));
    expectIssue(issues, 'Comparators.PhoneticMatchFloor', 1.5);
    expectIssue(issues, 'Comparators.NicknameMatchFloor', -0.1);
    expect(comparatorProfileIssues(profile({ PhoneticMatchFloor: 0, NicknameMatchFloor: 1 }))).toEqual([]);
  });

  it('reports every issue, in a stable order', () => {
    const broken = profile({
      Version: '',
      FamilyName: ['Soundex'],
      GivenNames: ['Nickname', 'Nickname'],
      PhoneticMatchFloor: 2,
      NicknameDictionaries: [dictionary({ Culture: 'english', Entries: { william: ['bill'], wilbur: ['bill'] } })],
    });
    const first = comparatorProfileIssues(broken);
    expect(first.map((issue) => issue.path)).toEqual([
      'Comparators.PhoneticMatchFloor',
      'Comparators.Version',
      'Comparators.FamilyName[0]',
      'Comparators.GivenNames[1]',
      'Comparators.NicknameDictionaries[0].Culture',
      'Comparators.NicknameDictionaries[0].Entries.wilbur[0]',
    ]);
    expect(comparatorProfileIssues(broken)).toEqual(first);
  });
});
