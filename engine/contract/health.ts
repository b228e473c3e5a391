/**
 * Health over time: figures recorded with every ingest and every finished maintenance job (records in, auto-link
 * rate, review cases per 1,000 records, field completeness, duration, failures), with the profile version in force,
 * and the drift flags raised on the latest sample against its baseline. Counts and shares only. Browser-safe.
 */
import { z } from 'zod';

export const HEALTH_FIELDS = ['familyName', 'givenName', 'birthDate', 'sex', 'addressLine', 'postalCode', 'phone', 'email', 'identifiers'] as const;
export type HealthField = (typeof HEALTH_FIELDS)[number];

export const HealthSampleSchema = z.object({
  at: z.string(),
  origin: z.enum(['ingest', 'job']),
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
});
export type HealthSample = z.infer<typeof HealthSampleSchema>;

export const DriftFlagSchema = z.object({
  /** What moved: `review-rate`, `auto-link-rate`, `completeness:<field>`, `job-failed`. */
  metric: z.string(),
  sourceSystem: z.string().nullable(),
  baseline: z.number(),
  latest: z.number(),
  /** Two-proportion z statistic of latest against baseline (null for a failed job). */
  z: z.number().nullable(),
  text: z.string(),
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
