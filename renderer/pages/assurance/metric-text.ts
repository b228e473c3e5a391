/**
 * How the page writes metrics: three decimals, intervals as ranges, and a null metric as "—" with the reason
 * it has no value (its denominator is zero), never as 0.
 */
import type { ThresholdMetrics } from '../../../engine/contract/assurance.ts';

export type MetricName = 'precision' | 'recall' | 'specificity' | 'npv' | 'f1' | 'mcc';

export const METRIC_LABEL: Readonly<Record<MetricName, string>> = {
  precision: 'Precision',
  recall: 'Recall',
  specificity: 'Specificity',
  npv: 'NPV',
  f1: 'F1',
  mcc: 'MCC',
};

/** Why a metric is null: the denominator that is zero. */
export const NULL_REASON: Readonly<Record<MetricName, string>> = {
  precision: 'no pair is predicted a match (TP + FP = 0)',
  recall: 'no labelled match (TP + FN = 0)',
  specificity: 'no labelled non-match (TN + FP = 0)',
  npv: 'no pair is predicted a non-match (TN + FN = 0)',
  f1: 'no match labelled or predicted (2TP + FP + FN = 0)',
  mcc: 'a row or column of the confusion matrix is empty',
};

/** A value with its sign (a true minus), to `digits` decimals: +0.50, −1.25. */
export function signed(value: number, digits: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(digits)}`;
}

export function fixed3(value: number | null): string {
  return value === null ? '—' : value.toFixed(3);
}

export function range(interval: { readonly lower: number; readonly upper: number } | null): string {
  return interval === null ? '—' : `${interval.lower.toFixed(3)}–${interval.upper.toFixed(3)}`;
}

export function metricValue(metrics: ThresholdMetrics, name: MetricName): number | null {
  return metrics[name];
}

/** The metrics of a row as plain values, for the CSV and JSON exports. */
export function metricsRow(m: ThresholdMetrics): Record<string, number | null> {
  return {
    threshold: m.threshold,
    tp: m.tp,
    fp: m.fp,
    tn: m.tn,
    fn: m.fn,
    precision: m.precision,
    precisionLower: m.precisionInterval?.lower ?? null,
    precisionUpper: m.precisionInterval?.upper ?? null,
    recall: m.recall,
    recallLower: m.recallInterval?.lower ?? null,
    recallUpper: m.recallInterval?.upper ?? null,
    specificity: m.specificity,
    npv: m.npv,
    f1: m.f1,
    mcc: m.mcc,
  };
}
