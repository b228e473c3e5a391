/**
 * One contract: every operation the CLI, the HTTP API, the remote client and the console can ask for,
 * declared once with its input and output schemas. The local engine implements this map; later shells
 * (HTTP server, remote client, Electron IPC) are typed from it and validate with the same schemas.
 * The tenant and the actor travel in the call context, never in the payload.
 */
import { z } from 'zod';
import { BandSchema, ComparatorNameSchema } from './fields.ts';
import { IngestInputSchema, IngestReportSchema } from './ingest.ts';
import { MatchResultSchema, RecordRefSchema } from './matching.ts';
import { MatchingProfileVersionSchema } from './profile.ts';
import {
  CalibrationOutputSchema,
  CalibrationRequestSchema,
  EvaluationReportSchema,
  EvaluationRequestSchema,
  LabelSampleInputSchema,
  LabelSampleOutputSchema,
  ProfileRollbackInputSchema,
  ProfileSummarySchema,
  ProfileRollbackOutputSchema,
} from './assurance.ts';
import { maintenanceOperations } from './maintenance.ts';
import { CandidatePairsInputSchema, CandidatePairsOutputSchema, DisplayFieldsSchema } from './workbench.ts';
import { EstimateOutputSchema, EstimateRequestSchema } from './estimate.ts';
import { runOperations } from './runs.ts';
import { reviewOperations } from './reviews.ts';
import { linkQualityOperations } from './link-quality.ts';
import { identityHistoryOperations } from './identity-history.ts';
import { impactPreviewOperations } from './impact-preview.ts';
import { auditOperations } from './audit.ts';
import { healthOperations } from './health.ts';

const IssueSchema = z.object({ path: z.string(), message: z.string() });
const Page = {
  limit: z.number().int().min(1).max(1_000_000).default(100_000),
  offset: z.number().int().min(0).default(0),
};

export const SandboxCreateOutputSchema = z.object({
  tenantId: z.string(),
  matchingProfileVersion: z.number().int(),
  syntheticPeople: z.number().int(),
  syntheticRecords: z.number().int(),
  ingest: z.array(IngestReportSchema),
});

export const ExplainOutputSchema = MatchResultSchema.extend({
  left: RecordRefSchema.extend({ enterpriseId: z.string().nullable() }),
  right: RecordRefSchema.extend({ enterpriseId: z.string().nullable() }),
  matchingProfileVersion: z.number().int(),
  comparatorVersion: z.string(),
  /** Names of the blocking rules under which the two records share a key (empty: not candidates of each other). */
  sharedBlockingRules: z.array(z.string()),
  /**
   * Both records' normalised values, only when asked (withValues) by a caller allowed to see them (the registry API
   * grants the operation to mpi.admin only). Never logged, never in an error.
   */
  values: z.object({ left: DisplayFieldsSchema, right: DisplayFieldsSchema }).optional(),
});
export type ExplainOutput = z.infer<typeof ExplainOutputSchema>;

export const operations = {
  'sandbox/create': {
    input: z.strictObject({
      syntheticPeople: z.number().int().min(0).max(1_000_000).default(0),
      seed: z.number().int().default(1),
    }),
    output: SandboxCreateOutputSchema,
  },
  'records/ingest': { input: IngestInputSchema, output: IngestReportSchema },
  'comparators/compare': {
    input: z.strictObject({
      comparator: ComparatorNameSchema,
      left: z.string().max(1000),
      right: z.string().max(1000),
    }),
    output: z.object({
      comparator: ComparatorNameSchema,
      comparatorVersion: z.string(),
      similarity: z.number(),
      band: BandSchema,
      culture: z.string().optional(),
      dictionaryVersion: z.string().optional(),
    }),
  },
  'matching/explain': {
    input: z.strictObject({ left: RecordRefSchema, right: RecordRefSchema, withValues: z.boolean().optional() }),
    output: ExplainOutputSchema,
  },
  'identities/list': {
    input: z.strictObject(Page),
    output: z.object({
      total: z.number().int(),
      rows: z.array(z.object({ sourceSystem: z.string(), localId: z.string(), enterpriseId: z.string() })),
    }),
  },
  'profile/get': { input: z.strictObject({}), output: MatchingProfileVersionSchema },
  'profile/summary': { input: z.strictObject({}), output: ProfileSummarySchema },
  'profile/validate': {
    input: z.strictObject({ document: z.unknown() }),
    output: z.object({ valid: z.boolean(), issues: z.array(IssueSchema) }),
  },
  'profile/apply': {
    input: z.strictObject({ document: z.unknown(), reason: z.string().min(1).max(500) }),
    output: z.object({ matchingProfileVersion: z.number().int(), previousVersion: z.number().int() }),
  },
  'profile/rollback': { input: ProfileRollbackInputSchema, output: ProfileRollbackOutputSchema },
  'matching/evaluate': { input: EvaluationRequestSchema, output: EvaluationReportSchema },
  'matching/calibrate': { input: CalibrationRequestSchema, output: CalibrationOutputSchema },
  'matching/estimate': { input: EstimateRequestSchema, output: EstimateOutputSchema },
  'labels/sample': { input: LabelSampleInputSchema, output: LabelSampleOutputSchema },
  'labels/candidates': { input: CandidatePairsInputSchema, output: CandidatePairsOutputSchema },
  ...maintenanceOperations,
  ...reviewOperations,
  ...linkQualityOperations,
  ...identityHistoryOperations,
  ...impactPreviewOperations,
  ...auditOperations,
  ...healthOperations,
  ...runOperations,
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType; startsJob?: true }>;

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export type OperationInput<K extends OperationName> = z.input<Operations[K]['input']>;
export type OperationOutput<K extends OperationName> = z.output<Operations[K]['output']>;

export interface CallContext {
  readonly tenantId: string;
  /** Who asked: a user name, a client ID, `cli`. Recorded in audit records. */
  readonly actor: string;
}

/** What every backend (local engine, remote client) offers. */
export interface EngineClient {
  call<K extends OperationName>(name: K, input: OperationInput<K>, context: CallContext): Promise<OperationOutput<K>>;
}
