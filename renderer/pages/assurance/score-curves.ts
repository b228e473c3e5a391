/**
 * What the threshold explorer and the histogram draw, from a report's score distribution by class
 * (engine/contract/statistics/score-distribution.ts): the curve points with their Wilson bands, the metrics at a chosen
 * threshold snapped to the distribution's grid (exact there), and the fine bins summed into readable bars.
 * All counts and metrics come from the contract's code, the engine's own.
 */
import type { ThresholdMetrics } from '../../../engine/contract/assurance.ts';
import { countsAtEdge, thresholdCurve, type ScoreDistribution } from '../../../engine/contract/statistics/score-distribution.ts';
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
  return thresholdCurve(distribution, stride).map((m) => ({ threshold: m.threshold, precision: m.precision, recall: m.recall, f1: m.f1, precisionBand: band(m.precisionInterval), recallBand: band(m.recallInterval) }));
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
  if (!Number.isInteger(bars) || bars < 1 || distribution.bins % bars !== 0) throw new RangeError('bars must divide the number of bins');
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
