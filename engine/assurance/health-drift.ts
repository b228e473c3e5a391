/**
 * Drift of a source's latest sample against its baseline: the samples of the same source before it under the same
 * profile version, or, at a version's first sample, those under the version before (so a new model's effect on the
 * rates is itself flagged, and later samples are compared afresh within the new version). For each share (review
 * cases per created record, auto-links per created record, and each field's completeness), a two-proportion z-test of
 * latest against the pooled baseline: flagged when |z| ≥ 3.29 (two-sided α = 0.001, few false alarms over many
 * metrics and days) and the share moved by at least 0.05 in absolute terms or half of itself (a stated tolerance, so
 * huge batches do not flag trivia). A failed job is flagged.
 */
import { HEALTH_FIELDS, type DriftFlag, type HealthSample } from '../contract/health.ts';

const Z_LIMIT = 3.29;
const MIN_ABSOLUTE = 0.05;
const MIN_RELATIVE = 0.5;

export const DRIFT_RULE =
  'A source’s latest ingest is compared with its earlier ingests under the same profile version (or, at a version’s first ingest, with those under the version before): ' +
  'a share (review cases or auto-links per record created, each field’s completeness) is flagged when a two-proportion z-test gives |z| ≥ 3.29 ' +
  '(two-sided 0.001) and it moved by at least 0.05 or by half of itself. A failed job is always flagged.';

interface Share {
  readonly metric: string;
  readonly hits: (s: HealthSample) => number;
  readonly trials: (s: HealthSample) => number;
  readonly words: string;
}

const SHARES: readonly Share[] = [
  { metric: 'review-rate', hits: (s) => s.reviewCases, trials: (s) => s.created, words: 'review cases per record created' },
  { metric: 'auto-link-rate', hits: (s) => s.autoLinked, trials: (s) => s.created, words: 'records auto-linked per record created' },
  ...HEALTH_FIELDS.map((field) => ({
    metric: `completeness:${field}`,
    hits: (s: HealthSample) => s.fieldPresent[field] ?? 0,
    trials: (s: HealthSample) => s.created,
    words: `share of records carrying ${field}`,
  })),
];

function zTest(x1: number, n1: number, x2: number, n2: number): number | null {
  if (n1 === 0 || n2 === 0) return null;
  const pooled = (x1 + x2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  if (se === 0) return 0;
  return (x2 / n2 - x1 / n1) / se;
}

function baselineOf(earlier: readonly HealthSample[], latest: HealthSample): HealthSample[] {
  const same = earlier.filter((s) => s.profileVersion === latest.profileVersion);
  if (same.length > 0) return same;
  const lastVersion = earlier.at(-1)?.profileVersion;
  return earlier.filter((s) => s.profileVersion === lastVersion);
}

export function driftFlags(samples: readonly HealthSample[]): DriftFlag[] {
  const flags: DriftFlag[] = [];
  const ingests = samples.filter((s) => s.origin === 'ingest');
  for (const source of new Set(ingests.map((s) => s.sourceSystem))) {
    const series = ingests.filter((s) => s.sourceSystem === source);
    const latest = series.at(-1);
    if (latest === undefined) continue;
    const baseline = baselineOf(series.slice(0, -1), latest);
    if (baseline.length === 0) continue;
    for (const share of SHARES) {
      const x1 = baseline.reduce((sum, s) => sum + share.hits(s), 0);
      const n1 = baseline.reduce((sum, s) => sum + share.trials(s), 0);
      const x2 = share.hits(latest);
      const n2 = share.trials(latest);
      const z = zTest(x1, n1, x2, n2);
      if (z === null) continue;
      const before = x1 / n1;
      const now = x2 / n2;
      const moved = Math.abs(now - before);
      if (Math.abs(z) < Z_LIMIT || (moved < MIN_ABSOLUTE && moved < MIN_RELATIVE * before)) continue;
      flags.push({
        metric: share.metric,
        sourceSystem: source,
        baseline: before,
        latest: now,
        z,
        text: `${source ?? 'ingest'}: the ${share.words} ${now > before ? 'rose' : 'fell'} from ${before.toFixed(3)} to ${now.toFixed(3)} (z ${z.toFixed(1)})`,
      });
    }
  }
  const lastJob = samples.filter((s) => s.origin === 'job').at(-1);
  if (lastJob?.jobStatus === 'failed') {
    flags.push({ metric: 'job-failed', sourceSystem: null, baseline: 0, latest: 1, z: null, text: `the last ${lastJob.jobKind ?? ''} job failed (${lastJob.jobId ?? ''})` });
  }
  return flags;
}
