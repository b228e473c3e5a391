/**
 * What a calibration's review load (LiveThresholds.reviewLoad, engine/assurance/live-thresholds.ts) says against its
 * budget, for every place that puts it in words: over the budget (the pairs the limits hold at or above Certain go to
 * review at any Probable, so the band cannot take it back), kept within it by stopping the band, or within it as the
 * band stands. Browser-safe.
 */
export type ReviewLoadState = 'over' | 'stopped' | 'within';

export function reviewLoadState(load: {
  readonly pairsPerThousandRecords: number;
  readonly budgetPerThousandRecords: number;
  readonly budgetRaisedProbable: boolean;
}): ReviewLoadState {
  if (load.pairsPerThousandRecords > load.budgetPerThousandRecords) return 'over';
  return load.budgetRaisedProbable ? 'stopped' : 'within';
}
