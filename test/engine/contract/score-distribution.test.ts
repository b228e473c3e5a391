import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  binEdge,
  countsAtEdge,
  edgeOf,
  scoreBin,
  scoreDistribution,
  thresholdCurve,
} from '../../../engine/contract/statistics/score-distribution.ts';
import { countsAt, thresholdMetrics } from '../../../engine/contract/statistics/threshold-metrics.ts';

// Ten bins, worked by hand: matches score 0.95, 0.95, 0.85, 0.45, 1; non-matches 0.85, 0.3, 0.05, 0.
const SCORES = [0.95, 0.95, 0.85, 0.45, 1, 0.85, 0.3, 0.05, 0];
const IS_MATCH = [1, 1, 1, 1, 1, 0, 0, 0, 0];

describe('score distribution by class', () => {
  it('bins scores in [k/B, (k+1)/B), with scores of 1 in bin B', () => {
    const d = scoreDistribution(SCORES, IS_MATCH, undefined, 10);
    expect(d.matches).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 1, 2, 1]);
    expect(d.nonMatches).toEqual([2, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0]);
  });

  it('gives the exact confusion matrix at a bin edge (hand-worked)', () => {
    const d = scoreDistribution(SCORES, IS_MATCH, undefined, 10);
    // Threshold 0.8: predicted matches are 0.95, 0.95, 0.85, 1 (matches) and 0.85 (non-match).
    expect(countsAtEdge(d, 8)).toEqual({ tp: 4, fp: 1, fn: 1, tn: 3 });
    // Threshold 0: everything is predicted a match; threshold 1: only the score of 1.
    expect(countsAtEdge(d, 0)).toEqual({ tp: 5, fp: 4, fn: 0, tn: 0 });
    expect(countsAtEdge(d, 10)).toEqual({ tp: 1, fp: 0, fn: 4, tn: 4 });
  });

  it('draws the curves with the engine metrics: precision, recall, F1 and Wilson bands, null without a denominator', () => {
    const d = scoreDistribution(SCORES, IS_MATCH, undefined, 10);
    const curve = thresholdCurve(d);
    expect(curve.map((p) => p.threshold)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    const at08 = curve[8];
    expect(at08).toMatchObject({
      tp: 4,
      fp: 1,
      fn: 1,
      tn: 3,
      precision: 0.8,
      recall: 0.8,
      specificity: 0.75,
      npv: 0.75,
    });
    expect(at08?.f1).toBeCloseTo(0.8, 12);
    expect(at08?.mcc).toBeCloseTo((4 * 3 - 1 * 1) / Math.sqrt(5 * 5 * 4 * 4), 12); // 11/20
    // Wilson 4 of 5 by hand: z² = 3.841459, centre = (0.8 + z²/10) / (1 + z²/5) = 0.669655,
    // half-width = z / (1 + z²/5) · sqrt(0.16/5 + z²/100) = 0.294120.
    expect(at08?.precisionInterval?.lower).toBeCloseTo(0.375535, 5);
    expect(at08?.precisionInterval?.upper).toBeCloseTo(0.963775, 5);
    // The same figures as the engine's per-threshold metrics over the raw scores.
    expect(at08).toEqual(thresholdMetrics(0.8, SCORES, IS_MATCH));
    // At 0 nothing is predicted a non-match: NPV and MCC have no denominator.
    expect(curve[0]).toMatchObject({ npv: null, mcc: null, recall: 1, specificity: 0 });
    // Above every score but the 1: precision is 1 of 1.
    expect(curve[10]).toMatchObject({ tp: 1, fp: 0, precision: 1, recall: 0.2 });
    // Every stride-th edge, both ends included.
    expect(thresholdCurve(d, 3).map((p) => p.threshold)).toEqual([0, 0.3, 0.6, 0.9, 1]);
  });

  it('places every score on the right side of every edge the console uses (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 1000 }), (score, k) => {
        expect(scoreBin(score) >= k).toBe(score >= binEdge(k));
      }),
      { numRuns: 20_000 },
    );
    // Scores lying exactly on edges, where score * B could round the wrong way.
    for (let k = 0; k <= 1000; k++) expect(scoreBin(binEdge(k))).toBe(k);
  });

  it('agrees with a direct count at every grid threshold (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean()), { maxLength: 200 }),
        fc.integer({ min: 0, max: 1000 }),
        (pairs, k) => {
          const score = pairs.map(([s]) => s);
          const isMatch = pairs.map(([, m]) => (m ? 1 : 0));
          expect(countsAtEdge(scoreDistribution(score, isMatch), k)).toEqual(countsAt(binEdge(k), score, isMatch));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('finds a threshold on the grid, and only there', () => {
    expect(edgeOf(0.92)).toBe(920);
    expect(edgeOf(0.75)).toBe(750);
    expect(edgeOf(1)).toBe(1000);
    expect(edgeOf(0.9205)).toBeNull();
  });

  it('refuses a distribution of the wrong shape', () => {
    expect(() => countsAtEdge({ bins: 10, matches: [1], nonMatches: [1] }, 0)).toThrow(RangeError);
    expect(() => scoreBin(Number.NaN)).toThrow(RangeError);
  });
});
