/**
 * The score distribution of labelled pairs by class, as aggregates only (counts per fine score bin, no pair
 * and no record), and the threshold curves computed from it. The engine builds the histograms of an
 * evaluation (and of a calibration's held-out pairs); the console draws precision, recall and F1 against
 * the threshold, with Wilson 95% bands, and the confusion matrix at any bin edge, all with the contract's
 * own metric code (threshold-metrics.ts), so a figure on the page is the engine's figure.
 *
 * Bins: with B bins, bin k (0 ≤ k < B) holds the scores s with k/B ≤ s < (k+1)/B and bin B holds s ≥ 1.
 * The prediction at threshold t is `score >= t`, so at every bin edge t = k/B the matrix is exact:
 * predicted matches are the pairs in bins k..B. `scoreBin` places a score against the edges computed as
 * k/B (the same doubles the console uses), never against a product that rounding could move across an edge.
 */
import { z } from 'zod';
import type { ConfusionCounts } from './confusion-counts.ts';
import { metricsOfCounts, type ThresholdMetrics } from './threshold-metrics.ts';

/** 1,000 bins: thresholds on a 0.001 grid are exact, and the histogram stays a few kilobytes. */
export const SCORE_BINS = 1000;

export const ScoreDistributionSchema = z.object({
  /** B: bin k < B holds scores in [k/B, (k+1)/B); bin B holds scores ≥ 1. */
  bins: z.number().int().min(1).max(100_000),
  /** B + 1 counts of labelled matches per bin. */
  matches: z.array(z.number().int().min(0)),
  /** B + 1 counts of labelled non-matches per bin. */
  nonMatches: z.array(z.number().int().min(0)),
});
export type ScoreDistribution = z.infer<typeof ScoreDistributionSchema>;

/** The threshold at bin edge k (k / bins), the one double both the engine and the console use. */
export function binEdge(k: number, bins: number = SCORE_BINS): number {
  return k / bins;
}

/** The bin of a score (see the module comment); scores below 0 go to bin 0, NaN is refused. */
export function scoreBin(score: number, bins: number = SCORE_BINS): number {
  if (Number.isNaN(score)) throw new RangeError('a score must be a number');
  if (score >= 1) return bins;
  if (score <= 0) return 0;
  let k = Math.min(bins - 1, Math.max(0, Math.floor(score * bins)));
  // score * bins can round across an edge; settle against the edges themselves.
  while (k + 1 < bins && score >= binEdge(k + 1, bins)) k++;
  while (k > 0 && score < binEdge(k, bins)) k--;
  return k;
}

/** Histograms per class of the pairs selected by `include` (all when absent). */
export function scoreDistribution(
  score: ArrayLike<number>,
  isMatch: ArrayLike<number>,
  include?: (index: number) => boolean,
  bins: number = SCORE_BINS,
): ScoreDistribution {
  const matches = new Array<number>(bins + 1).fill(0);
  const nonMatches = new Array<number>(bins + 1).fill(0);
  for (let i = 0; i < score.length; i++) {
    if (include !== undefined && !include(i)) continue;
    const k = scoreBin(score[i] ?? Number.NaN, bins);
    if (isMatch[i] === 1) matches[k] = (matches[k] ?? 0) + 1;
    else nonMatches[k] = (nonMatches[k] ?? 0) + 1;
  }
  return { bins, matches, nonMatches };
}

function assertShape(distribution: ScoreDistribution): void {
  const { bins, matches, nonMatches } = distribution;
  if (matches.length !== bins + 1 || nonMatches.length !== bins + 1)
    throw new RangeError(`a distribution of ${String(bins)} bins has ${String(bins + 1)} counts per class`);
}

/** Cumulative counts from the top: above[k] = pairs in bins k..B (predicted matches at edge k). */
function countsFromTop(counts: readonly number[]): number[] {
  const above = new Array<number>(counts.length + 1).fill(0);
  for (let k = counts.length - 1; k >= 0; k--) above[k] = (above[k + 1] ?? 0) + (counts[k] ?? 0);
  return above;
}

/** The confusion matrix at threshold binEdge(k): exact, see the module comment. */
export function countsAtEdge(distribution: ScoreDistribution, k: number): ConfusionCounts {
  assertShape(distribution);
  if (!Number.isInteger(k) || k < 0 || k > distribution.bins)
    throw new RangeError(`edge must be an integer from 0 to ${String(distribution.bins)}`);
  let tp = 0;
  let fp = 0;
  for (let j = k; j <= distribution.bins; j++) {
    tp += distribution.matches[j] ?? 0;
    fp += distribution.nonMatches[j] ?? 0;
  }
  const matches = distribution.matches.reduce((a, b) => a + b, 0);
  const nonMatches = distribution.nonMatches.reduce((a, b) => a + b, 0);
  return { tp, fp, fn: matches - tp, tn: nonMatches - fp };
}

/** The edge index of a threshold when it lies on the grid (k/B exactly), else null. */
export function edgeOf(threshold: number, bins: number = SCORE_BINS): number | null {
  const k = Math.round(threshold * bins);
  return k >= 0 && k <= bins && binEdge(k, bins) === threshold ? k : null;
}

/**
 * Metrics (threshold-metrics.ts: counts, precision, recall, specificity, NPV, F1, MCC, Wilson intervals) at
 * every `stride`-th bin edge from 0 to 1, both ends included. One pass of cumulative sums.
 */
export function thresholdCurve(distribution: ScoreDistribution, stride = 1): ThresholdMetrics[] {
  assertShape(distribution);
  if (!Number.isInteger(stride) || stride < 1) throw new RangeError('stride must be a positive integer');
  const { bins } = distribution;
  const tpFrom = countsFromTop(distribution.matches);
  const fpFrom = countsFromTop(distribution.nonMatches);
  const matches = tpFrom[0] ?? 0;
  const nonMatches = fpFrom[0] ?? 0;
  const points: ThresholdMetrics[] = [];
  for (let k = 0; k <= bins; k += k === bins ? 1 : Math.min(stride, bins - k)) {
    const tp = tpFrom[k] ?? 0;
    const fp = fpFrom[k] ?? 0;
    points.push(metricsOfCounts(binEdge(k, bins), { tp, fp, fn: matches - tp, tn: nonMatches - fp }));
  }
  return points;
}
