import { mean } from './mean.ts';
import { assertProbabilities } from './probabilistic-prediction.ts';
import type { ProbabilisticPrediction } from './probabilistic-prediction.ts';

export type { ProbabilisticPrediction } from './probabilistic-prediction.ts';

/** Probabilities are clipped to [LOG_LOSS_EPSILON, 1 − LOG_LOSS_EPSILON] before the logarithm. */
export const LOG_LOSS_EPSILON = 1e-15;

/**
 * Log loss (binary cross-entropy): the mean negative natural-log likelihood of the outcomes under
 * the predicted match probabilities (the cross-entropy error function of Bishop 2006, "Pattern
 * Recognition and Machine Learning", §4.3.2, which scikit-learn's `log_loss` also cites),
 *
 *     LL = −(1/N) Σ [ oᵢ·ln pᵢ + (1 − oᵢ)·ln(1 − pᵢ) ]
 *
 * with each pᵢ first clipped to [1e-15, 1 − 1e-15] so that a confident wrong prediction costs
 * about 34.5 instead of infinity. The fixed 1e-15 clip is scikit-learn's `log_loss` default up to
 * version 1.1 (`eps=1e-15`); from 1.2 scikit-learn clips at float64 machine epsilon
 * (≈2.2e-16) instead, so results differ from a current scikit-learn only for probabilities
 * within 1e-15 of 0 or 1.
 *
 * Returns null for an empty input. Throws a RangeError if a probability is outside [0, 1].
 */
export function logLoss(predictions: readonly ProbabilisticPrediction[]): number | null {
  assertProbabilities(predictions);
  return mean(
    predictions.map(({ probability, isMatch }) => {
      const p = Math.min(1 - LOG_LOSS_EPSILON, Math.max(LOG_LOSS_EPSILON, probability));
      return -Math.log(isMatch ? p : 1 - p);
    }),
  );
}
