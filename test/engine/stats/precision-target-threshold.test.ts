import { describe, expect, it } from 'vitest';
import {
  pairsNeededForPrecision,
  thresholdMeetingPrecision,
} from '../../../engine/stats/precision-target-threshold.ts';
import { simplestThresholdInGap } from '../../../engine/stats/simplest-threshold.ts';
import type { ScoredExample } from '../../../engine/stats/threshold-sweep.ts';

const many = (n: number, score: number, isMatch: boolean): ScoredExample[] =>
  Array.from({ length: n }, () => ({ score, isMatch }));

describe('simplestThresholdInGap', () => {
  it('picks the shortest decimal in (below, atMost], the largest of equally short ones', () => {
    expect(simplestThresholdInGap(0.41, 0.97)).toBe(0.9);
    expect(simplestThresholdInGap(0.93, 0.9999)).toBe(0.99);
    expect(simplestThresholdInGap(0.2, 0.29)).toBe(0.29); // 0.29 * 100 floors to 28: corrected
    expect(simplestThresholdInGap(0.5, 0.8)).toBe(0.8); // the lowest admitted score itself when it is simplest
    expect(simplestThresholdInGap(0.123, 0.1234)).toBe(0.1234);
  });

  it('takes, of equally short decimals, the one nearest a preferred point (ties to the larger), never leaving the gap', () => {
    // Calibration's F1-optimal gap on FEBRL 4: every threshold in (0.5911, 0.9135] gives held-out F1 1; toward F1 / 2.
    expect(simplestThresholdInGap(0.5911, 0.9135, 0.5)).toBe(0.6);
    expect(simplestThresholdInGap(0.5911, 0.9135, 0.74)).toBe(0.7);
    expect(simplestThresholdInGap(0.5911, 0.9135, 0.75)).toBe(0.8);
    expect(simplestThresholdInGap(0.41, 0.97, 0.5)).toBe(0.5);
    // No one-digit decimal in the gap: the two-digit one nearest the gap's low end.
    expect(simplestThresholdInGap(0.93, 0.9999, 0.5)).toBe(0.94);
    // Toward a point above the gap is the default: the largest.
    expect(simplestThresholdInGap(0.41, 0.97, 2)).toBe(simplestThresholdInGap(0.41, 0.97));
    expect(simplestThresholdInGap(0.95, 1, 0.2)).toBe(0.96);
    expect(() => simplestThresholdInGap(0.1, 0.2, Number.NaN)).toThrow(RangeError);
  });

  it('never returns 1 when the admitted score is 1 and anything below fits, and never goes below the scores seen', () => {
    expect(simplestThresholdInGap(0.95, 1)).toBe(0.99);
    expect(simplestThresholdInGap(0.9999993, 1)).toBe(0.9999999);
    expect(simplestThresholdInGap(null, 0.37)).toBe(0.37);
    expect(() => simplestThresholdInGap(0.5, 0.5)).toThrow(RangeError);
  });
});

