import { describe, expect, it } from 'vitest';
import { createScorer } from '../../../engine/scoring/scorer.ts';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import type { FellegiSunterModel, MatchingProfile } from '../../../engine/contract/profile.ts';
import { validatePatient, type R4HumanName } from '../../../engine/fhir/patient.ts';
import { matchFieldsOf } from '../../../engine/normalise/record.ts';
import { SAMPLE_FIELDS } from '../../helpers/fields.ts';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry, patient } from '../../helpers/registry.ts';

const NHI = 'urn:nhi';
const NAMELESS: MatchFields = {
  ...SAMPLE_FIELDS,
  familyName: null,
  givenName: null,
  middleNames: null,
  email: 'a@b.example',
  identifiers: [{ system: 'urn:other', value: 'X1' }],
};
const NAMED: MatchFields = { ...NAMELESS, familyName: 'fairweather', givenName: 'annabel' };

/** Placeholder names seen in feeds: titles, punctuation, invisible characters, pictographs. */
const PLACEHOLDERS: readonly R4HumanName[] = [
  { family: 'Mrs' },
  { family: '?', given: ['?'] },
  { family: 'Mr', given: ['Dr'] },
  { family: '--', given: ['...'] },
  { family: '\u200B\u200D', given: ['\u2060'] },
  { family: '😀', given: ['🙂'] },
  { family: '\u202E', given: ['\uFEFF'] },
];

function profile(extra: Partial<MatchingProfile> = {}): MatchingProfile {
  return { ...defaultProfile([{ SourceSystem: 'a' }]), TrustedIdentifierSystems: [NHI], ...extra };
}

const strongModel: FellegiSunterModel = {
  kind: 'fellegi-sunter-model',
  modelVersion: 'fs-nameless',
  priorMatchProbability: 0.01,
  smoothing: 1,
  fields: Object.fromEntries(
    (['birthDate', 'sex', 'addressLine', 'city', 'postalCode', 'phone', 'email', 'identifier'] as const).map((f) => [
      f,
      {
        m: { Exact: 0.97, Strong: 0.01, Partial: 0.01, Different: 0.01 },
        u: { Exact: 0.01, Strong: 0.01, Partial: 0.01, Different: 0.97 },
      },
    ]),
  ),
  trainedAgainst: {
    matchingProfileVersion: 1,
    comparatorVersion: 'comparators-1',
    scoreMethodVersion: 'weighted-similarity-1',
  },
  datasetId: 'd',
  datasetDigest: '0'.repeat(64),
  bands: ['Exact', 'Strong', 'Partial', 'Different'],
};

describe('records whose names normalise to nothing', () => {
  it('are matched as records without names: placeholder names give no name fields, and a real name elsewhere is chosen', () => {
    for (const placeholder of PLACEHOLDERS) {
      const v = validatePatient({ ...patient({ id: 'p1' }), name: [{ use: 'official', ...placeholder }] });
      expect(v.ok, JSON.stringify(placeholder)).toBe(true);
      if (!v.ok) continue;
      const fields = matchFieldsOf(v.patient, {});
      expect([fields.familyName, fields.givenName, fields.middleNames], JSON.stringify(placeholder)).toEqual([
        null,
        null,
        null,
      ]);
      const both = validatePatient({
        ...patient({ id: 'p1' }),
        name: [
          { use: 'official', ...placeholder },
          { use: 'usual', family: 'Fairweather', given: ['Annabel'] },
        ],
      });
      expect(both.ok && matchFieldsOf(both.patient, {})).toMatchObject({
        familyName: 'fairweather',
        givenName: 'annabel',
      });
    }
  });

  it('never reach Certain on the remaining fields alone, under weighted-similarity and Fellegi-Sunter', () => {
    const base = profile();
    for (const p of [base, { ...base, MatchingRules: { ...base.MatchingRules, FellegiSunter: strongModel } }]) {
      const s = createScorer(p);
      const { Certain, Probable } = p.MatchingRules.Thresholds;
      for (const [a, b] of [
        [NAMELESS, NAMED],
        [NAMED, NAMELESS],
        [NAMELESS, NAMELESS],
        // Names on both sides that are never compared (a family name only against a given name only).
        [
          { ...NAMED, givenName: null },
          { ...NAMED, familyName: null },
        ],
      ] as const) {
        const outcome = s.outcome(s.prepare(a), s.prepare(b));
        expect(outcome.decision, s.method).toBe('probable');
        expect(outcome.score).toBeLessThan(Certain);
        expect(outcome.score).toBe(Probable);
        const explained = s.explain(s.prepare(a), s.prepare(b));
        expect(explained).toMatchObject({ decision: 'probable', decidedBy: 'score', limitedBy: 'NoNameEvidence' });
      }
      // The same records with their names agreeing are certain, so it is the missing names that hold the pair back.
      expect(s.outcome(s.prepare(NAMED), s.prepare(NAMED)).decision).toBe('certain');
      // A weak pair without names stays below Probable as scored.
      const weak = s.outcome(
        s.prepare(NAMELESS),
        s.prepare({
          ...NAMELESS,
          addressLine: 'elsewhere',
          city: 'leeds',
          postalCode: 'LS1',
          phone: '999',
          email: null,
          identifiers: [],
        }),
      );
      expect(weak.decision).toBe('no-match');
    }
  });

  it('still follow a trusted identifier: equal on both sides is certain', () => {
    const s = createScorer(profile());
    const withNhi = (f: MatchFields): MatchFields => ({ ...f, identifiers: [{ system: NHI, value: '123' }] });
    expect(s.outcome(s.prepare(withNhi(NAMELESS)), s.prepare(withNhi(NAMED)))).toEqual({
      score: 1,
      decision: 'certain',
      decidedBy: 'trusted-identifier',
    });
  });

  it('never auto-link on ingestion, and a sibling placeholder record is not chained onto the identity without review', async () => {
    const engine = openRegistry(tempDir());
    const person = {
      line: '7 Quay Street',
      city: 'Bristol',
      postalCode: 'BS1 4DJ',
      phone: '0117 496 0123',
      birthDate: '1961-02-03',
    };
    await engine.call(
      'records/ingest',
      { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'h1', mrn: 'H1', ...person })) },
      ctx(),
    );
    const clinic = await engine.call(
      'records/ingest',
      {
        sourceSystem: 'clinic',
        ndjson: ndjson(
          { ...patient({ id: 'c1', ...person }), name: [{ use: 'official', family: 'Mrs', given: ['?'] }] },
          { ...patient({ id: 'c2', ...person }), name: [{ use: 'official', family: '\u200B', given: ['😀'] }] },
        ),
      },
      ctx(),
    );
    expect(clinic).toMatchObject({ created: 2, autoLinked: 0, newIdentities: 2, rejected: [] });
    expect(clinic.reviewCasesCreated).toBeGreaterThanOrEqual(2);
    const { rows } = await engine.call('identities/list', { limit: 10, offset: 0 }, ctx());
    expect(new Set(rows.map((r) => r.enterpriseId)).size).toBe(3);
    const reviews = await engine.call('reviews/list', { status: 'open', limit: 10, offset: 0 }, ctx());
    expect(reviews.rows.every((r) => r.decision === 'probable')).toBe(true);
    engine.close();
  });
});
