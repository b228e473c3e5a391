import { assertConfusionCounts } from './confusion-counts.ts';
import type { ConfusionCounts } from './confusion-counts.ts';
import { f1Score } from './f1-score.ts';
import { matthewsCorrelation } from './matthews-correlation.ts';

export type { ConfusionCounts } from './confusion-counts.ts';

export interface ConfusionMetrics {
  /** Positive predictive value, tp / (tp + fp). */
  readonly precision: number | null;
  /** Sensitivity, true positive rate, tp / (tp + fn). */
  readonly recall: number | null;
  /** True negative rate, tn / (tn + fp). */
  readonly specificity: number | null;
  /** Negative predictive value, tn / (tn + fn). */
  readonly npv: number | null;
  /** 2tp / (2tp + fp + fn); see f1-score.ts. */
  readonly f1: number | null;
  /** Matthews correlation coefficient; see matthews-correlation.ts. */
  readonly mcc: number | null;
}

/** numerator / denominator, or null when the denominator is 0 (never 0 in its place). */
function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}

/**
 * The standard metrics of a 2×2 confusion matrix, as defined in Fawcett (2006), "An introduction
 * to ROC analysis", Pattern Recognition Letters 27:861–874, Fig. 1 (precision, recall,
 * specificity), with negative predictive value tn / (tn + fn) (Altman & Bland 1994, BMJ 309:102),
 * F1 and the Matthews correlation coefficient.
 *
 * A metric whose denominator is zero is null, never 0 (assurance spec, "Evaluation report").
 * Throws a RangeError if a count is not a non-negative integer.
 */
export function confusionMetrics(c: ConfusionCounts): ConfusionMetrics {
  assertConfusionCounts(c);
  return {
    precision: ratio(c.tp, c.tp + c.fp),
    recall: ratio(c.tp, c.tp + c.fn),
    specificity: ratio(c.tn, c.tn + c.fp),
    npv: ratio(c.tn, c.tn + c.fn),
    f1: f1Score(c),
    mcc: matthewsCorrelation(c),
  };
}
