/** Two evaluations side by side: the thresholds both were asked at, with each run's metrics there. */
import { signed } from './metric-text.ts';
import type { EvaluationReport, ThresholdMetrics } from '../../../engine/contract/assurance.ts';

export interface ComparedThreshold {
  readonly threshold: number;
  readonly left: ThresholdMetrics;
  readonly right: ThresholdMetrics;
}

export function comparisonRows(a: EvaluationReport, b: EvaluationReport): ComparedThreshold[] {
  return a.thresholds.flatMap((left) => {
    const right = b.thresholds.find((m) => m.threshold === left.threshold);
    return right === undefined ? [] : [{ threshold: left.threshold, left, right }];
  });
}

/** The thresholds only one of the two runs asked for: left out of the comparison, and said so. */
export function unsharedThresholds(a: EvaluationReport, b: EvaluationReport): { onlyA: number[]; onlyB: number[] } {
  const inA = new Set(a.thresholds.map((m) => m.threshold));
  const inB = new Set(b.thresholds.map((m) => m.threshold));
  return {
    onlyA: [...inA].filter((t) => !inB.has(t)).sort((x, y) => x - y),
    onlyB: [...inB].filter((t) => !inA.has(t)).sort((x, y) => x - y),
  };
}

/** B − A with its sign; a metric without a value in either run has no delta. */
export function metricDelta(a: number | null, b: number | null): string {
  if (a === null || b === null) return '— (no value in one run)';
  return signed(b - a, 3);
}

/**
 * The two runs chosen, the earlier first: A is "before" and B "after", whichever was ticked first, so a delta reads
 * as what changed since (ties keep the order chosen).
 */
export function inTimeOrder<T extends { readonly summary: { readonly createdAt: string } }>(
  first: T,
  second: T,
): readonly [T, T] {
  return Date.parse(second.summary.createdAt) < Date.parse(first.summary.createdAt) ? [second, first] : [first, second];
}
