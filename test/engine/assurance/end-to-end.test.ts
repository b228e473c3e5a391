import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, NHI_SYSTEM, openRegistry, patient, testProfile } from '../../helpers/registry.ts';
import { endToEndMetrics } from '../../../engine/assurance/end-to-end-metrics.ts';
import type { LabelPair } from '../../../engine/assurance/labels.ts';

const WILSON_1_OF_3 = [0.06149194, 0.7923403]; // R: prop.test(1, 3, correct = FALSE)$conf.int
const WILSON_2_OF_3 = [0.2076597, 0.9385081]; // R: prop.test(2, 3, correct = FALSE)$conf.int

describe('end-to-end metrics (blocking misses count)', () => {
  it('counts an unblocked true pair as a false negative and an unblocked non-match as a true negative, at every threshold', () => {
    // Pairs: 0 match found (score 0.9), 1 match not found (0.95), 2 non-match not found (0.99), 3 non-match found (0.2).
    const score = Float64Array.from([0.9, 0.95, 0.99, 0.2]);
    const isMatch = Uint8Array.from([1, 1, 0, 0]);
    const candidate = Uint8Array.from([1, 0, 0, 1]);
    const e2e = endToEndMetrics([0, 0.5], score, isMatch, candidate);
    expect(e2e.notCandidates).toEqual({ matches: 1, nonMatches: 1 });
    // Threshold 0: the scorer alone would predict all four; end to end only the two found pairs.
    expect(e2e.thresholds[0]).toMatchObject({ threshold: 0, tp: 1, fn: 1, fp: 1, tn: 1, precision: 0.5, recall: 0.5 });
    expect(e2e.thresholds[1]).toMatchObject({
      threshold: 0.5,
      tp: 1,
      fn: 1,
      fp: 0,
      tn: 2,
      precision: 1,
      recall: 0.5,
      specificity: 1,
    });
    expect(e2e.explanation).toMatch(/false negative at every threshold/);
  });

  it('gives null, never 0, where a denominator is missing, as the scored-pairs table does', () => {
    const e2e = endToEndMetrics([0.5], Float64Array.from([0.9, 0.1]), Uint8Array.from([1, 0]), Uint8Array.from([0, 1]));
    // The only match is not found and the only non-match scores low: nothing is predicted a match.
    expect(e2e.thresholds[0]).toMatchObject({
      tp: 0,
      fp: 0,
      tn: 1,
      fn: 1,
      precision: null,
      recall: 0,
      f1: 0,
      mcc: null,
    });
    expect(e2e.thresholds[0]?.precisionInterval).toBeNull();
  });
});

/**
 * A hand-worked registry with one blocking rule (phonetic family name + birth year). Every record carries a
 * trusted identifier, so precedence decides each score: equal identifiers 1, different 0.
 */
const PEOPLE = [
  { id: 'A1', family: 'Smith', given: ['John'], birthDate: '1980-01-01', nhi: 'N1' },
  { id: 'A2', family: 'Smith', given: ['John'], birthDate: '1980-01-01', nhi: 'N1' },
  { id: 'F1', family: 'Smith', given: ['Jane'], birthDate: '1980-05-05', nhi: 'N1' },
  { id: 'B1', family: 'Taylor', given: ['Kim'], birthDate: '1960-02-02', nhi: 'N7' },
  { id: 'B2', family: 'Nguyen', given: ['Bao'], birthDate: '2001-11-11', nhi: 'N7' },
  { id: 'C1', family: 'White', given: ['Ann'], birthDate: '1970-07-07', nhi: 'N5' },
  { id: 'C2', family: 'White', given: ['Ann'], birthDate: '1970-07-07', nhi: 'N6' },
  { id: 'D1', family: 'Okafor', given: ['Mary'], birthDate: '1975-05-05', nhi: 'N2' },
  { id: 'D2', family: 'Lindqvist', given: ['Alan'], birthDate: '1990-09-09', nhi: 'N2' },
  { id: 'E1', family: 'Green', given: ['Lucy'], birthDate: '1985-03-03', nhi: 'N4' },
  { id: 'E2', family: 'Green', given: ['Lucy'], birthDate: '1985-03-03', nhi: 'N9' },
] as const;
const ref = (id: string): LabelPair['left'] => ({ sourceSystem: 'clinic', localId: id });
const pair = (a: string, b: string, isMatch: boolean): LabelPair => ({ left: ref(a), right: ref(b), isMatch });
/**
 *   A1-A2 match, blocked, score 1: TP both ways
 *   B1-B2 match, NOT blocked, score 1: TP for the scorer alone, FN end to end (the one pair that moves recall)
 *   C1-C2 match, blocked, score 0: FN both ways
 *   D1-D2 non-match, NOT blocked, score 1: FP for the scorer alone, TN end to end
 *   E1-E2 non-match, blocked, score 0: TN both ways
 *   A1-F1 non-match, blocked, score 1: FP both ways
 */
