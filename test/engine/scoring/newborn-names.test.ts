/**
 * Newborns registered before they are named ("Baby Boy Smith", "Twin A": engine/normalise/newborn-name.ts). Twins
 * carry the same placeholder words, family name, birth date, address and phone, so no such pair may be linked
 * automatically, under the default model and under weighted similarity; one baby's records go to review too. Only
 * a trusted identifier says who a newborn is: a personal one on a newborn's record is its mother's as often as its own.
 */
import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import { isNewbornName } from '../../../engine/normalise/newborn-name.ts';
import type { R4HumanName } from '../../../engine/fhir/patient.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import type { MatchingProfile } from '../../../engine/contract/profile.ts';
import { explainPair, householdRecord } from '../../helpers/household-patient.ts';

const NHI = 'urn:nhi';
const SSN = 'urn:ssn';
const modelProfile: MatchingProfile = {
  ...defaultProfile([{ SourceSystem: 'a' }]),
  TrustedIdentifierSystems: [NHI],
  PersonalIdentifierSystems: [SSN],
};
const weightedProfile: MatchingProfile = {
  ...modelProfile,
  MatchingRules: { Thresholds: { Certain: 0.92, Probable: 0.75 }, FellegiSunter: null },
};

/** A newborn's record as a maternity ward sends it: the mother's address and phone, born on one day. */
function newborn(
  name: R4HumanName,
  gender: string | undefined,
  extra: { birthDate?: string; identifier?: { system: string; value: string }[] } = {},
): MatchFields {
  return householdRecord({
    id: 'n',
    name: [{ use: 'official', ...name }],
    ...(gender === undefined ? {} : { gender }),
    birthDate: extra.birthDate ?? '2026-11-20',
    ...(extra.identifier === undefined ? {} : { identifier: extra.identifier }),
  });
}

const decide = explainPair;

const TWINS: Record<string, [MatchFields, MatchFields]> = {
  'Baby Boy and Baby Girl': [
    newborn({ family: 'Smith', given: ['Baby', 'Boy'] }, 'male'),
    newborn({ family: 'Smith', given: ['Baby', 'Girl'] }, 'female'),
  ],
  'Baby Boy A and Baby Boy B': [
    newborn({ family: 'Smith', given: ['Baby', 'Boy', 'A'] }, 'male'),
    newborn({ family: 'Smith', given: ['Baby', 'Boy', 'B'] }, 'male'),
  ],
  'Twin A and Twin B, no sex recorded': [
    newborn({ family: 'Smith', given: ['Twin', 'A'] }, undefined),
    newborn({ family: 'Smith', given: ['Twin', 'B'] }, undefined),
  ],
  'Babyboy and Babygirl': [
    newborn({ family: 'Smith', given: ['Babyboy'] }, 'male'),
    newborn({ family: 'Smith', given: ['Babygirl'] }, 'female'),
  ],
  'Judysgirl A and Judysgirl B (the mother’s name)': [
    newborn({ family: 'Smith', given: ['Judysgirl', 'A'] }, 'female'),
    newborn({ family: 'Smith', given: ['Judysgirl', 'B'] }, 'female'),
  ],
  'Judysgirla and Judysgirlb': [
    newborn({ family: 'Smith', given: ['Judysgirla'] }, 'female'),
    newborn({ family: 'Smith', given: ['Judysgirlb'] }, 'female'),
  ],
  'Baby of Maria A and Baby of Maria B (the mother’s name after “of”)': [
    newborn({ family: 'Smith', given: ['Baby', 'of', 'Maria', 'A'] }, 'female'),
    newborn({ family: 'Smith', given: ['Baby', 'of', 'Maria', 'B'] }, 'female'),
  ],
  'Judy’s Girl A and Judy’s Girl B': [
    newborn({ family: 'Smith', given: ['Judy’s', 'Girl', 'A'] }, 'female'),
    newborn({ family: 'Smith', given: ['Judy’s', 'Girl', 'B'] }, 'female'),
  ],
  'Female A and Female B': [
    newborn({ family: 'Smith', given: ['Female', 'A'] }, 'female'),
    newborn({ family: 'Smith', given: ['Female', 'B'] }, 'female'),
  ],
  'Baby Girl Maria twice (the mother’s first name after the words for the baby)': [
    newborn({ family: 'Smith', given: ['Baby', 'Girl', 'Maria'] }, 'female'),
    newborn({ family: 'Smith', given: ['Baby', 'Girl', 'Maria'] }, 'female'),
  ],
  'BG Maria A and BG Maria B': [
    newborn({ family: 'Smith', given: ['BG Maria', 'A'] }, 'female'),
    newborn({ family: 'Smith', given: ['BG Maria', 'B'] }, 'female'),
  ],
  'Infant 1 and Infant 2': [
    newborn({ family: 'Smith', given: ['Infant 1'] }, 'female'),
    newborn({ family: 'Smith', given: ['Infant 2'] }, 'female'),
  ],
};