describe('thresholdMeetingPrecision', () => {
  it('needs the lower 95% bound, not the point estimate, to meet the target (hand-worked)', () => {
    // Scores: 200 matches at 0.98; 1 non-match at 0.9; 100 matches at 0.8; 20 non-matches at 0.3.
    const examples = [
      ...many(200, 0.98, true),
      ...many(1, 0.9, false),
      ...many(100, 0.8, true),
      ...many(20, 0.3, false),
    ];
    // Target 0.97. Cut 0.98: 200/200, Wilson lower 200/(200+z²) = 0.98115 >= 0.97, met.
    // Cut 0.9: 200/201 = 0.99502, lower 0.97236 >= 0.97, met. Cut 0.8: 300/301, lower 0.98144, met (lowest).
    // Cut 0.3: 300/321 = 0.9346, not met. So the threshold lies in (0.3, 0.8]: the simplest number there is 0.8.
    const result = thresholdMeetingPrecision(examples, 0.97);
    expect(result.met).toBe(true);
    if (!result.met) return;
    expect(result.cut).toMatchObject({
      threshold: 0.8,
      lowestAdmittedScore: 0.8,
      highestExcludedScore: 0.3,
      tp: 300,
      fp: 1,
    });
    expect(result.cut.precision).toBeCloseTo(300 / 301, 12);
    expect(result.cut.precisionInterval.lower).toBeGreaterThanOrEqual(0.97);
    expect(result.cut.recall).toBe(1);
    expect(result.pairs).toBe(321);
  });

  it('keeps to the margin where the point estimate alone would pick a lower threshold', () => {
    // 5 matches at 0.95, then 3 matches at 0.6 and 20 non-matches at 0.1. Target 0.8.
    // Cut 0.95: 5/5, lower 5/(5+z²) = 0.5655 < 0.8. Cut 0.6: 8/8, lower 0.6756 < 0.8. Point estimate 1 at both.
    const small = [...many(5, 0.95, true), ...many(3, 0.6, true), ...many(20, 0.1, false)];
    const result = thresholdMeetingPrecision(small, 0.8);
    expect(result.met).toBe(false);
    if (result.met) return;
    // The best achievable is the lowest cut with the highest lower bound: 8 of 8 at 0.6, threshold in (0.1, 0.6].
    expect(result.best).toMatchObject({ threshold: 0.6, tp: 8, fp: 0, precision: 1 });
    expect(result.best?.precisionInterval.lower).toBeCloseTo(8 / (8 + 1.959963984540054 ** 2), 9);
    expect(result.pointEstimateCut).toMatchObject({ threshold: 0.6, tp: 8, fp: 0 });
    // n / (n + z²) >= 0.8 needs n >= 4 · 3.8415 = 15.37, so 16 pairs.
    expect(result.pairsNeeded).toBe(16);
  });

  it('chooses a threshold inside the scores seen, below 1, when only pairs scoring 1 meet the target', () => {
    // 400 matches at exactly 1 (saturated probabilities), then a mix at 0.7.
    const examples = [...many(400, 1, true), ...many(10, 0.7, true), ...many(10, 0.7, false)];
    const result = thresholdMeetingPrecision(examples, 0.99);
    expect(result.met).toBe(true);
    if (!result.met) return;
    expect(result.cut).toMatchObject({
      lowestAdmittedScore: 1,
      highestExcludedScore: 0.7,
      tp: 400,
      fp: 0,
      threshold: 0.9,
    });
    expect(result.cut.threshold).toBeLessThan(1);
    expect(result.cut.threshold).toBeGreaterThan(0.7);
  });

  it('checks every cut, because precision is not monotone in the threshold', () => {
    // 100 matches at 0.9; 10 non-matches at 0.8; 300 matches at 0.7; 50 non-matches at 0.1. Target 0.95.
    // Cut 0.9: 100/100, lower 0.9630, met. Cut 0.8: 100/110, lower 0.8407, not met.
    // Cut 0.7: 400/410, lower 0.9556, met again (the lowest). Cut 0.1: 400/460, not met.
    const examples = [
      ...many(100, 0.9, true),
      ...many(10, 0.8, false),
      ...many(300, 0.7, true),
      ...many(50, 0.1, false),
    ];
    const result = thresholdMeetingPrecision(examples, 0.95);
    expect(result.met).toBe(true);
    if (result.met) expect(result.cut).toMatchObject({ threshold: 0.7, tp: 400, fp: 10, highestExcludedScore: 0.1 });
  });

  it('rejects a target outside [0, 1] and scores that are not finite', () => {
    expect(() => thresholdMeetingPrecision(many(3, 0.5, true), 1.01)).toThrow(RangeError);
    expect(() => thresholdMeetingPrecision(many(3, 0.5, true), Number.NaN)).toThrow(RangeError);
    expect(() => thresholdMeetingPrecision([{ score: Number.NaN, isMatch: true }], 0.5)).toThrow(RangeError);
  });

  it('says a target of 1 cannot be shown, and the pairs a target needs', () => {
    expect(pairsNeededForPrecision(1)).toBeNull();
    expect(pairsNeededForPrecision(0.99)).toBe(381); // 0.99 · 1.96² / 0.01 = 380.3
    const result = thresholdMeetingPrecision(many(1000, 0.9, true), 1);
    expect(result.met).toBe(false);
    if (!result.met) expect(result.pairsNeeded).toBeNull();
    expect(thresholdMeetingPrecision([], 0.9)).toMatchObject({
      met: false,
      best: null,
      pointEstimateCut: null,
      pairs: 0,
    });
  });
});
