import { describe, expect, it } from 'vitest';
import { logLoss } from '../../../engine/stats/log-loss.ts';

describe('logLoss', () => {
  it("matches scikit-learn's log_loss documentation example", () => {
    // scikit-learn docs, sklearn.metrics.log_loss:
    //   log_loss(["spam", "ham", "ham", "spam"], [[.1, .9], [.9, .1], [.8, .2], [.35, .65]]) → 0.21616…
    // With spam as the match class: P(match) = 0.9, 0.1, 0.2, 0.65; outcomes match, non, non, match.
    // −(ln 0.9 + ln 0.9 + ln 0.8 + ln 0.65)/4 = (0.105361 + 0.105361 + 0.223144 + 0.430783)/4 = 0.216162
    // Cross-check: numpy −mean(y·log p + (1−y)·log(1−p)) = 0.21616187468057912.
    const loss = logLoss([
      { probability: 0.9, isMatch: true },
      { probability: 0.1, isMatch: false },
      { probability: 0.2, isMatch: false },
      { probability: 0.65, isMatch: true },
    ]);
    expect(loss).toBeCloseTo(0.21616187468057912, 12);
  });

  it('is ln 2 for a constant 0.5 forecast', () => {
    expect(
      logLoss([
        { probability: 0.5, isMatch: true },
        { probability: 0.5, isMatch: false },
      ]),
    ).toBeCloseTo(Math.LN2, 15);
  });

  it('clips probabilities to [1e-15, 1 − 1e-15]', () => {
    // p = 0 for a match → −ln(1e-15) = 15·ln 10 = 34.538776394910684 (Python math.log).
    expect(logLoss([{ probability: 0, isMatch: true }])).toBeCloseTo(34.538776394910684, 10);
    // p = 1 for a non-match → −ln(1 − (1 − 1e-15)); in doubles 1 − (1 − 1e-15) = 9.992007221626409e-16,
    // so the loss is 34.53957599234088 (Python math.log).
    expect(logLoss([{ probability: 1, isMatch: false }])).toBeCloseTo(34.53957599234088, 10);
    // A certain correct forecast costs −ln(1 − 1e-15) ≈ 1e-15, not exactly 0.
    expect(logLoss([{ probability: 1, isMatch: true }])).toBeCloseTo(0, 14);
  });

  it('is null on empty input', () => {
    expect(logLoss([])).toBeNull();
  });

  it('rejects probabilities outside [0, 1]', () => {
    expect(() => logLoss([{ probability: -0.1, isMatch: true }])).toThrow(RangeError);
  });
});
