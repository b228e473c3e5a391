import { mean } from './mean.ts';
import { assertProbabilities } from './probabilistic-prediction.ts';
import type { ProbabilisticPrediction } from './probabilistic-prediction.ts';

export type { ProbabilisticPrediction } from './probabilistic-prediction.ts';

/**
 * Brier score of binary probability forecasts (Brier 1950, "Verification of forecasts expressed
 * in terms of probability", Monthly Weather Review 78:1–3): the mean squared difference between
 * the predicted match probability and the outcome (1 for a match, 0 for a non-match),
 *
 *     BS = (1/N) Σ (pᵢ − oᵢ)²
 *
 * This is the one-class form used by scikit-learn's `brier_score_loss`, ranging over [0, 1];
 * Brier's original definition sums over both classes and so is exactly twice this value.
 *
 * Returns null for an empty input. Throws a RangeError if a probability is outside [0, 1].
 */
export function brierScore(predictions: readonly ProbabilisticPrediction[]): number | null {
  assertProbabilities(predictions);
  return mean(
    predictions.map(({ probability, isMatch }) => {
      const error = probability - (isMatch ? 1 : 0);
      return error * error;
    }),
  );
}
