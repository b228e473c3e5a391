import { describe, expect, it } from 'vitest';
import { createScorer } from '../../../engine/scoring/scorer.ts';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import { SAMPLE_FIELDS } from '../../helpers/fields.ts';
import type { FellegiSunterModel, MatchingProfile } from '../../../engine/contract/profile.ts';
import { FIELD_WEIGHTS, MINIMUM_EVIDENCE_WEIGHT } from '../../../engine/scoring/weighted-similarity.ts';

const NHI = 'urn:nhi';
const base: MatchFields = SAMPLE_FIELDS;

function profile(extra: Partial<MatchingProfile> = {}): MatchingProfile {
  return { ...defaultProfile([{ SourceSystem: 'a' }]), TrustedIdentifierSystems: [NHI], ...extra };
}

describe('scorer precedence', () => {
  it('an equal trusted identifier is certain even when everything else differs', () => {
    const s = createScorer(profile());
    const a = s.prepare({ ...base, identifiers: [{ system: NHI, value: '1' }] });
    const b = s.prepare({
      ...base,
      familyName: 'zzz',
      givenName: 'yyy',
      birthDate: '1900-01-01',
      identifiers: [{ system: NHI, value: '1' }],
    });
    expect(s.outcome(a, b)).toEqual({ score: 1, decision: 'certain', decidedBy: 'trusted-identifier' });
  });

  it('a hard conflict overrides an otherwise perfect score', () => {
    const s = createScorer(profile({ HardConflictRules: ['TrustedIdentifierMismatch', 'SexMismatch'] }));
    const a = s.prepare({ ...base, identifiers: [{ system: NHI, value: '1' }] });
    const b = s.prepare({ ...base, identifiers: [{ system: NHI, value: '2' }] });
    expect(s.outcome(a, b)).toMatchObject({
      score: 0,
      decision: 'no-match',
      decidedBy: 'hard-conflict',
      conflictRule: 'TrustedIdentifierMismatch',
    });
    expect(s.outcome(s.prepare(base), s.prepare({ ...base, sex: 'male' }))).toMatchObject({
      conflictRule: 'SexMismatch',
    });
    // Without the rules, the same pairs are scored normally.
    const lenient = createScorer(profile({ HardConflictRules: [] }));
    expect(lenient.outcome(lenient.prepare(base), lenient.prepare({ ...base, sex: 'male' })).decidedBy).toBe('score');
  });
});

/** The weighted-similarity method: a profile without a model (the default before the default model). */
function weightedProfile(): MatchingProfile {
  const p = profile();
  return { ...p, MatchingRules: { Thresholds: { Certain: 0.92, Probable: 0.75 }, FellegiSunter: null } };
}

describe('weighted-similarity (a profile without a model)', () => {
  it('treats missing fields as neutral and divides by at least the minimum evidence weight', () => {
    const s = createScorer(weightedProfile());
    const sparse: MatchFields = { ...base, addressLine: null, city: null, postalCode: null, phone: null, sex: null };
    const r = s.explain(s.prepare(sparse), s.prepare(sparse));
    const present = FIELD_WEIGHTS.familyName + FIELD_WEIGHTS.givenName + FIELD_WEIGHTS.birthDate;
    expect(r.score).toBeCloseTo(present / Math.max(present, MINIMUM_EVIDENCE_WEIGHT), 12);
    expect(r.scoreMethod).toBe('weighted-similarity');
    const phone = r.evidence.find((e) => e.field === 'phone');
    expect(phone).toMatchObject({ similarity: null, band: null, comparator: null });
  });

  it('turns scores into decisions with the thresholds', () => {
    const s = createScorer(profile());
    expect(s.outcome(s.prepare(base), s.prepare(base)).decision).toBe('certain');
    const stranger: MatchFields = {
      ...base,
      familyName: 'okonkwo',
      givenName: 'chidi',
      birthDate: '1950-10-10',
      addressLine: '4 mill lane',
      city: 'leeds',
      postalCode: 'LS14AB',
      phone: '1134960000',
      sex: 'male',
    };
    expect(s.outcome(s.prepare(base), s.prepare(stranger)).decision).toBe('no-match');
  });

  it("compares a family name with the other side's previous family names", () => {
    const s = createScorer(profile());
    const married = s.explain(
      s.prepare(base),
      s.prepare({ ...base, familyName: 'okafor', previousFamilyNames: ['fairweather'] }),
    );
    expect(married.evidence.find((e) => e.field === 'familyName')?.similarity).toBe(1);
  });
});

