import type { ConfusionCounts } from './confusion-counts.ts';
import { f1Score } from './f1-score.ts';

/** A classifier score for one labelled pair. */
export interface ScoredExample {
  readonly score: number;
  readonly isMatch: boolean;
}

function assertScores(examples: readonly ScoredExample[]): void {
  examples.forEach((example, index) => {
    if (Number.isNaN(example.score)) throw new RangeError(`examples[${index}].score must be a number`);
  });
}

/**
 * The confusion matrix when a pair is predicted to be a match exactly when its score is at least
 * the threshold (score >= threshold).
 */
export function countsAtThreshold(examples: readonly ScoredExample[], threshold: number): ConfusionCounts {
  if (Number.isNaN(threshold)) throw new RangeError('threshold must be a number');
  assertScores(examples);
  const counts: ConfusionCounts = { tp: 0, fp: 0, tn: 0, fn: 0 };
  for (const { score, isMatch } of examples) {
    const predictedMatch = score >= threshold;
    if (predictedMatch) {
      if (isMatch) counts.tp += 1;
      else counts.fp += 1;
    } else if (isMatch) counts.fn += 1;
    else counts.tn += 1;
  }
  return counts;
}

/** One candidate threshold of a sweep, with the counts of the pairs predicted as matches. */
export interface SweepPoint {
  readonly threshold: number;
  /** Matches with score >= threshold. */
  readonly tp: number;
  /** Non-matches with score >= threshold. */
  readonly fp: number;
}

/**
 * Every distinct score as a candidate threshold, from the highest down, with cumulative counts:
 * one O(n log n) sort, then one O(n) pass (the construction of a ROC or precision–recall curve,
 * Fawcett 2006, "An introduction to ROC analysis", Pattern Recognition Letters 27:861–874,
 * section 5, where equal scores are taken together so that ties cannot be split).
 */
export function sweep(examples: readonly ScoredExample[]): { points: SweepPoint[]; positives: number } {
  assertScores(examples);
  // A comparison rather than a subtraction, so that infinite scores sort too.
  const sorted = [...examples].sort((a, b) => (a.score === b.score ? 0 : a.score < b.score ? 1 : -1));
  const points: SweepPoint[] = [];
  let tp = 0;
  let fp = 0;
  for (let i = 0; i < sorted.length; i += 1) {
    const example = sorted[i];
    if (example === undefined) continue;
    if (example.isMatch) tp += 1;
    else fp += 1;
    const next = sorted[i + 1];
    if (next === undefined || next.score !== example.score) {
      points.push({ threshold: example.score, tp, fp });
    }
  }
  return { points, positives: tp };
}

/**
 * The threshold that maximises F1 = 2tp / (2tp + fp + fn) over every distinct score as a
 * candidate (predicted match when score >= threshold). Ties go to the highest threshold.
 * Returns null when there is no labelled match (F1 is then 0 or undefined at every threshold).
 */
export function f1OptimalThreshold(examples: readonly ScoredExample[]): { threshold: number; f1: number } | null {
  const { points, positives } = sweep(examples);
  if (positives === 0) return null;
  let best: { threshold: number; f1: number } | null = null;
  // Points run from the highest threshold down; only a strictly better F1 replaces the best, so a
  // tie keeps the higher threshold. Equal F1 values are equal doubles: each is a correctly
  // rounded quotient of integers.
  for (const point of points) {
    const f1 = f1Score({ tp: point.tp, fp: point.fp, fn: positives - point.tp });
    if (f1 !== null && (best === null || f1 > best.f1)) best = { threshold: point.threshold, f1 };
  }
  return best;
}
