import { describe, expect, it } from 'vitest';
import type { R4HumanName } from '../../../engine/fhir/patient.ts';
import {
  matchedUnderTraumaAlias,
  normaliseFamilyName,
  normaliseGivenNames,
  placeholderParts,
  previousFamilyNamesOf,
  selectCurrentName,
} from '../../../engine/normalise/name.ts';

describe('normaliseFamilyName', () => {
  it.each([
    ['Müller', 'muller'],
    ["O'Brien", 'obrien'],
    ['Smith-Jones', 'smith jones'],
    ['van der Berg', 'van der berg'],
    ['Smith Jr.', 'smith'],
    ['Smith, III', 'smith'],
    ['Dr Smith', 'smith'],
    ['Mrs. Smith Sr', 'smith'],
    ['Mrsmith', 'mrsmith'],
    ['Drummond', 'drummond'],
    ['Smith Dr Jones', 'smith dr jones'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseFamilyName(input)).toBe(expected);
  });

  it.each([undefined, '', '  ', 'Mr', 'Dr.', 'Jr. II'])('null when nothing is left (%j)', (input) => {
    expect(normaliseFamilyName(input)).toBeNull();
  });
});

describe('placeholder names', () => {
  it('are missing for matching when every word is a placeholder, and name the part', () => {
    expect(['UNKNOWN', 'Unknown Patient', 'Mr Unknown', 'anonymous', 'UNK'].map(normaliseFamilyName)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(normaliseGivenNames(['Unknown'])).toEqual({ givenName: null, middleNames: null });
    expect(normaliseGivenNames(['Patient', 'Unknown'])).toEqual({ givenName: null, middleNames: null });
    expect(placeholderParts([{ use: 'official', family: 'Unknown', given: ['Patient'] }])).toEqual(['family', 'given']);
    // A placeholder name is no name to match on: another current name is chosen, an old one never.
    const names: R4HumanName[] = [
      { use: 'official', family: 'Unknown', given: ['Patient'] },
      { use: 'usual', family: 'Garcia', given: ['Maria'] },
      { use: 'maiden', family: 'Unknown' },
    ];
    expect(selectCurrentName(names)?.family).toBe('Garcia');
    expect(placeholderParts(names.slice(2))).toEqual([]);
    expect(placeholderParts([{ family: 'Unknown', given: ['Maria'] }])).toEqual(['family']);
  });

  it('leave a real name that holds such a word, and the names that only look like one', () => {
    expect(normaliseFamilyName('Unknown Smith')).toBe('unknown smith');
    expect(normaliseFamilyName('Doe')).toBe('doe');
    expect(normaliseFamilyName('Unkel')).toBe('unkel');
    expect(normaliseGivenNames(['Baby', 'Boy'])).toEqual({ givenName: 'baby', middleNames: 'boy' });
    expect(normaliseGivenNames(['Maria', 'Unknown'])).toEqual({ givenName: 'maria', middleNames: 'unknown' });
    expect(placeholderParts([{ family: 'Doe', given: ['Mary'] }])).toEqual([]);
    expect(placeholderParts([{ family: 'Doe', given: ['John', 'Henry'] }])).toEqual([]);
    expect(placeholderParts(undefined)).toEqual([]);
  });

  it("an unidentified patient's alias is a placeholder as a whole name: both parts missing, another name chosen", () => {
    for (const [given, family] of [
      ['John', 'Doe'],
      ['JANE', 'DOE'],
      ['Baby', 'Doe'],
      ['Richard', 'Roe'],
      ['Mr John', 'Doe'],
    ] as const) {
      const name: R4HumanName = { use: 'official', family, given: [given] };
      expect(placeholderParts([name]), `${given} ${family}`).toEqual(['family', 'given']);
      expect(selectCurrentName([name]), `${given} ${family}`).toBeUndefined();
      expect(selectCurrentName([name, { use: 'usual', family: 'Garcia', given: ['Maria'] }])?.family).toBe('Garcia');
    }
  });

  it('a placeholder with a sex or a number beside it is a placeholder as a whole name, in either part', () => {
    for (const [given, family] of [
      ['Male', 'Unknown'],
      ['FEMALE', 'Unidentified'],
      ['M', 'Unknown'],
      ['Male 12', 'Unknown'],
      ['Unknown', 'Male'],
      ['Unknown Female', undefined],
    ] as const) {
      const name: R4HumanName = { use: 'official', ...(family === undefined ? {} : { family }), given: [given] };
      expect(placeholderParts([name]), `${given} ${family}`).toEqual(
        family === undefined ? ['given'] : ['family', 'given'],
      );
      expect(selectCurrentName([name]), `${given} ${family}`).toBeUndefined();
    }
    // Beside a real name the sex and the initial stay what they are: a given name, an initial.
    expect(placeholderParts([{ family: 'Unknown', given: ['Maria'] }])).toEqual(['family']);
    expect(placeholderParts([{ family: 'Smith', given: ['M'] }])).toEqual([]);
    expect(selectCurrentName([{ family: 'Male', given: ['Anna'] }])?.family).toBe('Male');
  });

  it("an emergency department's trauma alias is a placeholder as a whole name, whatever word or number goes with it", () => {
    for (const [given, family] of [
      ['Alpha', 'Trauma'],
      ['Bravo 12', 'ZZTrauma'],
      ['0412', 'TRAUMA'],
      ['Trauma', 'Zebra'],
      ['Charlie', 'ZZ-Trauma'],
      ['Unknown Trauma', undefined],
      // A mass-casualty incident's aliases.
      ['001', 'Disaster'],
      ['Alpha', 'MCI'],
      ['Bravo', 'ZZ-MCI'],
      ['Patient 7', 'ZZDisaster'],
    ] as const) {
      const name: R4HumanName = { use: 'official', ...(family === undefined ? {} : { family }), given: [given] };
      expect(placeholderParts([name]), `${given} ${family}`).toEqual(
        family === undefined ? ['given'] : ['family', 'given'],
      );
      expect(selectCurrentName([name]), `${given} ${family}`).toBeUndefined();
      // Once the patient is identified, the source adds the real name beside the alias: it is the one matched on.
      expect(selectCurrentName([name, { use: 'usual', family: 'Garcia', given: ['Maria'] }])?.family).toBe('Garcia');
    }
    // Matched under the alias (no other name), the record's birth date is the department's too.
    expect(matchedUnderTraumaAlias([{ family: 'Trauma', given: ['Alpha'] }])).toBe(true);
    expect(
      matchedUnderTraumaAlias([
        { family: 'Trauma', given: ['Alpha'] },
        { use: 'usual', family: 'Garcia', given: ['Maria'] },
      ]),
    ).toBe(false);
    expect(matchedUnderTraumaAlias([{ use: 'old', family: 'Trauma', given: ['Alpha'] }])).toBe(false);
    expect(matchedUnderTraumaAlias([{ family: 'Doe', given: ['John'] }])).toBe(false);
    expect(matchedUnderTraumaAlias(undefined)).toBe(false);
    // Only the whole word: names that begin with it are people's.
    expect(placeholderParts([{ family: 'Traumann', given: ['Greta'] }])).toEqual([]);
    expect(selectCurrentName([{ family: 'Traumann', given: ['Greta'] }])?.family).toBe('Traumann');
    // A mass-casualty alias is MCI as one word; M.C.I. is a person's initials.
    expect(matchedUnderTraumaAlias([{ family: 'MCI', given: ['Delta'] }])).toBe(true);
    expect(placeholderParts([{ family: 'Okafor', given: ['M.C.I.'] }])).toEqual([]);
  });
});

describe('normaliseGivenNames', () => {
  it('splits first and middle names', () => {
    expect(normaliseGivenNames(['José', 'María', 'Luisa'])).toEqual({ givenName: 'jose', middleNames: 'maria luisa' });
  });

  it('treats one element with spaces like separate elements', () => {
    expect(normaliseGivenNames(['Mary Ann'])).toEqual(normaliseGivenNames(['Mary', 'Ann']));
  });

  it('strips honorifics at either end', () => {
    expect(normaliseGivenNames(['Dr', 'John', 'Paul', 'Jr'])).toEqual({ givenName: 'john', middleNames: 'paul' });
    expect(normaliseGivenNames(['Miss Anne'])).toEqual({ givenName: 'anne', middleNames: null });
    expect(normaliseGivenNames(['Prof.', 'Mx', 'Sam'])).toEqual({ givenName: 'sam', middleNames: null });
  });

  it('skips blank parts', () => {
    expect(normaliseGivenNames(['', ' Anne ', '-'])).toEqual({ givenName: 'anne', middleNames: null });
  });

  it.each([undefined, [], [''], ['Mr'], ['Mrs', 'Dr']])('null names when nothing is left (%j)', (given) => {
    expect(normaliseGivenNames(given)).toEqual({ givenName: null, middleNames: null });
  });
});

describe('selectCurrentName', () => {
  const official: R4HumanName = { use: 'official', family: 'Official' };
  const usual: R4HumanName = { use: 'usual', family: 'Usual' };
  const plain: R4HumanName = { family: 'Plain' };
  const temp: R4HumanName = { use: 'temp', family: 'Temp' };
  const old: R4HumanName = { use: 'old', family: 'Old' };
  const maiden: R4HumanName = { use: 'maiden', family: 'Maiden' };
  const nickname: R4HumanName = { use: 'nickname', given: ['Nick'] };
  const alias: R4HumanName = { use: 'anonymous', family: 'Jones', given: ['Mary'] };

  it('prefers official, then usual, then the first other current name', () => {
    expect(selectCurrentName([old, plain, usual, official])).toBe(official);
    expect(selectCurrentName([old, plain, usual])).toBe(usual);
    expect(selectCurrentName([maiden, nickname, temp, plain])).toBe(temp);
    expect(selectCurrentName([old, maiden, nickname, plain])).toBe(plain);
  });

  it('never picks old, maiden, nickname or anonymous names', () => {
    expect(selectCurrentName([old, maiden, nickname])).toBeUndefined();
    expect(selectCurrentName([alias])).toBeUndefined();
    expect(selectCurrentName([alias, plain])).toBe(plain);
    expect(selectCurrentName(undefined)).toBeUndefined();
    expect(selectCurrentName([])).toBeUndefined();
  });

  it('passes over names without a family or given part', () => {
    const emptyOfficial: R4HumanName = { use: 'official', text: 'Anne Smith' };
    expect(selectCurrentName([emptyOfficial, usual])).toBe(usual);
    expect(selectCurrentName([{ use: 'usual', family: ' ' }, plain])).toBe(plain);
  });
});

describe('previousFamilyNamesOf', () => {
  it('collects old and maiden family names, normalised, distinct and without the current one', () => {
    const names: R4HumanName[] = [
      { use: 'official', family: 'Smith' },
      { use: 'maiden', family: 'Jones' },
      { use: 'old', family: 'Müller' },
      { use: 'old', family: 'JONES' },
      { use: 'old', family: 'Smith' },
      { use: 'nickname', family: 'Nick' },
      { use: 'old', given: ['Anne'] },
    ];
    expect(previousFamilyNamesOf(names, 'smith')).toEqual(['jones', 'muller']);
    expect(previousFamilyNamesOf(names, null)).toEqual(['jones', 'muller', 'smith']);
    expect(previousFamilyNamesOf(undefined, null)).toEqual([]);
  });
});
