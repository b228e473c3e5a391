/**
 * Registry-wide accuracy from an audit sample: a stratified sample of the registry's decisions (linked record pairs,
 * and non-linked candidate pairs by score band) for a person to label, then precision, recall and F1 of the
 * registry's links with conservative 95% intervals (engine/stats/audit-estimate.ts). Audit labels are kept apart from
 * review-queue decisions, which are biased toward the uncertain band. Browser-safe: zod only.
 */
import { z } from 'zod';
import { RecordRefSchema } from './matching.ts';
import { VersionsSchema } from './assurance.ts';
import { countText } from './count-text.ts';

export const AUDIT_STRATA = ['linked', 'review-band', 'near', 'far'] as const;
export const AuditStratumNameSchema = z.enum(AUDIT_STRATA);
export type AuditStratumName = z.infer<typeof AuditStratumNameSchema>;

export const AUDIT_STRATUM_TEXT: Record<AuditStratumName, string> = {
  linked: 'record pairs the registry links (two records of one identity)',
  'review-band': 'record pairs of two identities blocking makes candidates of each other, scored at or above Probable',
  near: 'record pairs of two identities blocking makes candidates of each other, scored from 0.01 to below Probable',
  far: 'record pairs of two identities blocking makes candidates of each other, scored below 0.01',
};

/**
 * Said beneath the strata of a sample drawn from a seeded sample of the registry's identities (the page and the CLI):
 * the counts are estimates, and of what.
 */
export function auditSampleText(sampled: number, identities: number): string {
  return (
    `Estimated from a seeded sample of ${countText(sampled)} of the ${countText(identities)} identities: each ` +
    `stratum's pairs met in it, scaled up to the whole registry. The pairs to label are drawn among the pairs met, at ` +
    `random within each stratum, so the estimate describes the whole registry.`
  );
}

const StratumSchema = z.object({
  name: AuditStratumNameSchema,
  linked: z.boolean(),
  population: z.number().int().min(0),
});

export const AuditSampleInputSchema = z.strictObject({
  labels: z.number().int().min(40).max(10_000).default(400),
  seed: z.number().int().default(1),
  /**
   * A tenant with a ground truth (a synthetic sandbox, a benchmark load): give each pair it knows its label, to see
   * the audit's figures without labelling by hand or to check them against the truth. Refused where there is none.
   */
  groundTruth: z.boolean().default(false),
});

export const AuditSampleSchema = z.object({
  matchingProfileVersion: z.number().int(),
  strata: z.array(StratumSchema.extend({ sampled: z.number().int() })),
  /** The tenant's active identities (absent from older registries' answers). */
  identities: z.number().int().min(0).optional(),
  /**
   * Present when the registry was walked over a seeded uniform sample of this many of its identities (a registry
   * larger than the audit's bound): every stratum's population is then an estimate, the pairs met scaled up.
   */
  sampledIdentities: z.number().int().min(1).optional(),
  /** The pairs to label, each with its stratum (what the estimate weighs it by). */
  pairs: z.array(
    z.object({
      stratum: AuditStratumNameSchema,
      left: RecordRefSchema,
      right: RecordRefSchema,
      /** Asked with groundTruth: whether the truth holds both records one person's (absent where it knows neither). */
      isMatch: z.boolean().optional(),
    }),
  ),
  /**
   * True when candidate pairs beyond a bound were not enumerated (the far stratum is then a lower bound). The sample
   * now streams every candidate pair of the identities it walks (all, or a seeded sample: sampledIdentities), so
   * this registry answers false; the field stays for the clients that read it.
   */
  candidatePairsCapped: z.boolean(),
});
export type AuditSample = z.infer<typeof AuditSampleSchema>;

export const AuditEstimateInputSchema = z.strictObject({
  strata: z.array(StratumSchema).min(1).max(AUDIT_STRATA.length),
  labels: z
    .array(
      z.object({
        stratum: AuditStratumNameSchema,
        left: RecordRefSchema,
        right: RecordRefSchema,
        isMatch: z.boolean(),
        /**
         * The label is the tenant's ground truth's (a sample drawn with groundTruth), not a person's: the estimate
         * counts them, so a saved audit says how it was labelled.
         */
        fromGroundTruth: z.boolean().optional(),
      }),
    )
    .max(10_000),
});

const BoundedSchema = z.object({
  estimate: z.number().nullable(),
  lower: z.number().nullable(),
  upper: z.number().nullable(),
});

export const AuditEstimateSchema = z.object({
  precision: BoundedSchema,
  recall: BoundedSchema,
  f1: BoundedSchema,
  trueMatches: z.object({ linked: z.number(), notLinked: z.number() }),
  confidence: z.number(),
  labelsToHalveInterval: z.number().int(),
  byStratum: z.array(StratumSchema.extend({ labelled: z.number().int(), matches: z.number().int() })),
  /** How many of the labels came from the ground truth, not a person (absent from older registries' answers). */
  labelsFromGroundTruth: z.number().int().min(0).optional(),
  method: z.string(),
  /** The versions in force when the estimate was made: the registry's links it judges are those they made. */
  versions: VersionsSchema,
});
export type AuditEstimateOutput = z.infer<typeof AuditEstimateSchema>;
export type AuditEstimateRequest = z.output<typeof AuditEstimateInputSchema>;

export const auditOperations = {
  'audit/sample': { input: AuditSampleInputSchema, output: AuditSampleSchema },
  'audit/estimate': { input: AuditEstimateInputSchema, output: AuditEstimateSchema },
} as const;
