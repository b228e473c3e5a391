import type { ConfusionCounts } from './confusion-counts.ts';

/**
 * Matthews correlation coefficient of a 2×2 confusion matrix
 * (Matthews 1975, "Comparison of the predicted and observed secondary structure of T4 phage
 * lysozyme", Biochim. Biophys. Acta 405:442–451; it equals Pearson's phi coefficient of the
 * predicted and observed 0/1 vectors):
 *
 *     MCC = (tp·tn − fp·fn) / sqrt((tp+fp)(tp+fn)(tn+fp)(tn+fn))
 *
 * Returns null when any of the four marginal factors is 0, because the coefficient is then
 * undefined (0/0). Some tools — scikit-learn's `matthews_corrcoef`, for one — return 0 in that
 * case; the assurance spec says a metric whose denominator is missing is null, never zero.
 */
export function matthewsCorrelation(c: ConfusionCounts): number | null {
  const predictedPositive = c.tp + c.fp;
  const actualPositive = c.tp + c.fn;
  const actualNegative = c.tn + c.fp;
  const predictedNegative = c.tn + c.fn;
  if (predictedPositive === 0 || actualPositive === 0 || actualNegative === 0 || predictedNegative === 0) {
    return null;
  }
  // One square root of the whole product: exact whenever the product is a perfect square below
  // 2^53 (so a perfect classifier on realistic counts gives exactly ±1), and far from overflow
  // for any count a dataset can hold.
  const denominator = Math.sqrt(predictedPositive * actualPositive * actualNegative * predictedNegative);
  const value = (c.tp * c.tn - c.fp * c.fn) / denominator;
  // Rounding can push a perfect (anti-)correlation a hair past ±1.
  return Math.min(1, Math.max(-1, value));
}