describe('newborn placeholder names', () => {
  it('are told from given names: placeholder words with at least one naming a newborn', () => {
    for (const [given, middle] of [
      ['baby', 'boy'],
      ['baby', 'girl a'],
      ['twin', 'b'],
      ['bb', null],
      ['infant', '2'],
      ['girl', null],
      ['newborn', 'male'],
      ['judysgirl', null],
      ['judysgirl', 'a'],
      ['judysgirlb', null],
      ['marysboy', 'twin'],
      ['baby', 'of maria'],
      ['baby', 'of maria garcia b'],
      ['judys', 'girl a'],
      ['marias', 'baby'],
      ['female', 'a'],
      ['male', '2'],
      ['baby', 'girl maria'],
      ['babygirl', 'maria'],
      ['bg', 'maria a'],
      ['baby', 'boy maria jose b'],
      ['judys', 'girl maria'],
    ] as const)
      expect(isNewbornName(given, middle), `${given} ${middle ?? ''}`).toBe(true);
    for (const [given, middle] of [
      ['boyd', null],
      ['a', 'b'],
      ['baby', 'john'],
      ['liam', 'boy'],
      [null, 'baby'],
      ['bo', null],
      ['male', null],
      ['elroy', null],
      ['sgirl', null],
      ['judysgirlz', null],
      ['female', null],
      ['m', 'a'],
      ['judys', null],
      ['maria', 'girl'],
      ['liam', 'judys girl'],
      ['of', 'maria'],
      ['baby', 'of'],
      ['baby', 'john girl'],
      ['girl', 'maria'],
      ['boy', 'james'],
      ['maria', 'baby girl'],
      ['a', 'maria girl'],
    ] as const)
      expect(isNewbornName(given, middle), `${String(given)} ${middle ?? ''}`).toBe(false);
  });

  for (const [method, profile] of [
    ['default model', modelProfile],
    ['weighted similarity', weightedProfile],
  ] as const) {
    for (const [who, [left, right]] of Object.entries(TWINS)) {
      it(`${method}: twins registered as ${who} are held for review, never linked`, () => {
        const result = decide(profile, left, right);
        expect(result).toMatchObject({ decision: 'probable', limitedBy: 'PossibleTwin' });
        expect(result.evidence.find((e) => e.field === 'givenName')).toMatchObject({
          similarity: null,
          level: 'newborn-placeholder',
        });
      });
    }
  }

  it("one baby's two placeholder records, and its placeholder beside its name, go to review", () => {
    const [boy] = TWINS['Baby Boy and Baby Girl'] as [MatchFields, MatchFields];
    expect(decide(modelProfile, boy, boy)).toMatchObject({ decision: 'probable', limitedBy: 'PossibleTwin' });
    const named = newborn({ family: 'Smith', given: ['Liam'] }, 'male');
    expect(decide(modelProfile, boy, named)).toMatchObject({ decision: 'probable', limitedBy: 'PossibleTwin' });
  });

  it("a trusted identifier says who the newborn is; a personal one, as often the mother's, does not lift the hold", () => {
    const [boy, girl] = TWINS['Baby Boy A and Baby Boy B'] as [MatchFields, MatchFields];
    const nhi = [{ system: NHI, value: 'ZZZ0016' }];
    expect(decide(modelProfile, { ...boy, identifiers: nhi }, { ...boy, identifiers: nhi })).toMatchObject({
      decision: 'certain',
      decidedBy: 'trusted-identifier',
    });
    const ssn = [{ system: SSN, value: '4471093' }];
    // Twins registered under their mother's number agree on it as one baby's records do.
    const shared = decide(modelProfile, { ...boy, identifiers: ssn }, { ...girl, identifiers: ssn });
    expect(shared).toMatchObject({ decision: 'probable', limitedBy: 'PossibleTwin' });
    expect(decide(modelProfile, { ...boy, identifiers: ssn }, { ...boy, identifiers: ssn }).limitedBy).toBe(
      'PossibleTwin',
    );
    // Nor do twins' numbers handed out in sequence.
    const sequential = decide(
      modelProfile,
      { ...boy, identifiers: ssn },
      { ...girl, identifiers: [{ system: SSN, value: '4471094' }] },
    );
    expect(sequential.decision).not.toBe('certain');
  });

  it('siblings born on other days are not held: their birth dates disagree, and the model keeps them apart', () => {
    const older = newborn({ family: 'Smith', given: ['Baby', 'Girl'] }, 'female', { birthDate: '2023-04-02' });
    const younger = newborn({ family: 'Smith', given: ['Baby', 'Girl'] }, 'female');
    const result = decide(modelProfile, older, younger);
    expect(result.decision).toBe('no-match');
    expect(result.limitedBy).toBeUndefined();
  });
});
