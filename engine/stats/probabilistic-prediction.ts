/** A predicted match probability for one labelled pair. */
export interface ProbabilisticPrediction {
  /** Predicted probability that the pair is a match, in [0, 1]. */
  readonly probability: number;
  /** The label. */
  readonly isMatch: boolean;
}

/** Throws a RangeError unless every probability is a number in [0, 1]. */
export function assertProbabilities(predictions: readonly ProbabilisticPrediction[]): void {
  predictions.forEach((prediction, index) => {
    const p = prediction.probability;
    if (!(p >= 0 && p <= 1)) {
      throw new RangeError(`predictions[${index}].probability must be a number between 0 and 1`);
    }
  });
}
