/**
 * Health over time: figures recorded with every ingest and every finished maintenance job (records in, auto-link
 * rate, review cases per 1,000 records, field completeness, what matching met, identity sizes, duration, failures),
 * and daily for a quiet registry, with the profile version in force,
 * and the drift flags raised on the latest sample against its baseline. Counts and shares only. Browser-safe.
 */
import { z } from 'zod';
import type { ScoreLimit } from './matching.ts';
import type { ReviewKind } from './reviews.ts';
import { holdName } from './score-explanation.ts';
import { countText } from './count-text.ts';

export const HEALTH_FIELDS = [
  'familyName',
  'givenName',
  'birthDate',
  'sex',
  'addressLine',
  'postalCode',
  'phone',
  'email',
  'identifiers',
] as const;
export type HealthField = (typeof HEALTH_FIELDS)[number];

/**
 * What held a review case, as health samples count them: a score limit's name (contract/matching.ts ScoreLimit), `none`
 * for a pair that scored between Probable and Certain with no rule holding it, `link-quality` for an identity whose
 * own records may be two people (a LinkQuality case). In the order the Health page stacks them.
 */
export const REVIEW_HOLD_KEYS = [
  'none',
  'NamesOnly',
  'PossibleTwin',
  'NoNameEvidence',
  'BirthDateConflict',
  'MiddleNameConflict',
  'SharedIdentifier',
  'BareRecord',
  'IdentitiesApart',
  'link-quality',
] as const;
export type ReviewHoldKey = (typeof REVIEW_HOLD_KEYS)[number];

/** Identities counted by their records: 1, 2, 3, 4, 5–9, 10 or more. */
export const IDENTITY_SIZE_BINS = ['1', '2', '3', '4', '5–9', '10+'] as const;

/** What matching met during an ingest. */
export const MatchingFiguresSchema = z.object({
  /** Candidate identities scored (each against the record's best-scoring record of it). */
  comparedPairs: z.number().int(),
  /** Compared pairs per score band (contract/score-bands.ts: one more band than edges). */
  scoreBands: z.array(z.number().int()),
  /** Records whose candidates were more than the cap, so the rarest-sharing ones were kept. */
  capped: z.number().int(),
  /** Per blocking rule: candidate identities its blocks held, and blocks skipped as too common. */
  rules: z.record(z.string(), z.object({ candidates: z.number().int(), overCap: z.number().int() })),
});
export type MatchingFigures = z.infer<typeof MatchingFiguresSchema>;

export const HealthSampleSchema = z.object({
  at: z.string(),
  /** ingest: one ingest call; job: a finished maintenance job; daily: the registry once a day (a quiet registry). */
  origin: z.enum(['ingest', 'job', 'daily']),
  sourceSystem: z.string().nullable(),
  jobId: z.string().nullable(),
  jobKind: z.string().nullable(),
  jobStatus: z.string().nullable(),
  profileVersion: z.number().int().nullable(),
  records: z.number().int(),
  created: z.number().int(),
  autoLinked: z.number().int(),
  reviewCases: z.number().int(),
  rejected: z.number().int(),
  /** For each matching field, how many of the records written carried it. */
  fieldPresent: z.record(z.string(), z.number().int()),
  durationMs: z.number().int(),
  /** Ingests: what matching met (null on samples that do not compare). */
  matching: MatchingFiguresSchema.nullable(),
  /** Jobs and daily samples: identities per IDENTITY_SIZE_BINS (null on ingests). */
  identitySizes: z.array(z.number().int()).nullable(),
  /**
   * Ingests and jobs: the review cases opened, by what held them (REVIEW_HOLD_KEYS: a rule's name, `none` for a pair
   * no rule held, `link-quality` for an identity's doubt); only keys with cases. Null on daily samples; absent from
   * samples recorded before it was kept and from older registries' answers.
   */
  reviewHolds: z.record(z.string(), z.number().int()).nullable().optional(),
});
export type HealthSample = z.infer<typeof HealthSampleSchema>;

