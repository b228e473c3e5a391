import { describe, expect, it } from 'vitest';
import { operatingPointAt } from '../../../engine/assurance/live-thresholds.ts';
import { compareWithProfile } from '../../../engine/assurance/profile-comparison.ts';
import { wilsonInterval } from '../../../engine/stats/wilson-interval.ts';
import { heldOutExamples as examples } from '../../helpers/held-out-examples.ts';

describe('a cut’s live operating point', () => {
  it('is held-out recall, precision reweighted to the live share, and its bound from the Wilson intervals', () => {
    // 100 matches, 1,000 non-matches; at or above 0.8: 70 matches and 2 non-matches.
    const heldOut = examples([
      [0.95, 50, 0],
      [0.8, 20, 2],
      [0.3, 30, 998],
    ]);
    const point = operatingPointAt(heldOut, 0.05, 0.8);
    expect(point?.threshold).toBe(0.8);
    expect(point?.recall).toBeCloseTo(0.7, 12);
    // 0.05 · 0.7 / (0.05 · 0.7 + 0.95 · 0.002) = 0.035 / 0.0369
    expect(point?.precision).toBeCloseTo(0.035 / 0.0369, 12);
    const tpr = wilsonInterval(70, 100);
    const fpr = wilsonInterval(2, 1000);
    if (tpr === null || fpr === null) throw new Error('no interval');
    const bound = (0.05 * tpr.lower) / (0.05 * tpr.lower + 0.95 * fpr.upper);
    expect(point?.precisionLowerBound).toBeCloseTo(bound, 12);
    expect(point?.precisionLowerBound).toBeLessThan(point?.precision ?? 0);
    // A cut between two scores counts the pairs at or above it, as live matching links them.
    expect(operatingPointAt(heldOut, 0.05, 0.9)?.recall).toBeCloseTo(0.5, 12);
  });

  it('is not measured without both classes', () => {
    expect(operatingPointAt(examples([[0.9, 10, 0]]), 0.1, 0.5)).toBeNull();
    expect(operatingPointAt(examples([[0.9, 0, 10]]), 0.1, 0.5)).toBeNull();
  });
});

describe('the calibrated model beside the active profile', () => {
  // The active profile's held-out scores: at its Certain 0.9, 80 of 100 matches and none of 2,000 non-matches.
  const profile = examples([
    [0.99, 80, 0],
    [0.6, 15, 20],
    [0.1, 5, 1980],
  ]);
  const thresholds = { Certain: 0.9, Probable: 0.5 };
  const at = (recall: number, precisionLowerBound: number) => ({
    prior: 0.05,
    atCertain: { threshold: 0.7, precision: 1, recall, precisionLowerBound },
  });
  const shown = operatingPointAt(profile, 0.05, 0.9)?.precisionLowerBound ?? 0;

  it('keeps the profile when it links as many true pairs and shows as much precision', () => {
    const fewer = compareWithProfile(profile, thresholds, at(0.6, shown - 0.01));
    expect(fewer?.keepProfile).toBe(true);
    expect(fewer?.atCertain.recall).toBeCloseTo(0.8, 12);
    // At Probable the profile also takes the 15 matches and 20 non-matches at 0.6 (to review).
    expect(fewer?.atProbable.recall).toBeCloseTo(0.95, 12);
    expect(fewer?.Certain).toBe(0.9);
    expect(fewer?.Probable).toBe(0.5);
    // A tie gains nothing: keep what matches today.
    expect(compareWithProfile(profile, thresholds, at(0.8, shown))?.keepProfile).toBe(true);
  });

  it('advises the model when it links more true pairs, or shows more precision', () => {
    expect(compareWithProfile(profile, thresholds, at(0.81, shown - 0.2))?.keepProfile).toBe(false);
    expect(compareWithProfile(profile, thresholds, at(0.5, shown + 0.001))?.keepProfile).toBe(false);
  });

  it('says nothing when the held-out pairs lack a class', () => {
    expect(compareWithProfile(examples([[0.99, 5, 0]]), thresholds, at(0.5, 0.5))).toBeNull();
  });
});
