/**
 * Household evidence is not identity evidence (engine/scoring/household-evidence.ts) and the twin rule is lifted by
 * nothing but a trusted identifier (scorer.ts). Every household member here is two people: none may be linked
 * automatically, under the default model and under weighted similarity, whatever contact details or non-trusted
 * identifiers they share. The controls are one person each, and must still link.
 */
import { describe, expect, it } from 'vitest';
import { createScorer } from '../../../engine/scoring/scorer.ts';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import type { MatchingProfile } from '../../../engine/contract/profile.ts';
import { householdOnlyReason, scoreWaterfall } from '../../../engine/contract/score-explanation.ts';
import { scoreBasis } from '../../../engine/scoring/score-basis.ts';
import { SAMPLE_FIELDS } from '../../helpers/fields.ts';

const NHI = 'urn:nhi';
const MEMBER = 'urn:insurer:member-number';
const SSN = 'urn:ssn';
const child: MatchFields = { ...SAMPLE_FIELDS, email: null, identifiers: [] };

const modelProfile: MatchingProfile = { ...defaultProfile([{ SourceSystem: 'a' }]), TrustedIdentifierSystems: [NHI] };
const weightedProfile: MatchingProfile = {
  ...modelProfile,
  MatchingRules: { Thresholds: { Certain: 0.92, Probable: 0.75 }, FellegiSunter: null },
};

/** What a household shares: each alone, and all together. */
const SHARED: Record<string, Partial<MatchFields>> = {
  'a parent e-mail': { email: 'parent@example.org' },
  'a parent phone': { phone: '7700900123' },
  'a family member ID': { identifiers: [{ system: MEMBER, value: 'FAM-0042-7' }] },
  'a shared address': { addressLine: '9 orchard close', city: 'winchester', postalCode: 'SO238QT' },
  'all of them': {
    email: 'parent@example.org',
    phone: '7700900123',
    identifiers: [{ system: MEMBER, value: 'FAM-0042-7' }],
    addressLine: '9 orchard close',
    city: 'winchester',
    postalCode: 'SO238QT',
  },
};

/** None of what a household shares. */
const NONE: Partial<MatchFields> = {
  addressLine: null,
  city: null,
  state: null,
  postalCode: null,
  phone: null,
  email: null,
  identifiers: [],
};

/** Two people of one household, as [left, right] before the shared details are added to both. */
const HOUSEHOLD: Record<string, [MatchFields, MatchFields]> = {
  'same-sex twins': [child, { ...child, givenName: 'emma' }],
  'opposite-sex twins': [child, { ...child, givenName: 'oliver', sex: 'male' }],
  'same-sex twins, similar given names (Partial)': [child, { ...child, givenName: 'arabella' }],
  // Strong only by sound (Double Metaphone ANS), two keying errors apart: two names.
  'same-sex twins, given names that only sound alike': [
    { ...child, givenName: 'anais' },
    { ...child, givenName: 'janis' },
  ],
  'twins without a recorded sex': [
    { ...child, sex: null },
    { ...child, sex: null, givenName: 'emma' },
  ],
  'adult spouses sharing a household e-mail': [
    { ...child, givenName: 'sarah', birthDate: '1979-05-02' },
    { ...child, givenName: 'james', birthDate: '1977-11-23', sex: 'male' },
  ],
  'adult same-sex partners': [
    { ...child, givenName: 'sarah', birthDate: '1979-05-02' },
    { ...child, givenName: 'claire', birthDate: '1982-10-02' },
  ],
  'a mother and her adult daughter': [{ ...child, givenName: 'mary', birthDate: '1956-01-14' }, child],
  'adult siblings, no sex recorded': [
    { ...child, sex: null },
    { ...child, givenName: 'lucy', birthDate: '1987-05-11', sex: null },
  ],
  'a father and son of one name (Sr and Jr)': [
    { ...child, givenName: 'thomas', sex: 'male', birthDate: '1951-07-30' },
    { ...child, givenName: 'thomas', sex: 'male' },
  ],
  'a newborn without a given name and the mother': [
    { ...child, givenName: 'annabel', birthDate: '1990-02-11' },
    { ...child, givenName: null, birthDate: '2026-11-01' },
  ],
};

