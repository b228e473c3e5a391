/**
 * The points of a reliability diagram (DeGroot & Fienberg 1983, "The comparison and evaluation of
 * forecasters", The Statistician 32:12-22; Murphy & Winkler 1977, "Reliability of subjective probability
 * forecasts of precipitation and temperature", Applied Statistics 26:41-47): predictions grouped into
 * equal-width probability bins, each bin's mean predicted probability against the observed share of
 * positives, with the bin's size and a Wilson 95% interval of that share (wilson-interval.ts). A calibrated
 * model's points lie on the diagonal.
 *
 * Bin b of n covers [b/n, (b+1)/n); the last also holds predictions equal to 1. Empty bins are kept, with
 * null means (no denominator), never 0.
 */
import type { ReliabilityBin } from '../contract/assurance.ts';
import { wilsonInterval } from '../contract/statistics/wilson-interval.ts';

export function reliabilityBins(
  predictions: readonly { readonly probability: number; readonly isMatch: boolean }[],
  bins = 10,
): ReliabilityBin[] {
  if (!Number.isInteger(bins) || bins < 1) throw new RangeError('bins must be a positive integer');
  const pairs = new Array<number>(bins).fill(0);
  const positives = new Array<number>(bins).fill(0);
  const predicted = new Array<number>(bins).fill(0);
  predictions.forEach(({ probability }, index) => {
    if (!(probability >= 0 && probability <= 1))
      throw new RangeError(`predictions[${String(index)}].probability must be between 0 and 1`);
  });
  // Summed in ascending order, so the same predictions in any order give the same means to the last bit.
  const ascending = [...predictions].sort((a, b) => a.probability - b.probability);
  ascending.forEach(({ probability, isMatch }) => {
    let b = Math.min(bins - 1, Math.floor(probability * bins));
    // Settle against the edges b/n themselves (the product can round across one).
    while (b + 1 < bins && probability >= (b + 1) / bins) b++;
    while (b > 0 && probability < b / bins) b--;
    pairs[b] = (pairs[b] ?? 0) + 1;
    predicted[b] = (predicted[b] ?? 0) + probability;
    if (isMatch) positives[b] = (positives[b] ?? 0) + 1;
  });
  return pairs.map((n, b) => ({
    lower: b / bins,
    upper: (b + 1) / bins,
    pairs: n,
    meanPredicted: n === 0 ? null : (predicted[b] ?? 0) / n,
    observed: n === 0 ? null : (positives[b] ?? 0) / n,
    observedInterval: wilsonInterval(positives[b] ?? 0, n),
  }));
}
