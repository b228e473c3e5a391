/**
 * The impact of a candidate matching profile on the registry, before it is applied: a dry run (a tracked run that
 * writes nothing) scoring the registry's current links and its blocking-candidate pairs under the active profile
 * and under the candidate. Browser-safe: zod only.
 */
import { z } from 'zod';
import { DecisionSchema } from './matching.ts';

export const ImpactPreviewInputSchema = z.strictObject({
  /** The candidate: a whole profile, some of its sections, or a calibrated model (as profile/apply takes). */
  document: z.unknown(),
  /** Examples kept per kind of change. */
  maxExamples: z.number().int().min(0).max(200).default(20),
});

const RefSchema = z.object({ sourceSystem: z.string(), localId: z.string() });

export const IMPACT_KINDS = ['link-below-certain', 'new-certain', 'new-review', 'leaves-review'] as const;
export const ImpactKindSchema = z.enum(IMPACT_KINDS);
export type ImpactKind = z.infer<typeof ImpactKindSchema>;

export const IMPACT_TEXT: Record<ImpactKind, string> = {
  'link-below-certain':
    'records linked today whose best score inside their identity would fall below Certain (a link the candidate would not make)',
  'new-certain': 'pairs of two identities the candidate would score Certain that the active profile does not',
  'new-review':
    'pairs of two identities the candidate would put in the review band that the active profile scores below it',
  'leaves-review': 'pairs of two identities in the review band today that the candidate scores below Probable',
};

export const ImpactExampleSchema = z.object({
  kind: ImpactKindSchema,
  left: RefSchema,
  right: RefSchema,
  scoreNow: z.number(),
  scoreCandidate: z.number(),
  decisionNow: DecisionSchema,
  decisionCandidate: DecisionSchema,
});

export const ImpactPreviewSchema = z.object({
  activeVersion: z.number().int(),
  thresholds: z.object({
    active: z.object({ probable: z.number(), certain: z.number() }),
    candidate: z.object({ probable: z.number(), certain: z.number() }),
  }),
  identitiesWithSeveralRecords: z.number().int(),
  linkedRecordsCompared: z.number().int(),
  identitiesCompared: z.number().int(),
  candidatePairsCompared: z.number().int(),
  changes: z.record(ImpactKindSchema, z.number().int()),
  /** Changes by the source systems of the records involved (a pair counts once for each of its two sources). */
  bySource: z.record(z.string(), z.record(ImpactKindSchema, z.number().int())),
  /** Changes by the band of the candidate's score (contract/score-bands.ts: one count per band). */
  byScoreBand: z.record(ImpactKindSchema, z.array(z.number().int())),
  /** Pairs of two identities the candidate scores at or above Probable: the cases a reconciliation would open, less those already open. */
  reviewCasesReconciliationWouldOpen: z.number().int(),
  examples: z.array(ImpactExampleSchema),
  /** Set when the candidate's blocking differs from the active one: the candidates are those of the stored index. */
  blockingNote: z.string().nullable(),
});
export type ImpactPreview = z.infer<typeof ImpactPreviewSchema>;

export const impactPreviewOperations = {
  'profile/preview': { input: ImpactPreviewInputSchema, output: ImpactPreviewSchema },
} as const;
