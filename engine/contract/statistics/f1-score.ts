import type { ConfusionCounts } from './confusion-counts.ts';

/**
 * F1 score, the harmonic mean of precision and recall (van Rijsbergen 1979, "Information
 * Retrieval", 2nd ed., ch. 7, F-measure with β = 1), written in counts so that it stays defined
 * when precision alone is undefined:
 *
 *     F1 = 2·tp / (2·tp + fp + fn)
 *
 * Returns null when 2·tp + fp + fn = 0 (no positives predicted and none present): the
 * denominator is missing, so the metric is null, never 0.
 */
export function f1Score(c: Pick<ConfusionCounts, 'tp' | 'fp' | 'fn'>): number | null {
  const denominator = 2 * c.tp + c.fp + c.fn;
  return denominator === 0 ? null : (2 * c.tp) / denominator;
}
