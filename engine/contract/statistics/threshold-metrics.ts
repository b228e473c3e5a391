/**
 * Metrics of a score threshold over labelled pairs (predicted match when score >= threshold): the
 * confusion counts, precision, recall, specificity, NPV, F1 and MCC (confusion-metrics.ts,
 * null when a denominator is zero) and Wilson 95% score intervals for precision and recall
 * (wilson-interval.ts). In the contract because the console draws threshold curves with the same code.
 */
import { z } from 'zod';
import type { ConfusionCounts } from './confusion-counts.ts';
import { confusionMetrics } from './confusion-metrics.ts';
import { wilsonInterval } from './wilson-interval.ts';

/** A two-sided interval; null when its sample is empty. */
export const IntervalSchema = z.object({ lower: z.number(), upper: z.number() }).nullable();

export const ThresholdMetricsSchema = z.object({
  threshold: z.number(),
  tp: z.number().int(),
  fp: z.number().int(),
  tn: z.number().int(),
  fn: z.number().int(),
  precision: z.number().nullable(),
  recall: z.number().nullable(),
  specificity: z.number().nullable(),
  npv: z.number().nullable(),
  f1: z.number().nullable(),
  mcc: z.number().nullable(),
  /** Wilson score 95% interval of precision (tp of tp + fp) and of recall (tp of tp + fn). */
  precisionInterval: IntervalSchema,
  recallInterval: IntervalSchema,
});
export type ThresholdMetrics = z.infer<typeof ThresholdMetricsSchema>;

export function metricsOfCounts(threshold: number, counts: ConfusionCounts): ThresholdMetrics {
  const { tp, fp, tn, fn } = counts;
  return {
    threshold,
    tp,
    fp,
    tn,
    fn,
    ...confusionMetrics(counts),
    precisionInterval: wilsonInterval(tp, tp + fp),
    recallInterval: wilsonInterval(tp, tp + fn),
  };
}

/**
 * Counts over the pairs selected by `include` (all when absent), from typed arrays so that a dataset of
 * 10,000 pairs allocates nothing per pair.
 */
export function countsAt(
  threshold: number,
  score: ArrayLike<number>,
  isMatch: ArrayLike<number>,
  include?: (index: number) => boolean,
): ConfusionCounts {
  const counts: ConfusionCounts = { tp: 0, fp: 0, tn: 0, fn: 0 };
  for (let i = 0; i < score.length; i++) {
    if (include !== undefined && !include(i)) continue;
    const predicted = (score[i] ?? Number.NaN) >= threshold;
    if (isMatch[i] === 1) {
      if (predicted) counts.tp++;
      else counts.fn++;
    } else if (predicted) counts.fp++;
    else counts.tn++;
  }
  return counts;
}

export function thresholdMetrics(
  threshold: number,
  score: ArrayLike<number>,
  isMatch: ArrayLike<number>,
  include?: (index: number) => boolean,
): ThresholdMetrics {
  return metricsOfCounts(threshold, countsAt(threshold, score, isMatch, include));
}
