/** Counts of a binary classifier's outcomes against labels: the 2×2 confusion matrix. */
export interface ConfusionCounts {
  /** Labelled match, predicted match. */
  tp: number;
  /** Labelled non-match, predicted match. */
  fp: number;
  /** Labelled non-match, predicted non-match. */
  tn: number;
  /** Labelled match, predicted non-match. */
  fn: number;
}

/** Throws a RangeError unless every count is a non-negative safe integer. */
export function assertConfusionCounts(c: ConfusionCounts): void {
  for (const key of ['tp', 'fp', 'tn', 'fn'] as const) {
    const value = c[key];
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`confusion count ${key} must be a non-negative integer`);
    }
  }
}