describe('fellegi-sunter', () => {
  const model: FellegiSunterModel = {
    kind: 'fellegi-sunter-model',
    modelVersion: 'fs-test-1',
    priorMatchProbability: 0.01,
    smoothing: 1,
    fields: {
      familyName: {
        m: { Exact: 0.9, Strong: 0.05, Partial: 0.03, Different: 0.02 },
        u: { Exact: 0.01, Strong: 0.02, Partial: 0.07, Different: 0.9 },
      },
      birthDate: {
        m: { Exact: 0.95, Strong: 0.03, Partial: 0.01, Different: 0.01 },
        u: { Exact: 0.001, Strong: 0.01, Partial: 0.2, Different: 0.789 },
      },
    },
    trainedAgainst: {
      matchingProfileVersion: 1,
      comparatorVersion: 'comparators-1',
      scoreMethodVersion: 'weighted-similarity-1',
    },
    datasetId: 'd',
    datasetDigest: '0'.repeat(64),
    bands: ['Exact', 'Strong', 'Partial', 'Different'],
  };

  it('scores the calibrated probability from prior odds and per-field log-likelihood ratios', () => {
    const p = profile();
    const s = createScorer({ ...p, MatchingRules: { ...p.MatchingRules, FellegiSunter: model } });
    const r = s.explain(s.prepare(base), s.prepare({ ...base, birthDate: null }));
    // ln odds = ln(0.01/0.99) + ln(0.9/0.01); birthDate missing is neutral; fields outside the model add 0.
    const logOdds = Math.log(0.01 / 0.99) + Math.log(0.9 / 0.01);
    expect(r.score).toBeCloseTo(1 / (1 + Math.exp(-logOdds)), 12);
    expect(r.scoreMethod).toBe('fellegi-sunter');
    expect(r.scoreMethodVersion).toBe('fs-test-1');
    expect(r.evidence.find((e) => e.field === 'familyName')?.logLikelihood).toBeCloseTo(Math.log(0.9 / 0.01), 12);
    expect(r.evidence.find((e) => e.field === 'birthDate')?.logLikelihood).toBe(0);
  });
});

describe('name swaps', () => {
  it('recognises given and family names keyed the other way round', () => {
    const s = createScorer(profile());
    const swapped = s.explain(s.prepare(base), s.prepare({ ...base, familyName: 'annabel', givenName: 'fairweather' }));
    expect(swapped.evidence.find((e) => e.field === 'familyName')?.similarity).toBe(1);
    expect(swapped.evidence.find((e) => e.field === 'givenName')?.similarity).toBe(1);
  });

  it('does not cross names that merely share one part', () => {
    const s = createScorer(profile());
    // A different person whose given name equals the other's family name: only one crossed part agrees.
    const r = s.explain(s.prepare(base), s.prepare({ ...base, familyName: 'okafor', givenName: 'fairweather' }));
    expect(r.evidence.find((e) => e.field === 'familyName')?.similarity).toBeLessThan(0.85);
  });
});

describe('birth dates of another day in the same year (scorer.ts birthDateConflict)', () => {
  const SSN = 'urn:ssn';
  // Rare names, everything else agreeing: the model alone would link all of these.
  const left: MatchFields = { ...base, birthDate: '2023-03-07' };
  const scorer = createScorer(profile({ PersonalIdentifierSystems: [SSN] }));
  const outcome = (a: MatchFields, b: MatchFields) => scorer.explain(scorer.prepare(a), scorer.prepare(b));

  it('hold names that agree to review when the dates are months apart in one year, whatever the household shares', () => {
    const result = outcome(left, { ...left, birthDate: '2023-10-24' });
    expect(result).toMatchObject({ decision: 'probable', limitedBy: 'BirthDateConflict', score: 0.5 });
  });

  it('are lifted only by a personal identifier that agrees exactly', () => {
    const id = (value: string): Partial<MatchFields> => ({ identifiers: [{ system: SSN, value }] });
    expect(
      outcome({ ...left, ...id('123456789') }, { ...left, birthDate: '2023-10-24', ...id('123456789') }),
    ).toMatchObject({ decision: 'certain' });
    expect(
      outcome({ ...left, ...id('123456789') }, { ...left, birthDate: '2023-10-24', ...id('123456780') }).limitedBy,
    ).toBe('BirthDateConflict');
  });

  it('leave keying errors (a digit, day and month swapped) and far-apart dates to the model', () => {
    expect(outcome(left, { ...left, birthDate: '2023-03-08' })).toMatchObject({ decision: 'certain' });
    expect(outcome(left, { ...left, birthDate: '2023-07-03' }).limitedBy).toBeUndefined();
    expect(outcome(left, { ...left, birthDate: '1961-08-30' }).limitedBy).toBeUndefined();
    expect(outcome(left, { ...left, birthDate: null }).limitedBy).toBeUndefined();
  });
});

