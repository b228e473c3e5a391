import { z } from 'zod';
import { SOURCE_SYSTEM_MAX_LENGTH } from './limits.ts';

export const RejectedLineSchema = z.object({
  /** 1-based line number in the NDJSON input (1 for a single resource). */
  line: z.number().int().min(1),
  issues: z.array(z.object({ path: z.string(), message: z.string() })),
});

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
});
export type IngestReport = z.infer<typeof IngestReportSchema>;

export const IngestInputSchema = z.strictObject({
  sourceSystem: z.string().min(1).max(SOURCE_SYSTEM_MAX_LENGTH),
  /** FHIR NDJSON: one R4 Patient per line. */
  ndjson: z.string().max(256 * 1024 * 1024),
});
