/**
 * Drift of a source's latest sample against its baseline: the samples of the same source before it under the same
 * profile version, or, at a version's first sample, those under the version before (so a new model's effect on the
 * rates is itself flagged, and later samples are compared afresh within the new version).
 *
 * - Shares (review cases and auto-links per record created, each field's completeness): a two-proportion z-test of
 *   latest against the pooled baseline, flagged when |z| ≥ 3.29 (two-sided α = 0.001, few false alarms over many
 *   metrics and days) and the share moved by at least 0.05 in absolute terms or half of itself (a stated tolerance, so
 *   huge batches do not flag trivia).
 * - What matching met depends on the registry as it was, which grows: blocks of the broad rules grow with it. So
 *   these are compared with the baseline's last ingest only (the registry most like today's), not pooled: the
 *   shares of compared pairs scored 0.5 or above and of records whose candidates hit the cap by the share rule,
 *   and each blocking rule's candidates per record, flagged when they explode: at least three times the earlier
 *   rate (which found some) and two or more candidates per record more, with 50 records or more on both sides
 *   (candidates are not independent trials, so a ratio with a stated tolerance instead of a test; a rule that finds
 *   fewer is not flagged itself: the field it reads, whose completeness fell, is).
 * - Identities of 5 records or more, on jobs and daily samples (snapshots of the whole registry): against the
 *   snapshot before, by the share rule.
 * - A failed job is flagged.
 */
import { decimalText, percentText } from '../contract/count-text.ts';
import { fieldWords } from '../contract/field-title.ts';
import { HEALTH_FIELDS, type DriftFlag, type HealthSample } from '../contract/health.ts';

const Z_LIMIT = 3.29;
const MIN_ABSOLUTE = 0.05;
const MIN_RELATIVE = 0.5;
const RATE_RATIO = 3;
const MIN_RATE_CHANGE = 2;
const MIN_RECORDS = 50;
/** Score bands at or above 0.5 (contract/health.ts SCORE_BAND_EDGES: 0.5 is the fourth edge). */
const HIGH_BANDS_FROM = 4;

interface Share {
  readonly metric: string;
  readonly hits: (s: HealthSample) => number;
  readonly trials: (s: HealthSample) => number;
  readonly words: string;
  /** What the analyst should do when the share rose (true) or fell (false). */
  readonly advice: (rose: boolean) => string;
  /** The share in words: a percentage unless said otherwise. */
  readonly format?: (share: number) => string;
}

const sum = (values: readonly number[] | undefined, from = 0): number =>
  (values ?? []).slice(from).reduce((a, b) => a + b, 0);

/** The source's own data: judged against the pooled baseline. */
const SHARES: readonly Share[] = [
  {
    metric: 'review-rate',
    hits: (s) => s.reviewCases,
    trials: (s) => s.created,
    words: 'review cases per 1,000 records created',
    format: (share) => decimalText(1000 * share, 1),
    advice: (rose) =>
      rose
        ? 'Open the cases this ingest opened (Review cases, Ingested from this source): when they share a cause (a field missing or written differently), ask the source to correct its extract before its next ingest.'
        : 'Fewer cases can mean the source now sends a field that settles matches, or that records are linked more readily: check the auto-link rate beside it and audit a sample (Match assurance, Registry audit).',
  },
  {
    metric: 'auto-link-rate',
    hits: (s) => s.autoLinked,
    trials: (s) => s.created,
    words: 'records auto-linked per record created',
    advice: (rose) =>
      rose
        ? 'More records joined existing identities: the source may have re-sent patients the registry holds, or a shared value (a placeholder date or phone) may be linking people; audit a sample of the links (Match assurance, Registry audit).'
        : 'Fewer records joined existing identities: look for a field the source stopped sending or writes differently (the share of records carrying each field), and ask the source to correct its extract.',
  },
  ...HEALTH_FIELDS.map((field) => ({
    metric: `completeness:${field}`,
    hits: (s: HealthSample) => s.fieldPresent[field] ?? 0,
    trials: (s: HealthSample) => s.created,
    words: `share of records with ${fieldWords(field)} filled in`,
    advice: (rose: boolean) =>
      rose
        ? `The source now sends ${fieldWords(field)} on more records: check that the values are real, not a placeholder, before they weigh in matching.`
        : `The source sends ${fieldWords(field)} on fewer records: ask it whether its extract or mapping changed; matching leans on the other fields meanwhile.`,
  })),
];