const decide = (profile: MatchingProfile, a: MatchFields, b: MatchFields) => {
  const scorer = createScorer(profile);
  return scorer.explain(scorer.prepare(a), scorer.prepare(b));
};

describe('two people of one household are never linked through what the household shares', () => {
  for (const [method, profile] of [
    ['default model', modelProfile],
    ['weighted similarity', weightedProfile],
  ] as const) {
    for (const [who, [left, right]] of Object.entries(HOUSEHOLD)) {
      for (const [what, shared] of Object.entries(SHARED)) {
        it(`${method}: ${who} with ${what}`, () => {
          const result = decide(profile, { ...left, ...shared }, { ...right, ...shared });
          expect(result.decision).not.toBe('certain');
          if (
            method === 'default model' &&
            left.sex !== null &&
            right.sex !== null &&
            left.birthDate === right.birthDate
          )
            expect(result.limitedBy).toBe('PossibleTwin');
        });
      }
    }
  }

  it('the shared details add nothing to such a pair: its score is the one it has without them', () => {
    for (const profile of [modelProfile, weightedProfile]) {
      for (const [left, right] of Object.values(HOUSEHOLD)) {
        if (left.birthDate === right.birthDate) continue; // twins: held by the twin rule either way
        const withAll = decide(profile, { ...left, ...SHARED['all of them'] }, { ...right, ...SHARED['all of them'] });
        const without = decide(profile, { ...left, ...NONE }, { ...right, ...NONE });
        if (profile === modelProfile) expect(withAll.score).toBeCloseTo(without.score, 12);
        else expect(withAll.score).toBeLessThanOrEqual(without.score);
      }
    }
  });

  it('marks the uncounted fields in the evidence, and the waterfall still ends on the score', () => {
    const [left, right] = HOUSEHOLD['adult spouses sharing a household e-mail'] as [MatchFields, MatchFields];
    const shared = SHARED['all of them'] ?? {};
    for (const profile of [modelProfile, weightedProfile]) {
      const result = decide(profile, { ...left, ...shared }, { ...right, ...shared });
      const marked = result.evidence.filter((e) => e.householdOnly === true).map((e) => e.field);
      expect(marked).toEqual(expect.arrayContaining(['addressLine', 'email', 'identifier']));
      for (const e of result.evidence.filter((x) => x.householdOnly === true))
        if (e.logLikelihood !== undefined) expect(e.logLikelihood).toBe(0);
      const waterfall = scoreWaterfall(result, scoreBasis(profile));
      expect(waterfall?.score).toBeCloseTo(result.score, 9);
      expect(householdOnlyReason(result.evidence)).toBe('the given name or birth date disagrees');
    }
  });
});

