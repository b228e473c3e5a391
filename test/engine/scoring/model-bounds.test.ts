/**
 * The Fellegi-Sunter model schema bounds every probability strictly inside (0, 1), far enough from both ends
 * that every ln(m/u) is finite and no single field can carry a pair to a probability of exactly 1 (issue 7,
 * item 10); calibration's own output always passes the schema, whatever smoothing and counts it is given.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FellegiSunterModelSchema, type FellegiSunterModel } from '../../../engine/contract/profile.ts';
import { CalibrationRequestSchema, MIN_SMOOTHING } from '../../../engine/contract/assurance.ts';
import { compileModel, logistic } from '../../../engine/scoring/fellegi-sunter.ts';
import { estimateFields } from '../../../engine/assurance/calibrate.ts';
import { createScorer } from '../../../engine/scoring/scorer.ts';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import { BANDS, FIELD_NAMES } from '../../../engine/contract/fields.ts';
import { SAMPLE_FIELDS } from '../../helpers/fields.ts';

function model(familyName: FellegiSunterModel['fields']['familyName'], prior = 0.01): unknown {
  return {
    kind: 'fellegi-sunter-model',
    modelVersion: 'bounds-1',
    priorMatchProbability: prior,
    smoothing: 1,
    fields: { familyName },
    trainedAgainst: {
      matchingProfileVersion: 1,
      comparatorVersion: 'comparators-1',
      scoreMethodVersion: 'weighted-similarity-1',
    },
    datasetId: 'd',
    datasetDigest: '0'.repeat(64),
    bands: [...BANDS],
  };
}

const split = (exact: number): Record<(typeof BANDS)[number], number> => ({
  Exact: exact,
  Strong: (1 - exact) / 3,
  Partial: (1 - exact) / 3,
  Different: (1 - exact) / 3,
});

describe('Fellegi-Sunter model bounds', () => {
  it('refuses a near-zero u-probability, and a probability within 1e-9 of 0 or 1, naming the path', () => {
    const nearZero = FellegiSunterModelSchema.safeParse(
      model({ m: split(0.97), u: { Exact: 1e-300, Strong: 0.1, Partial: 0.2, Different: 0.7 - 1e-300 } }),
    );
    expect(nearZero.success).toBe(false);
    expect(nearZero.error?.issues.map((i) => i.path.join('.'))).toContain('fields.familyName.u.Exact');
    expect(FellegiSunterModelSchema.safeParse(model({ m: split(1 - 1e-12), u: split(0.25) })).success).toBe(false);
    expect(FellegiSunterModelSchema.safeParse(model({ m: split(0.9), u: split(0.25) }, 1e-12)).success).toBe(false);
    expect(FellegiSunterModelSchema.safeParse(model({ m: split(0.9), u: split(0.25) })).success).toBe(true);
  });

  it('keeps every accepted model finite, and one agreeing field short of a probability of 1', () => {
    const probability = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(probability, probability, probability, (m, u, prior) => {
        const parsed = FellegiSunterModelSchema.safeParse(model({ m: split(m), u: split(u) }, prior));
        if (!parsed.success) return;
        const compiled = compileModel(parsed.data);
        for (const ratio of compiled.logRatios) if (!Number.isNaN(ratio)) expect(Number.isFinite(ratio)).toBe(true);
        const strongest = Math.max(...[...compiled.logRatios].filter((r) => !Number.isNaN(r)));
        expect(logistic(compiled.priorLogOdds + strongest)).toBeLessThan(1);
      }),
      {
        numRuns: 2000,
        examples: [
          [0.97, 1e-300, 0.5],
          [1 - 1e-9, 1e-9, 1 - 1e-6],
        ],
      },
    );
  });

  it('never auto-links a pair at 1.0 on one agreeing field under the most extreme model accepted', () => {
    const extreme = FellegiSunterModelSchema.parse(
      model(
        {
          m: { Exact: 1 - 3e-9, Strong: 1e-9, Partial: 1e-9, Different: 1e-9 },
          u: { Exact: 1e-9, Strong: 1e-9, Partial: 1e-9, Different: 1 - 3e-9 },
        },
        1 - 1e-6,
      ),
    );
    const profile = defaultProfile([{ SourceSystem: 'a' }]);
    const scorer = createScorer({ ...profile, MatchingRules: { ...profile.MatchingRules, FellegiSunter: extreme } });
    const stranger = {
      ...SAMPLE_FIELDS,
      givenName: 'zebedee',
      birthDate: '1901-02-03',
      addressLine: null,
      city: null,
      postalCode: null,
      phone: null,
      email: null,
      sex: null,
    };
    expect(scorer.outcome(scorer.prepare(SAMPLE_FIELDS), scorer.prepare(stranger)).score).toBeLessThan(1);
  });

  it('calibration output passes the schema for every smoothing and count the request allows', () => {
    const smoothing = fc
      .double({ min: 0, max: 1000, noNaN: true })
      .filter((s) => CalibrationRequestSchema.shape.smoothing.safeParse(s).success);
    const counts = fc.array(fc.nat({ max: 10_000 }), {
      minLength: 2 * FIELD_NAMES.length * 4,
      maxLength: 2 * FIELD_NAMES.length * 4,
    });
    fc.assert(
      fc.property(smoothing, counts, fc.integer({ min: 0, max: 7 }), (s, raw, skew) => {
        // At most 10,000 pairs per class, as a dataset holds at most 10,000 pairs.
        const array = Uint32Array.from(raw.map((c, i) => (i % 4 === skew % 4 ? c : 0)));
        const fields = estimateFields(array, s);
        const parsed = FellegiSunterModelSchema.shape.fields.safeParse(fields);
        expect(parsed.success, JSON.stringify(parsed.error?.issues[0])).toBe(true);
      }),
      { numRuns: 300, examples: [[MIN_SMOOTHING, new Array<number>(2 * FIELD_NAMES.length * 4).fill(10_000), 0]] },
    );
  });
});
