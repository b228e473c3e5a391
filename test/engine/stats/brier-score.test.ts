import { describe, expect, it } from 'vitest';
import { brierScore } from '../../../engine/stats/brier-score.ts';

describe('brierScore', () => {
  it("matches scikit-learn's brier_score_loss documentation example", () => {
    // y_true = [0, 1, 1, 0], y_prob = [0.1, 0.9, 0.8, 0.3]  (scikit-learn docs → 0.037…)
    // (0.1² + 0.1² + 0.2² + 0.3²)/4 = (0.01 + 0.01 + 0.04 + 0.09)/4 = 0.15/4 = 0.0375.
    // Cross-check: numpy.mean((y_prob − y_true)**2) = 0.03749999999999999.
    const score = brierScore([
      { probability: 0.1, isMatch: false },
      { probability: 0.9, isMatch: true },
      { probability: 0.8, isMatch: true },
      { probability: 0.3, isMatch: false },
    ]);
    expect(score).toBeCloseTo(0.0375, 15);
  });

  it('is 0 for certain correct forecasts and 1 for certain wrong ones', () => {
    expect(
      brierScore([
        { probability: 1, isMatch: true },
        { probability: 0, isMatch: false },
      ]),
    ).toBe(0);
    expect(
      brierScore([
        { probability: 0, isMatch: true },
        { probability: 1, isMatch: false },
      ]),
    ).toBe(1);
  });

  it('is 0.25 for a constant 0.5 forecast', () => {
    // (0.5)² for every pair, whatever the outcome.
    expect(
      brierScore([
        { probability: 0.5, isMatch: true },
        { probability: 0.5, isMatch: false },
      ]),
    ).toBe(0.25);
  });

  it('is null on empty input', () => {
    expect(brierScore([])).toBeNull();
  });

  it('rejects probabilities outside [0, 1]', () => {
    expect(() => brierScore([{ probability: 1.2, isMatch: true }])).toThrow(RangeError);
    expect(() => brierScore([{ probability: Number.NaN, isMatch: true }])).toThrow(RangeError);
  });
});