describe('one person still links', () => {
  const shared = SHARED['all of them'] ?? {};
  it('a mistyped given name or birth date (Strong) keeps the household evidence', () => {
    expect(decide(modelProfile, { ...child, ...shared }, { ...child, ...shared, givenName: 'anabel' }).decision).toBe(
      'certain',
    );
    expect(
      decide(modelProfile, { ...child, ...shared }, { ...child, ...shared, birthDate: '1984-03-18' }).decision,
    ).toBe('certain');
    expect(
      decide(
        modelProfile,
        { ...child, ...shared },
        { ...child, ...shared, birthDate: '1984-17-03'.replace('17-03', '03-17') },
      ).evidence.find((e) => e.householdOnly === true),
    ).toBeUndefined();
  });

  it('a trusted identifier links twins (it decides before any score)', () => {
    const nhi = { identifiers: [{ system: NHI, value: 'ZZZ0016' }] };
    const [left, right] = HOUSEHOLD['same-sex twins'] as [MatchFields, MatchFields];
    expect(decide(modelProfile, { ...left, ...nhi }, { ...right, ...nhi })).toMatchObject({
      decision: 'certain',
      decidedBy: 'trusted-identifier',
    });
  });

  it('a personal identifier (PersonalIdentifierSystems) keeps its weight when the given name was replaced, a family number does not', () => {
    const replaced: [MatchFields, MatchFields] = [
      { ...child, sex: null, identifiers: [{ system: SSN, value: '4471093' }] },
      {
        ...child,
        sex: null,
        givenName: 'sophie',
        birthDate: '1984-09-30',
        identifiers: [{ system: SSN, value: '4471093' }],
      },
    ];
    const personal: MatchingProfile = { ...modelProfile, PersonalIdentifierSystems: [SSN] };
    const asPersonal = decide(personal, ...replaced);
    expect(asPersonal.evidence.find((e) => e.field === 'identifier')).toMatchObject({ band: 'Exact' });
    expect(asPersonal.evidence.find((e) => e.householdOnly === true)).toBeUndefined();
    expect(asPersonal.decision).toBe('certain');
    // The same number under a system not named personal may be a family's: it counts for nothing here.
    const asFamily = decide(modelProfile, ...replaced);
    expect(asFamily.evidence.find((e) => e.field === 'identifier')?.householdOnly).toBe(true);
    expect(asFamily.decision).not.toBe('certain');
  });

  it('a personal number one keying error apart says who the person is; a sequential neighbour does not', () => {
    const personal: MatchingProfile = { ...modelProfile, PersonalIdentifierSystems: [SSN] };
    const shared = SHARED['all of them'] ?? {};
    // Twins' pattern without a sex: one family name, birth date and address; the given names differ.
    const pair = (left: string, right: string): [MatchFields, MatchFields] => [
      { ...child, ...shared, sex: null, identifiers: [{ system: SSN, value: left }] },
      { ...child, ...shared, sex: null, givenName: 'sophie', identifiers: [{ system: SSN, value: right }] },
    ];
    const mistyped = decide(personal, ...pair('4471093', '4470193'));
    expect(mistyped.evidence.find((e) => e.field === 'identifier')).toMatchObject({
      band: 'Strong',
      level: 'transposed',
    });
    expect(mistyped.evidence.find((e) => e.householdOnly === true)).toBeUndefined();
    expect(mistyped.decision).toBe('certain');
    const replacedDigit = decide(personal, ...pair('4471093', '4481093'));
    expect(replacedDigit.evidence.find((e) => e.field === 'identifier')).toMatchObject({ level: 'substituted' });
    expect(replacedDigit.decision).toBe('certain');
    // Numbers handed out in sequence: twins. The household's agreement counts for nothing, and nothing links them.
    const sequential = decide(personal, ...pair('4471093', '4471094'));
    expect(sequential.evidence.find((e) => e.field === 'identifier')).toMatchObject({
      band: 'Strong',
      level: 'one-edit',
    });
    expect(sequential.evidence.filter((e) => e.householdOnly === true).map((e) => e.field)).toEqual(
      expect.arrayContaining(['familyName', 'addressLine']),
    );
    expect(sequential.decision).not.toBe('certain');
  });

  it('a personal number that disagrees is compared, not hidden behind an agreeing family number', () => {
    const personal: MatchingProfile = { ...modelProfile, PersonalIdentifierSystems: [SSN] };
    const family = { system: MEMBER, value: 'FAM-0042-7' };
    const result = decide(
      personal,
      { ...child, identifiers: [family, { system: SSN, value: '4471093' }] },
      { ...child, identifiers: [family, { system: SSN, value: '9930115' }] },
    );
    expect(result.evidence.find((e) => e.field === 'identifier')).toMatchObject({ band: 'Different' });
  });
});

