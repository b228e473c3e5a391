import { describe, expect, it } from 'vitest';
import { reliabilityBins } from '../../../engine/stats/reliability-diagram.ts';
import { wilsonInterval } from '../../../engine/contract/statistics/wilson-interval.ts';

describe('reliability diagram bins', () => {
  it('groups predictions by probability and compares the mean prediction with the observed share (hand-worked)', () => {
    const bins = reliabilityBins(
      [
        { probability: 0.05, isMatch: false },
        { probability: 0.15, isMatch: false },
        { probability: 0.1, isMatch: true }, // on the edge: bin [0.1, 0.2)
        { probability: 0.9, isMatch: true },
        { probability: 1, isMatch: true }, // the last bin holds 1
        { probability: 0.95, isMatch: false },
      ],
      10,
    );
    expect(bins).toHaveLength(10);
    expect(bins[0]).toMatchObject({ lower: 0, upper: 0.1, pairs: 1, meanPredicted: 0.05, observed: 0 });
    expect(bins[1]?.pairs).toBe(2);
    expect(bins[1]?.meanPredicted).toBeCloseTo(0.125, 12);
    expect(bins[1]?.observed).toBe(0.5);
    expect(bins[1]?.observedInterval).toEqual(wilsonInterval(1, 2));
    expect(bins[9]?.pairs).toBe(3);
    expect(bins[9]?.meanPredicted).toBeCloseTo(0.95, 12);
    expect(bins[9]?.observed).toBeCloseTo(2 / 3, 12);
    // An empty bin has no denominator: null, never 0.
    expect(bins[5]).toEqual({
      lower: 0.5,
      upper: 0.6,
      pairs: 0,
      meanPredicted: null,
      observed: null,
      observedInterval: null,
    });
  });

  it('refuses a probability outside [0, 1]', () => {
    expect(() => reliabilityBins([{ probability: 1.2, isMatch: true }])).toThrow(RangeError);
    expect(() => reliabilityBins([{ probability: Number.NaN, isMatch: true }])).toThrow(RangeError);
  });
});