export const DriftFlagSchema = z.object({
  /**
   * What moved: `review-rate`, `auto-link-rate`, `completeness:<field>`, `high-scores` (compared pairs at 0.5 or
   * above), `capped`, `candidates:<rule>`, `large-identities` (identities of 5 records or more), `job-failed`.
   */
  metric: z.string(),
  sourceSystem: z.string().nullable(),
  baseline: z.number(),
  latest: z.number(),
  /** Two-proportion z statistic of latest against baseline (null for a failed job and a candidate-rate ratio). */
  z: z.number().nullable(),
  text: z.string(),
  /** What the analyst should do about it, in words (absent from older registries' answers). */
  advice: z.string().optional(),
});
export type DriftFlag = z.infer<typeof DriftFlagSchema>;

export const HealthInputSchema = z.strictObject({
  sourceSystem: z.string().min(1).max(100).optional(),
  limit: z.number().int().min(1).max(10_000).default(500),
});

export const HealthOutputSchema = z.object({
  samples: z.array(HealthSampleSchema),
  flags: z.array(DriftFlagSchema),
  /** How a shift is judged, in words for the page and the CLI. */
  rule: z.string(),
});

export const healthOperations = {
  'health/series': { input: HealthInputSchema, output: HealthOutputSchema },
} as const;

/** The key a review case is counted under (REVIEW_HOLD_KEYS). */
export function reviewHoldKey(kind: ReviewKind, limitedBy: ScoreLimit | null): ReviewHoldKey {
  if (kind === 'LinkQuality') return 'link-quality';
  return limitedBy ?? 'none';
}

/** A hold's name in a sentence: 'possible twin', 'no rule' (the score alone), 'link quality' (an identity's doubt). */
export function reviewHoldName(key: ReviewHoldKey): string {
  if (key === 'none') return 'no rule';
  if (key === 'link-quality') return 'link quality';
  return holdName(key);
}

/** Review cases by what held them, most first: 'possible twin 28, no rule 5'; '—' where none or not kept. */
export function reviewHoldsText(holds: Readonly<Record<string, number>> | null | undefined): string {
  const counted = REVIEW_HOLD_KEYS.flatMap((key) => {
    const cases = holds?.[key] ?? 0;
    return cases === 0 ? [] : [{ name: reviewHoldName(key), cases }];
  });
  if (counted.length === 0) return '—';
  return counted
    .sort((a, b) => b.cases - a.cases)
    .map((h) => `${h.name} ${countText(h.cases)}`)
    .join(', ');
}

/** Review cases counted by what held them, as a sample's `reviewHolds` keeps them: keys in REVIEW_HOLD_KEYS order. */
export function countReviewHolds(
  groups: readonly { readonly kind: ReviewKind; readonly limitedBy: ScoreLimit | null; readonly cases: number }[],
): Record<string, number> {
  const byKey = new Map<ReviewHoldKey, number>();
  for (const g of groups) {
    const key = reviewHoldKey(g.kind, g.limitedBy);
    byKey.set(key, (byKey.get(key) ?? 0) + g.cases);
  }
  return Object.fromEntries(REVIEW_HOLD_KEYS.flatMap((key) => (byKey.has(key) ? [[key, byKey.get(key) ?? 0]] : [])));
}

/**
 * When the ingest before a source's latest ended: the cases that source's ingests opened after it are its latest
 * ingest's (a case records its source, not its ingest). Null when the samples hold one ingest of the source or none:
 * then every case of the source is the latest ingest's, or the ones before it are out of the samples' reach.
 */
export function latestIngestOpenedAfter(samples: readonly HealthSample[], sourceSystem: string | null): string | null {
  const ingests = samples.filter((s) => s.origin === 'ingest' && s.sourceSystem === sourceSystem);
  const before = ingests.at(-2);
  if (before === undefined) return null;
  const at = new Date(before.at);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}
