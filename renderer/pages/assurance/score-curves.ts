/**
 * What the threshold explorer and the histogram draw, from a report's score distribution by class
 * (engine/contract/statistics/score-distribution.ts): the curve points with their Wilson bands, the metrics at a chosen
 * threshold snapped to the distribution's grid (exact there), and the fine bins summed into readable bars.
 * All counts and metrics come from the contract's code, the engine's own.
 */
import type { ThresholdMetrics } from '../../../engine/contract/assurance.ts';
import {
  countsAtEdge,
  thresholdCurve,
  type ScoreDistribution,
} from '../../../engine/contract/statistics/score-distribution.ts';
import { metricsOfCounts } from '../../../engine/contract/statistics/threshold-metrics.ts';

/** Curve points every 0.005 (1,000 bins): 201 points draw fast and look smooth; the matrix uses every edge. */
export const CURVE_STRIDE = 5;

export interface CurvePoint {
  threshold: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  precisionBand: [number, number] | null;
  recallBand: [number, number] | null;
}

function band(interval: ThresholdMetrics['precisionInterval']): [number, number] | null {
  return interval === null ? null : [interval.lower, interval.upper];
}

export function curvePoints(distribution: ScoreDistribution, stride = CURVE_STRIDE): CurvePoint[] {
  return thresholdCurve(distribution, stride).map((m) => ({
    threshold: m.threshold,
    precision: m.precision,
    recall: m.recall,
    f1: m.f1,
    precisionBand: band(m.precisionInterval),
    recallBand: band(m.recallInterval),
  }));
}

/** The metrics at a threshold, snapped to the nearest bin edge (clamped to 0..1). */
export function metricsAt(distribution: ScoreDistribution, threshold: number): ThresholdMetrics {
  const k = Math.min(distribution.bins, Math.max(0, Math.round(threshold * distribution.bins)));
  return metricsOfCounts(k / distribution.bins, countsAtEdge(distribution, k));
}

export interface HistogramBar {
  from: number;
  matches: number;
  nonMatches: number;
}

/** The fine bins summed into `bars` equal bars; the last bar also holds scores of exactly 1. */
export function histogram(distribution: ScoreDistribution, bars = 50): HistogramBar[] {
  if (!Number.isInteger(bars) || bars < 1 || distribution.bins % bars !== 0)
    throw new RangeError('bars must divide the number of bins');
  const perBar = distribution.bins / bars;
  const rows = Array.from({ length: bars }, (_, b) => ({ from: b / bars, matches: 0, nonMatches: 0 }));
  for (let k = 0; k <= distribution.bins; k++) {
    const row = rows[Math.min(bars - 1, Math.floor(k / perBar))];
    if (row === undefined) continue;
    row.matches += distribution.matches[k] ?? 0;
    row.nonMatches += distribution.nonMatches[k] ?? 0;
  }
  return rows;
}

/** Match weight: the score's log2 odds (Splink's threshold axis), so 0.5 is 0, 0.97 is about 5, 0.999 about 10. */
export function matchWeight(probability: number): number {
  return Math.log2(probability / (1 - probability));
}

/** The probability of a match weight (its inverse). */
export function probabilityOfWeight(weight: number): number {
  return 1 / (1 + 2 ** -weight);
}

/** Curve points at every bin edge strictly between 0 and 1 (their weight is finite), each with its match weight. */
export function weightPoints(distribution: ScoreDistribution): (CurvePoint & { weight: number })[] {
  return curvePoints(distribution, 1)
    .filter((p) => p.threshold > 0 && p.threshold < 1)
    .map((p) => ({ ...p, weight: matchWeight(p.threshold) }));
}

/** A weight tick's label with the probability beside it: "5 (0.970)"; near 1, more digits so ticks stay distinct. */
export function weightTick(weight: number): string {
  const p = probabilityOfWeight(weight);
  const digits = p >= 0.999 || p <= 0.001 ? 4 : 3;
  return `${String(Math.round(weight))} (${p.toFixed(digits)})`;
}
