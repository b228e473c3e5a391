import { z } from 'zod';
import { SOURCE_SYSTEM_MAX_LENGTH } from './limits.ts';
import { countText } from './count-text.ts';

export const RejectedLineSchema = z.object({
  /** 1-based line number in the NDJSON input (1 for a single resource). */
  line: z.number().int().min(1),
  issues: z.array(z.object({ path: z.string(), message: z.string() })),
});

/**
 * A line that was ingested but has a field the engine ignores for matching (treated as missing): today a birth
 * date that is impossible (2019-02-30), before 1850 or in the future at ingestion time. Issues name the field
 * and why, never the value. The record is accepted: a warning is not a rejection.
 */
export const WarnedLineSchema = z.object({
  line: z.number().int().min(1),
  issues: z.array(z.object({ path: z.string(), message: z.string() })),
});
export type WarnedLine = z.infer<typeof WarnedLineSchema>;

/**
 * Review cases opened per 1,000 records matched. Ingestion matches each new record (`created`); a job matches
 * the records it imports and the identities its matching phase visits. `perThousand` is null when nothing was
 * matched. An ingestion's rate counts the cases its new records opened; `reviewCasesCreated` counts those and the
 * LinkQuality cases of updates that left their record apart from the rest of its identity.
 */
export const ReviewRateSchema = z.object({
  reviewCases: z.number().int(),
  matched: z.number().int(),
  perThousand: z.number().nullable(),
});
export type ReviewRate = z.infer<typeof ReviewRateSchema>;

export function reviewRate(reviewCases: number, matched: number): ReviewRate {
  return { reviewCases, matched, perThousand: matched === 0 ? null : (1000 * reviewCases) / matched };
}

/** The rate in words, the same in the CLI and the console: "2.4 per 1,000 matched (12 cases, 5,000 matched)". */
export function reviewRateText(rate: ReviewRate | undefined): string {
  if (rate === undefined) return '— (not reported)';
  const cases = `${countText(rate.reviewCases)} ${rate.reviewCases === 1 ? 'case' : 'cases'}`;
  if (rate.perThousand === null) return `— (nothing matched; ${cases})`;
  return `${rate.perThousand.toFixed(1)} per 1,000 matched (${cases}, ${countText(rate.matched)} matched)`;
}

export const IngestReportSchema = z.object({
  sourceSystem: z.string(),
  matchingProfileVersion: z.number().int(),
  lines: z.number().int(),
  created: z.number().int(),
  autoLinked: z.number().int(),
  newIdentities: z.number().int(),
  reviewCasesCreated: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  stale: z.number().int(),
  rejected: z.array(RejectedLineSchema),
  /** Added in issue 12 (optional so an older registry's report still parses); the engine always sends them. */
  warnings: z.array(WarnedLineSchema).optional(),
  reviewRate: ReviewRateSchema.optional(),
  /**
   * The review cases opened, by what held them (contract/health.ts REVIEW_HOLD_KEYS), only keys with cases; optional
   * so an older registry's report still parses.
   */
  reviewHolds: z.record(z.string(), z.number().int()).optional(),
});
export type IngestReport = z.infer<typeof IngestReportSchema>;

export const IngestInputSchema = z.strictObject({
  sourceSystem: z.string().min(1).max(SOURCE_SYSTEM_MAX_LENGTH),
  /** FHIR NDJSON: one R4 Patient per line. */
  ndjson: z.string().max(256 * 1024 * 1024),
});