describe('names alone (scorer.ts namesOnly)', () => {
  // Rare names, one record without a birth date: only the names and the sex can agree.
  const scorer = createScorer(profile());
  const outcome = (a: MatchFields, b: MatchFields) => scorer.explain(scorer.prepare(a), scorer.prepare(b));
  const bare: MatchFields = { ...base, addressLine: null, city: null, postalCode: null, phone: null };

  it('holds a pair that agrees on nothing but its names to review, never an automatic link', () => {
    // The model alone would link it: the names are rare and nothing disagrees.
    expect(createScorer(profile()).explain(scorer.prepare(bare), scorer.prepare(bare)).score).toBeGreaterThan(0.97);
    expect(outcome(bare, { ...bare, birthDate: null })).toMatchObject({
      decision: 'probable',
      limitedBy: 'NamesOnly',
      score: 0.5,
    });
    // A city or a state in common does not lift it: thousands of people share one.
    expect(outcome({ ...bare, city: 'portsmouth' }, { ...bare, city: 'portsmouth', birthDate: null }).limitedBy).toBe(
      'NamesOnly',
    );
  });

  it('is lifted by a birth date compared on both sides, an address line or postcode that agrees, or a phone where no address disagrees', () => {
    expect(outcome(bare, bare)).toMatchObject({ decision: 'certain' });
    expect(outcome(bare, { ...bare, birthDate: '1984-03-18' }).limitedBy).toBeUndefined();
    const lifted: Partial<MatchFields>[] = [
      { addressLine: '12 harbour road' },
      { postalCode: 'PO13AX' },
      { phone: '2392001122' },
      { phone: '2392001122', email: 'a.fairweather@example.org' },
    ];
    for (const field of lifted)
      expect(
        outcome({ ...bare, ...field }, { ...bare, ...field, birthDate: null }),
        JSON.stringify(field),
      ).toMatchObject({ decision: 'certain' });
  });

  it("is not lifted by an e-mail: one made from the name is a namesake's too, and a family shares one mailbox", () => {
    const email = { email: 'a.fairweather@example.org' };
    // The model alone would link it: the names and the e-mail agree, and nothing disagrees.
    expect(
      createScorer(profile()).explain(scorer.prepare({ ...bare, ...email }), scorer.prepare({ ...bare, ...email }))
        .decision,
    ).toBe('certain');
    expect(outcome({ ...bare, ...email }, { ...bare, ...email, birthDate: null })).toMatchObject({
      decision: 'probable',
      limitedBy: 'NamesOnly',
      score: 0.5,
    });
    // A phone that disagrees beside it changes nothing; a birth date on both records lifts the hold, as always.
    expect(
      outcome({ ...bare, ...email, phone: '2392001122' }, { ...bare, ...email, phone: '2392009988', birthDate: null })
        .limitedBy,
    ).toBe('NamesOnly');
    expect(outcome({ ...bare, ...email }, { ...bare, ...email }).limitedBy).toBeUndefined();
  });

  it('holds a phone or e-mail shared from an address that disagrees: a relative of one name has them too', () => {
    const email = { email: 'a.fairweather@example.org' };
    const here = { ...bare, ...email, addressLine: '12 harbour road' };
    const elsewhere = { ...bare, ...email, addressLine: '9 ocean drive', birthDate: null };
    // The model alone would link it: names and e-mail outweigh another address line.
    expect(
      createScorer(profile()).explain(scorer.prepare(here), scorer.prepare({ ...elsewhere, birthDate: base.birthDate }))
        .decision,
    ).toBe('certain');
    expect(outcome(here, elsewhere)).toMatchObject({ decision: 'probable', limitedBy: 'NamesOnly' });
    expect(
      outcome({ ...here, phone: '2392001122' }, { ...elsewhere, email: null, phone: '2392001122' }).limitedBy,
    ).toBe('NamesOnly');
    // With the address line missing on one side, a postcode that disagrees says the same.
    expect(
      outcome(
        { ...here, addressLine: null, postalCode: 'PO13AX' },
        { ...elsewhere, addressLine: null, postalCode: 'BN21TT' },
      ).limitedBy,
    ).toBe('NamesOnly');
  });

  it('leaves a trusted identifier to link the pair before any score', () => {
    const id = { identifiers: [{ system: NHI, value: '1' }] };
    expect(outcome({ ...bare, ...id }, { ...bare, ...id, birthDate: null })).toMatchObject({
      decision: 'certain',
      decidedBy: 'trusted-identifier',
    });
  });
});

