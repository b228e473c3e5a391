/**
 * A record without a given name. The given name is what tells twins apart, and with it and the birth date both
 * missing only the family name is the person's: the address and phone are the household's. Newborn twins registered
 * under the family name alone (a boy and a girl among them), a twin's record whose given name a source left out, and
 * a record of a family name, a sex and the household's contact details were linked at a score of 1 or nearly. A given
 * name that is an initial alone ("J") tells twins apart no better: James and John are both "J", and two such records
 * of one birth date were linked at 1.
 */
import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import type { MatchingProfile } from '../../../engine/contract/profile.ts';
import type { MatchResult } from '../../../engine/contract/matching.ts';
import { explainPair, householdRecord } from '../../helpers/household-patient.ts';

const SSN = 'http://hl7.org/fhir/sid/us-ssn';
const base = defaultProfile([{ SourceSystem: 'a' }]);

interface Person {
  /** The given name, or the given name and middle names. */
  readonly given?: string | readonly string[];
  readonly gender?: 'male' | 'female';
  readonly birthDate?: string;
  readonly ssn?: string;
}

/** A record of the Okafor household (one address and phone). */
const okafor = (p: Person) =>
  householdRecord({
    name: [{ family: 'Okafor', ...(p.given === undefined ? {} : { given: [p.given].flat() }) }],
    ...(p.gender === undefined ? {} : { gender: p.gender }),
    ...(p.birthDate === undefined ? {} : { birthDate: p.birthDate }),
    ...(p.ssn === undefined ? {} : { identifier: [{ system: SSN, value: p.ssn }] }),
  });

const pair = (a: Person, b: Person, profile: MatchingProfile = base): MatchResult =>
  explainPair(profile, okafor(a), okafor(b));
const held = (r: MatchResult) => [r.decision, r.limitedBy];

const NEWBORN = '2026-11-20';
const BORN = '2010-04-05';
const JAMES: Person = { given: 'James', gender: 'male', birthDate: BORN };

describe('a record without a given name', () => {
  it('holds as possible twins a pair of one family name and birth date when a given name is missing', () => {
    const cases: [string, Person, Person][] = [
      [
        'newborn twins, a boy and a girl',
        { gender: 'male', birthDate: NEWBORN },
        { gender: 'female', birthDate: NEWBORN },
      ],
      ['newborn twins, two boys', { gender: 'male', birthDate: NEWBORN }, { gender: 'male', birthDate: NEWBORN }],
      [
        'a newborn and the same day’s named baby',
        { gender: 'male', birthDate: NEWBORN },
        { ...JAMES, birthDate: NEWBORN },
      ],
      ['a twin’s record without its given name', { gender: 'male', birthDate: BORN }, JAMES],
      ['under another sex, birth dates a keying error apart', { gender: 'female', birthDate: '2010-04-06' }, JAMES],
    ];
    for (const [what, a, b] of cases) {
      const r = pair(a, b);
      expect(held(r), what).toEqual(['probable', 'PossibleTwin']);
      // The family name, birth date and household would have linked them.
      expect(r.heldFrom, what).toBeGreaterThan(0.99);
    }
  });

  it('leaves to the model what the twin rule leaves: no sex on one record, or one sex and dates a keying error apart', () => {
    const noSex = pair({ birthDate: BORN }, { given: 'James', birthDate: BORN });
    const keyingError = pair({ gender: 'male', birthDate: '2010-04-06' }, JAMES);
    for (const r of [noSex, keyingError]) expect(held(r)).toEqual(['certain', undefined]);
    // And one person's records whose given names agree are linked as ever.
    expect(held(pair(JAMES, JAMES))).toEqual(['certain', undefined]);
  });

  it('does not count the household’s address and phone for a record with a family name alone', () => {
    // "Okafor", a sex, the household's address and phone: any of the family.
    const familyOnly = pair({ gender: 'male' }, JAMES);
    expect(familyOnly.decision).toBe('no-match');
    expect(familyOnly.score).toBeLessThan(0.2);
    // A personal number that agrees says who the person is, and the household's agreement counts beside it.
    const personal: MatchingProfile = { ...base, PersonalIdentifierSystems: [SSN] };
    const numbered = pair({ gender: 'male', ssn: '532618842' }, { ...JAMES, ssn: '532618842' }, personal);
    expect(held(numbered)).toEqual(['certain', undefined]);
  });

  it('holds for review a family name alone that the model weighs heavily (a rare name’s term frequency)', () => {
    const model = base.MatchingRules.FellegiSunter;
    if (model == null) throw new Error('the default profile has a model');
    const family = model.fields.familyName;
    if (family === undefined) throw new Error('the default model weighs the family name');
    // A family name agreeing exactly one time in a billion by chance, as a registry's rarest names are weighed.
    const rare: MatchingProfile = {
      ...base,
      MatchingRules: {
        ...base.MatchingRules,
        FellegiSunter: {
          ...model,
          fields: { ...model.fields, familyName: { ...family, u: { ...family.u, Exact: 1e-9 } } },
        },
      },
    };
    const r = pair({ gender: 'male' }, JAMES, rare);
    expect(held(r)).toEqual(['probable', 'NamesOnly']);
    expect(r.heldFrom).toBeGreaterThan(0.99);
  });
});

