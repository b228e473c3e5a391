/** The Health page's chart data from health samples: pure, so it is tested without a browser. */
import type { HealthSample } from '../../../engine/contract/health.ts';

export type HealthMetric = 'review-rate' | 'auto-link-rate' | `completeness:${string}`;

/** The metric's value of one ingest sample, or null when nothing was created (no share to show). */
export function metricValue(sample: HealthSample, metric: HealthMetric): number | null {
  if (sample.created === 0) return null;
  if (metric === 'review-rate') return (1000 * sample.reviewCases) / sample.created;
  if (metric === 'auto-link-rate') return (100 * sample.autoLinked) / sample.created;
  const field = metric.slice('completeness:'.length);
  return (100 * (sample.fieldPresent[field] ?? 0)) / sample.created;
}

export interface SeriesPoint {
  readonly index: number;
  readonly at: string;
  readonly [source: string]: number | string | null;
}

/**
 * One point per ingest sample (in time order), a key per source carrying the metric on that source's samples, and
 * the indexes where the profile version changes (the chart marks them).
 */
export function seriesOf(samples: readonly HealthSample[], metric: HealthMetric): { points: SeriesPoint[]; sources: string[]; versionChanges: { index: number; version: number }[] } {
  const ingests = samples.filter((s) => s.origin === 'ingest');
  const sources = [...new Set(ingests.map((s) => s.sourceSystem ?? 'unknown'))].sort();
  const points: SeriesPoint[] = ingests.map((s, index) => ({ index, at: s.at, [s.sourceSystem ?? 'unknown']: metricValue(s, metric) }));
  const versionChanges: { index: number; version: number }[] = [];
  ingests.forEach((s, index) => {
    const before = ingests[index - 1];
    if (before !== undefined && s.profileVersion !== null && s.profileVersion !== before.profileVersion) versionChanges.push({ index, version: s.profileVersion });
  });
  return { points, sources, versionChanges };
}