describe('twins of opposite sex (scoring/possible-twin.ts)', () => {
  const scorer = createScorer(profile());
  const outcome = (a: MatchFields, b: MatchFields) => scorer.explain(scorer.prepare(a), scorer.prepare(b));
  const brother: MatchFields = { ...base, givenName: 'daniel', sex: 'male' };

  it('holds given names a letter apart to review when the recorded sexes differ, whatever the household shares', () => {
    const sister: MatchFields = { ...brother, givenName: 'danielle', sex: 'female' };
    expect(outcome(brother, sister)).toMatchObject({ decision: 'probable', limitedBy: 'PossibleTwin', score: 0.5 });
  });

  it('leaves a mistyped given name of one sex, and one name under another recorded sex, to the model', () => {
    expect(outcome(brother, { ...brother, givenName: 'danial' })).toMatchObject({ decision: 'certain' });
    expect(outcome(brother, { ...brother, sex: 'female' }).limitedBy).toBeUndefined();
  });
});

describe("a boy's and a girl's form of one given name without a recorded sex (scoring/possible-twin.ts)", () => {
  const SSN = 'urn:ssn';
  const scorer = createScorer(profile({ PersonalIdentifierSystems: [SSN] }));
  const outcome = (a: MatchFields, b: MatchFields) => scorer.explain(scorer.prepare(a), scorer.prepare(b));
  const brother: MatchFields = { ...base, givenName: 'daniel', sex: null };

  it('holds them to review when either record lacks a sex, whatever the household shares', () => {
    for (const [given, sex] of [
      ['danielle', null],
      ['danielle', 'female'],
      ['paula', null],
    ] as const) {
      const boy = given === 'paula' ? { ...brother, givenName: 'paul' } : brother;
      expect(outcome(boy, { ...boy, givenName: given, sex }), `${boy.givenName} ${given} ${sex}`).toMatchObject({
        decision: 'probable',
        limitedBy: 'PossibleTwin',
        score: 0.5,
      });
    }
    // A birth date a keying error apart, or missing on one side, still leaves twins possible.
    expect(outcome(brother, { ...brother, givenName: 'danielle', birthDate: '1984-03-18' }).limitedBy).toBe(
      'PossibleTwin',
    );
    expect(outcome(brother, { ...brother, givenName: 'danielle', birthDate: null }).limitedBy).toBe('PossibleTwin');
  });

  it('leaves them to the model under one recorded sex, another birth date, or a personal identifier that agrees', () => {
    const sister = { ...brother, givenName: 'danielle' };
    expect(outcome({ ...brother, sex: 'female' }, { ...sister, sex: 'female' })).toMatchObject({ decision: 'certain' });
    expect(outcome(brother, { ...sister, birthDate: '1991-08-02' }).limitedBy).toBeUndefined();
    const id: Partial<MatchFields> = { identifiers: [{ system: SSN, value: '123456789' }] };
    expect(outcome({ ...brother, ...id }, { ...sister, ...id })).toMatchObject({ decision: 'certain' });
  });

  it('leaves a dropped last letter and two spellings of one name to the model', () => {
    const sophie = { ...brother, givenName: 'sophie' };
    expect(outcome(sophie, { ...sophie, givenName: 'sophi' })).toMatchObject({ decision: 'certain' });
    const isabel = { ...brother, givenName: 'isabel' };
    expect(outcome(isabel, { ...isabel, givenName: 'isabelle' })).toMatchObject({ decision: 'certain' });
  });
});