describe('a given name that is an initial alone', () => {
  it('holds as possible twins a pair of one family name and birth date, as a missing given name does', () => {
    const cases: [string, Person, Person][] = [
      [
        'J and J, one sex',
        { given: 'J', gender: 'male', birthDate: BORN },
        { given: 'J.', gender: 'male', birthDate: BORN },
      ],
      [
        'J and J, a boy and a girl',
        { given: 'J', gender: 'male', birthDate: BORN },
        { given: 'J', gender: 'female', birthDate: BORN },
      ],
      ['J and James', { given: 'J', gender: 'male', birthDate: BORN }, JAMES],
    ];
    for (const [what, a, b] of cases) expect(held(pair(a, b)), what).toEqual(['probable', 'PossibleTwin']);
  });

  it('leaves to the model what the twin rule leaves: no sex on one record, birth dates that differ', () => {
    expect(held(pair({ given: 'J', birthDate: BORN }, { given: 'J', gender: 'male', birthDate: BORN }))[1]).toBe(
      undefined,
    );
    const other = pair({ given: 'J', gender: 'male', birthDate: '1980-01-02' }, { ...JAMES, given: 'J' });
    expect(other.limitedBy).not.toBe('PossibleTwin');
  });

  it('is a Latin letter: a given name of one character of another script is a name', () => {
    // 王伟 twice: one person's records, linked as ever; 伟 and 芳 of one birth date are possible twins as before.
    const wei: Person = { given: '伟', gender: 'male', birthDate: BORN };
    expect(held(pair(wei, wei))).toEqual(['certain', undefined]);
    expect(held(pair(wei, { ...wei, given: '芳' }))).toEqual(['probable', 'PossibleTwin']);
  });
});

describe('an initial alone beside a name of its letter', () => {
  it('agrees Strong, at its own level; an initial of another letter is another name', () => {
    const given = (r: MatchResult) => r.evidence.find((e) => e.field === 'givenName');
    expect(given(pair({ given: 'J', gender: 'male', birthDate: BORN }, JAMES))).toMatchObject({
      band: 'Strong',
      level: 'initial-of-name',
    });
    const other = given(pair({ given: 'M', gender: 'male', birthDate: BORN }, JAMES));
    expect(other?.band).toBe('Different');
    expect(other?.level).toBeUndefined();
  });

  it('is held, never linked, where the twin rule alone would not hold it: no sex, a birth date a keying error apart', () => {
    const cases: [string, Person, Person][] = [
      ['no sex on either record', { given: 'J', birthDate: BORN }, { given: 'James', birthDate: BORN }],
      ['a birth date a keying error apart', { given: 'J', gender: 'male', birthDate: '2010-04-06' }, JAMES],
      ['no birth date on the initial’s record', { given: 'J', gender: 'male' }, JAMES],
    ];
    for (const [what, a, b] of cases) {
      const r = pair(a, b);
      expect([...held(r), r.twinReason], what).toEqual(['probable', 'PossibleTwin', 'initial-alone']);
      // Its fields alone would have linked it: the household's address and phone count beside a Strong given name.
      expect(r.heldFrom, what).toBeGreaterThan(0.97);
    }
  });

  it('links as before where a personal number agrees and no twin rule holds the pair', () => {
    const personal: MatchingProfile = { ...base, PersonalIdentifierSystems: [SSN] };
    const r = pair(
      { given: 'J', birthDate: BORN, ssn: '532618842' },
      { given: 'James', birthDate: BORN, ssn: '532618842' },
      personal,
    );
    expect(held(r)).toEqual(['certain', undefined]);
  });
});

describe('an initial alone beside a middle name of its letter', () => {
  const ROBERT_JAMES: Person = { ...JAMES, given: ['Robert', 'James'] };
  const given = (r: MatchResult) => r.evidence.find((e) => e.field === 'givenName');

  it('agrees Strong at its own level and is held, never linked: J beside Robert James may be a man who goes by James', () => {
    for (const j of [
      { given: 'J', gender: 'male', birthDate: BORN },
      { given: 'J', birthDate: BORN },
    ] as const) {
      const r = pair(j, ROBERT_JAMES);
      expect(given(r), j.gender ?? 'no sex').toMatchObject({ band: 'Strong', level: 'initial-of-middle-name' });
      expect([...held(r), r.twinReason]).toEqual(['probable', 'PossibleTwin', 'initial-alone']);
    }
  });

  it('does not count where the initial is of no name of the other, or its own record gives a middle name', () => {
    expect(given(pair({ ...JAMES, given: 'M' }, ROBERT_JAMES))?.band).toBe('Different');
    // "J R" names its middle name, and R is not James.
    const jr = given(pair({ ...JAMES, given: ['J', 'R'] }, ROBERT_JAMES));
    expect(jr?.band).toBe('Different');
    expect(jr?.level).toBeUndefined();
  });
});