describe('twins without a recorded sex: the family name is what the household shares', () => {
  const namesAndDate = (fields: MatchFields): MatchFields => ({ ...fields, sex: null, ...NONE });
  const olivia = namesAndDate(child);

  it('another given name and the same birth date: the family name counts for nothing, and the pair is not linked', () => {
    for (const given of ['emma', 'arabella']) {
      const result = decide(modelProfile, olivia, { ...olivia, givenName: given });
      expect(result.decision).not.toBe('certain');
      const family = result.evidence.find((e) => e.field === 'familyName');
      expect(family).toMatchObject({ band: 'Exact', householdOnly: true, logLikelihood: 0 });
    }
    // With the family name counted (as before 2026-11-26) the same pair scored above Certain on names and date alone.
    expect(decide(modelProfile, olivia, { ...olivia, givenName: 'emma' }).score).toBeLessThan(
      modelProfile.MatchingRules.Thresholds.Probable,
    );
  });

  it('one person still links: a mistyped given name, or the same given name and a mistyped date', () => {
    expect(decide(modelProfile, olivia, { ...olivia, givenName: 'anabel' }).decision).toBe('certain');
    const typo = decide(modelProfile, olivia, { ...olivia, birthDate: '1984-03-18' });
    expect(typo.evidence.find((e) => e.field === 'familyName')?.householdOnly).toBeUndefined();
  });

  it('a personal identifier that agrees says who the person is: the family name counts again', () => {
    const personal: MatchingProfile = { ...modelProfile, PersonalIdentifierSystems: [SSN] };
    const ssn = { identifiers: [{ system: SSN, value: '4471093' }] };
    const result = decide(personal, { ...olivia, ...ssn }, { ...olivia, ...ssn, givenName: 'emma' });
    expect(result.evidence.find((e) => e.field === 'familyName')?.householdOnly).toBeUndefined();
    expect(result.decision).toBe('certain');
  });

  it('with the sex recorded on both sides the twin hold sends the pair to review, as before', () => {
    const result = decide(modelProfile, { ...olivia, sex: 'female' }, { ...olivia, sex: 'female', givenName: 'emma' });
    expect(result).toMatchObject({ decision: 'probable', limitedBy: 'PossibleTwin' });
  });
});

describe('neither a name nor a birth date compared: contact details alone say nothing of who the person is', () => {
  const shared = SHARED['all of them'] ?? {};
  // An unidentified patient's record: its placeholder name and birth date are normalised away.
  const unidentified: MatchFields = { ...child, familyName: null, givenName: null, birthDate: null, ...shared };

  it('two records sharing every contact detail score what they score without them: no link and no review case', () => {
    for (const profile of [modelProfile, weightedProfile]) {
      const result = decide(profile, unidentified, unidentified);
      expect(result).toMatchObject({ decision: 'no-match', decidedBy: 'score' });
      expect(result.limitedBy).toBeUndefined();
      expect(result.evidence.filter((e) => e.householdOnly === true).map((e) => e.field)).toEqual(
        expect.arrayContaining(['addressLine', 'email', 'identifier']),
      );
      const without = decide(profile, { ...unidentified, ...NONE }, { ...unidentified, ...NONE });
      if (profile === modelProfile) expect(result.score).toBeCloseTo(without.score, 12);
      else expect(result.score).toBeLessThanOrEqual(without.score);
      expect(scoreWaterfall(result, scoreBasis(profile))?.score).toBeCloseTo(result.score, 9);
      expect(householdOnlyReason(result.evidence)).toBe('no name or birth date to tell the person apart');
    }
  });

  it('a name on one side only, or a birth date on one side only, is no more', () => {
    for (const [left, right] of [
      [{ ...unidentified, familyName: 'fairweather', givenName: 'annabel' }, unidentified],
      [{ ...unidentified, birthDate: '1984-03-17' }, unidentified],
    ] as const)
      expect(decide(modelProfile, left, right).decision).toBe('no-match');
  });

  it('a birth date on both sides, or a personal identifier that agrees, counts the contact details again: review, never a link', () => {
    const dated = decide(
      modelProfile,
      { ...unidentified, birthDate: '1984-03-17' },
      { ...unidentified, birthDate: '1984-03-17' },
    );
    expect(dated).toMatchObject({ decision: 'probable', limitedBy: 'NoNameEvidence' });
    expect(dated.evidence.find((e) => e.householdOnly === true)).toBeUndefined();
    const personal: MatchingProfile = { ...modelProfile, PersonalIdentifierSystems: [SSN] };
    const ssn = { identifiers: [{ system: SSN, value: '4471093' }] };
    const numbered = decide(personal, { ...unidentified, ...ssn }, { ...unidentified, ...ssn });
    expect(numbered).toMatchObject({ decision: 'probable', limitedBy: 'NoNameEvidence' });
    expect(numbered.evidence.find((e) => e.householdOnly === true)).toBeUndefined();
  });
});
