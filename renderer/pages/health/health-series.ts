/** The Health page's chart data from health samples: pure, so it is tested without a browser. */
import {
  IDENTITY_SIZE_BINS,
  REVIEW_HOLD_KEYS,
  reviewHoldName,
  type HealthSample,
  type ReviewHoldKey,
} from '../../../engine/contract/health.ts';
import { scoreBandName } from '../../../engine/contract/score-bands.ts';
import { sentenceStart } from '../../../engine/contract/sentence-start.ts';

export type HealthMetric =
  'review-rate' | 'auto-link-rate' | 'high-scores' | 'capped' | `completeness:${string}` | `candidates:${string}`;

/** Score bands at or above 0.5 (SCORE_BAND_EDGES[3] is 0.5). */
const HIGH_BANDS_FROM = 4;

/** The metric's value of one ingest sample, or null when it has none (nothing created, no matching figures). */
export function metricValue(sample: HealthSample, metric: HealthMetric): number | null {
  if (sample.created === 0) return null;
  if (metric === 'review-rate') return (1000 * sample.reviewCases) / sample.created;
  if (metric === 'auto-link-rate') return (100 * sample.autoLinked) / sample.created;
  if (metric.startsWith('completeness:'))
    return (100 * (sample.fieldPresent[metric.slice('completeness:'.length)] ?? 0)) / sample.created;
  const { matching } = sample;
  if (matching === null) return null;
  if (metric === 'capped') return (100 * matching.capped) / sample.created;
  if (metric === 'high-scores')
    return matching.comparedPairs === 0
      ? null
      : (100 * matching.scoreBands.slice(HIGH_BANDS_FROM).reduce((a, b) => a + b, 0)) / matching.comparedPairs;
  const rule = matching.rules[metric.slice('candidates:'.length)];
  return rule === undefined ? null : rule.candidates / sample.created;
}

/** The blocking rules the ingests name, in name order. */
export function blockingRules(samples: readonly HealthSample[]): string[] {
  return [...new Set(samples.flatMap((s) => (s.matching === null ? [] : Object.keys(s.matching.rules))))].sort();
}

/** The last ingest's compared pairs by score band, beside the ingest before it of the same source (shares in percent). */
export function scoreBandBars(
  samples: readonly HealthSample[],
): { band: string; latest: number; before: number | null }[] {
  const ingests = samples.filter((s) => s.origin === 'ingest' && s.matching !== null && s.matching.comparedPairs > 0);
  const latest = ingests.at(-1);
  if (latest?.matching == null) return [];
  const before = ingests.filter((s) => s !== latest && s.sourceSystem === latest.sourceSystem).at(-1)?.matching ?? null;
  const percent = (count: number | undefined, total: number): number => (100 * (count ?? 0)) / total;
  return latest.matching.scoreBands.map((count, band) => ({
    band: scoreBandName(band),
    latest: percent(count, latest.matching?.comparedPairs ?? 1),
    before: before === null ? null : percent(before.scoreBands[band], before.comparedPairs),
  }));
}

/** The last registry snapshot's identities by size (job or daily sample), in percent of identities. */
export function identitySizeBars(
  samples: readonly HealthSample[],
): { size: string; identities: number; percent: number }[] {
  const sizes = samples.filter((s) => s.identitySizes !== null).at(-1)?.identitySizes ?? null;
  if (sizes === null) return [];
  const total = sizes.reduce((a, b) => a + b, 0);
  return IDENTITY_SIZE_BINS.map((size, i) => ({
    size,
    identities: sizes[i] ?? 0,
    percent: total === 0 ? 0 : (100 * (sizes[i] ?? 0)) / total,
  }));
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
export function seriesOf(
  samples: readonly HealthSample[],
  metric: HealthMetric,
): { points: SeriesPoint[]; sources: string[]; versionChanges: { index: number; version: number }[] } {
  const ingests = samples.filter((s) => s.origin === 'ingest');
  const sources = [...new Set(ingests.map((s) => s.sourceSystem ?? 'unknown'))].sort();
  const points: SeriesPoint[] = ingests.map((s, index) => ({
    index,
    at: s.at,
    [s.sourceSystem ?? 'unknown']: metricValue(s, metric),
  }));
  const versionChanges: { index: number; version: number }[] = [];
  ingests.forEach((s, index) => {
    const before = ingests[index - 1];
    if (before !== undefined && s.profileVersion !== null && s.profileVersion !== before.profileVersion)
      versionChanges.push({ index, version: s.profileVersion });
  });
  return { points, sources, versionChanges };
}

/** What a sample records, in words: 'Ingest from st-marys-hospital', 'reconciliation completed', 'Daily figures'. */
export function sampleWhat(s: HealthSample): string {
  if (s.origin === 'ingest') return `Ingest from ${s.sourceSystem ?? '—'}`;
  if (s.origin === 'daily') return 'Daily figures';
  return `${s.jobKind ?? 'Job'} ${s.jobStatus ?? ''}`.trim();
}

/** A hold's name in a legend: 'Possible twin', 'No rule' (the score alone), 'Link quality' (an identity's doubt). */
export function holdKeyName(key: ReviewHoldKey): string {
  return sentenceStart(reviewHoldName(key));
}

export interface HoldBar {
  /** The bar's number, oldest first (its key on the chart). */
  readonly n: number;
  /** Its axis label: an ingest's number as the charts over ingests count them (from 1, oldest first), or 'job'. */
  readonly tick: string;
  readonly what: string;
  readonly at: string;
  readonly cases: number;
  readonly [key: string]: number | string;
}

/**
 * The review cases each ingest and job opened, by what held them: one bar per sample that opened cases and kept what
 * held them (samples recorded before it was kept have none), the last `limit`, oldest first, and the holds any bar
 * has, in REVIEW_HOLD_KEYS order.
 */
export function holdBars(samples: readonly HealthSample[], limit = 40): { bars: HoldBar[]; holds: ReviewHoldKey[] } {
  let ingests = 0;
  const numbered = samples.map((s) => ({ s, ingest: s.origin === 'ingest' ? ++ingests : null }));
  const opened = numbered
    .filter(({ s }) => s.origin !== 'daily' && s.reviewHolds != null && s.reviewCases > 0)
    .slice(-limit);
  const holds = REVIEW_HOLD_KEYS.filter((key) => opened.some(({ s }) => (s.reviewHolds?.[key] ?? 0) > 0));
  const bars = opened.map(({ s, ingest }, i): HoldBar => ({
    n: i + 1,
    tick: ingest === null ? 'job' : String(ingest),
    what: sampleWhat(s),
    at: s.at,
    cases: s.reviewCases,
    ...Object.fromEntries(holds.map((key) => [key, s.reviewHolds?.[key] ?? 0])),
  }));
  return { bars, holds };
}