const LABELS = [
  pair('A1', 'A2', true),
  pair('B1', 'B2', true),
  pair('C1', 'C2', true),
  pair('D1', 'D2', false),
  pair('E1', 'E2', false),
  pair('A1', 'F1', false),
];

describe('matching/evaluate end to end on a hand-worked registry', () => {
  it("reports end-to-end recall lower than the scorer's by exactly the true pair blocking cannot find", async () => {
    const base = testProfile();
    const profile = {
      ...base,
      TrustedIdentifierSystems: [NHI_SYSTEM],
      HardConflictRules: ['TrustedIdentifierMismatch' as const],
      Blocking: { ...base.Blocking, Rules: base.Blocking.Rules.filter((r) => r.Name === 'family-phonetic-birth-year') },
    };
    expect(profile.Blocking.Rules).toHaveLength(1);
    const engine = openRegistry(tempDir(), ['t1'], profile);
    const ingested = await engine.call(
      'records/ingest',
      { sourceSystem: 'clinic', ndjson: ndjson(...PEOPLE.map((p) => patient(p))) },
      ctx(),
    );
    expect(ingested.rejected).toEqual([]);
    const report = await engine.call(
      'matching/evaluate',
      { datasetId: 'e2e-hand', pairs: LABELS, thresholds: [0.5], maximumErrorExamples: 0 },
      ctx(),
    );

    expect(report.blockingRecall).toMatchObject({ truePairs: 3, found: 2, missed: 1 });
    const [scored] = report.thresholds;
    expect(scored).toMatchObject({ tp: 2, fn: 1, fp: 2, tn: 1 });
    expect(report.endToEnd?.notCandidates).toEqual({ matches: 1, nonMatches: 1 });
    const [e2e] = report.endToEnd?.thresholds ?? [];
    expect(e2e).toMatchObject({ threshold: 0.5, tp: 1, fn: 2, fp: 1, tn: 2 });
    // Recall 2/3 for the scorer, 1/3 end to end: lower by exactly the one true pair of three.
    expect(scored?.recall).toBeCloseTo(2 / 3, 12);
    expect(e2e?.recall).toBeCloseTo(1 / 3, 12);
    expect((scored?.recall ?? 0) - (e2e?.recall ?? 0)).toBeCloseTo(1 / 3, 12);
    // The unblocked non-match is no false positive end to end: specificity 1/3 → 2/3.
    expect(scored?.specificity).toBeCloseTo(1 / 3, 12);
    expect(e2e?.specificity).toBeCloseTo(2 / 3, 12);
    expect(e2e?.precision).toBeCloseTo(0.5, 12);
    // Same Wilson intervals as the scored-pairs table.
    expect(e2e?.recallInterval?.lower).toBeCloseTo(WILSON_1_OF_3[0] ?? 0, 6);
    expect(e2e?.recallInterval?.upper).toBeCloseTo(WILSON_1_OF_3[1] ?? 0, 6);
    expect(scored?.recallInterval?.lower).toBeCloseTo(WILSON_2_OF_3[0] ?? 0, 6);
    expect(scored?.recallInterval?.upper).toBeCloseTo(WILSON_2_OF_3[1] ?? 0, 6);
    engine.close();
  });
});