/** What matching met: judged against the baseline's last ingest. */
const MATCHING_SHARES: readonly Share[] = [
  {
    metric: 'high-scores',
    hits: (s) => sum(s.matching?.scoreBands, HIGH_BANDS_FROM),
    trials: (s) => s.matching?.comparedPairs ?? 0,
    words: 'share of compared pairs scored 0.5 or above',
    advice: (rose) =>
      rose
        ? 'The records this source sent resemble the registry more: a re-sent batch, or a value many records share (a placeholder); check Candidates per record by blocking rule and audit a sample of the links.'
        : 'The records this source sent resemble the registry less: a format change (dates, names in other fields) is the usual cause; compare one of its records with the registry in Match assurance (Workbench).',
  },
  {
    metric: 'capped',
    hits: (s) => s.matching?.capped ?? 0,
    trials: (s) => (s.matching === null ? 0 : s.created),
    words: 'share of records whose candidates hit the cap',
    advice: (rose) =>
      rose
        ? 'A blocking key value has become too common to tell people apart (a default date, an unknown phone): check Candidates per record by blocking rule for the rule that grew, and ask the source to leave unknown values empty.'
        : 'Fewer records meet the cap: nothing to do unless the auto-link or review rate moved with it.',
  },
];

const LARGE_IDENTITIES: Share = {
  metric: 'large-identities',
  hits: (s) => sum(s.identitySizes ?? [], 4),
  trials: (s) => sum(s.identitySizes ?? []),
  words: 'share of identities with 5 or more records',
  advice: (rose) =>
    rose
      ? 'More identities hold 5 or more records, a sign of wrong links: scan link quality (Review cases, Scan identities) and open the flagged identities.'
      : 'Fewer large identities: nothing to do.',
};

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

function shareFlag(
  share: Share,
  baseline: readonly HealthSample[],
  latest: HealthSample,
  who: string | null,
): DriftFlag | undefined {
  const x1 = baseline.reduce((total, s) => total + share.hits(s), 0);
  const n1 = baseline.reduce((total, s) => total + share.trials(s), 0);
  const x2 = share.hits(latest);
  const n2 = share.trials(latest);
  const z = zTest(x1, n1, x2, n2);
  if (z === null) return undefined;
  const before = x1 / n1;
  const now = x2 / n2;
  const moved = Math.abs(now - before);
  if (Math.abs(z) < Z_LIMIT || (moved < MIN_ABSOLUTE && moved < MIN_RELATIVE * before)) return undefined;
  return {
    metric: share.metric,
    sourceSystem: who,
    baseline: before,
    latest: now,
    z,
    text: `${who ?? 'registry'}: the ${share.words} ${now > before ? 'rose' : 'fell'} from ${(share.format ?? percentText)(before)} to ${(share.format ?? percentText)(now)} (z ${z.toFixed(1)})`,
    advice: share.advice(now > before),
  };
}

function candidateFlags(previous: HealthSample, latest: HealthSample, who: string | null): DriftFlag[] {
  if (
    latest.matching === null ||
    previous.matching === null ||
    latest.created < MIN_RECORDS ||
    previous.created < MIN_RECORDS
  )
    return [];
  const flags: DriftFlag[] = [];
  for (const [rule, figures] of Object.entries(latest.matching.rules)) {
    const before = (previous.matching.rules[rule]?.candidates ?? 0) / previous.created;
    const now = figures.candidates / latest.created;
    if (before === 0) continue;
    const ratio = now / before;
    if (now - before < MIN_RATE_CHANGE || ratio < RATE_RATIO) continue;
    flags.push({
      metric: `candidates:${rule}`,
      sourceSystem: who,
      baseline: before,
      latest: now,
      z: null,
      text: `${who ?? 'registry'}: blocking rule ${rule} found ${now.toFixed(1)} candidates per record, against ${before.toFixed(1)} on the ingest before (×${ratio.toFixed(1)})`,
      advice: `A value that blocking rule ${rule} keys on has become common in this source's records (often a placeholder such as a default date or phone): find it with the source and ask for unknown values to be left empty; until then each record meets many more candidates.`,
    });
  }
  return flags;
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
      const flag = shareFlag(share, baseline, latest, source);
      if (flag !== undefined) flags.push(flag);
    }
    const previous = baseline.at(-1);
    if (previous === undefined) continue;
    for (const share of MATCHING_SHARES) {
      const flag = shareFlag(share, [previous], latest, source);
      if (flag !== undefined) flags.push(flag);
    }
    flags.push(...candidateFlags(previous, latest, source));
  }
  const snapshots = samples.filter((s) => s.identitySizes !== null);
  const [before, latest] = snapshots.slice(-2);
  if (before !== undefined && latest !== undefined) {
    const flag = shareFlag(LARGE_IDENTITIES, [before], latest, null);
    if (flag !== undefined) flags.push(flag);
  }
  const lastJob = samples.filter((s) => s.origin === 'job').at(-1);
  if (lastJob?.jobStatus === 'failed') {
    flags.push({
      metric: 'job-failed',
      sourceSystem: null,
      baseline: 0,
      latest: 1,
      z: null,
      text: `the last ${lastJob.jobKind ?? ''} job failed (${lastJob.jobId ?? ''})`,
      advice:
        'Open the job on the Maintenance page (or `mpi-console job show ID`) to read why it failed, then start it again.',
    });
  }
  return flags;
}
