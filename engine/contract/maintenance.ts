/**
 * Maintenance jobs in the contract: the two start requests (answered at once with a queued job; the work
 * is asynchronous), job inspection, cancellation and history. The state machine behind the statuses is
 * drawn in engine/jobs/states.ts.
 */
import { z } from 'zod';
import { ReviewRateSchema } from './ingest.ts';

export const JOB_KINDS = ['reindex', 'reconciliation'] as const;
export const JobKindSchema = z.enum(JOB_KINDS);
export type JobKind = z.infer<typeof JobKindSchema>;

/** `stopped`: the configuration fingerprint changed while the job ran, so it did not continue. */
export const JOB_STATUSES = ['queued', 'running', 'completed', 'cancelled', 'failed', 'stopped'] as const;
export const JobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatusSchema>;

/** Re-index: validation, writing. Reconciliation: importing (skipped without an external source), rebuilding, matching. */
export const PHASE_NAMES = ['validation', 'writing', 'importing', 'rebuilding', 'matching'] as const;
export const PhaseNameSchema = z.enum(PHASE_NAMES);
export type PhaseName = z.infer<typeof PhaseNameSchema>;

export const PHASE_STATUSES = ['pending', 'running', 'completed', 'skipped', 'cancelled', 'failed', 'stopped'] as const;
export const PhaseStatusSchema = z.enum(PHASE_STATUSES);
export type PhaseStatus = z.infer<typeof PhaseStatusSchema>;

export const COUNTER_NAMES = [
  'validated',
  'scanned',
  'imported',
  'updated',
  'unchanged',
  'reviewCreated',
  'warning',
  'failure',
] as const;
export type CounterName = (typeof COUNTER_NAMES)[number];
export const JobCountersSchema = z.object({
  validated: z.number().int(),
  scanned: z.number().int(),
  imported: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  reviewCreated: z.number().int(),
  warning: z.number().int(),
  failure: z.number().int(),
});
export type JobCounters = z.infer<typeof JobCountersSchema>;

export const JobPhaseSchema = z.object({
  name: PhaseNameSchema,
  status: PhaseStatusSchema,
  /** Identities this phase has finished. */
  processed: z.number().int(),
  /** The last identity row this phase finished (0: none); the phase resumes after it. */
  cursor: z.number().int(),
  /** The phase's most important note (what it concluded), or its first; null without one. */
  note: z.string().nullable(),
  /**
   * Every note the phase kept, the important ones (what it concluded) first, then one per item in order, never
   * patient values. Optional: an older registry reports `note` alone.
   */
  notes: z.array(z.string()).optional(),
  /** Notes made beyond the phase's bounds (20 important, 50 others) and not kept. */
  notesNotKept: z.number().int().optional(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type JobPhase = z.infer<typeof JobPhaseSchema>;

export const JobStateSchema = z.object({
  jobId: z.string(),
  kind: JobKindSchema,
  status: JobStatusSchema,
  reason: z.string(),
  requestedBy: z.string(),
  batchSize: z.number().int(),
  externalSourceSystem: z.string().nullable(),
  changedSince: z.string().nullable(),
  scheduleKey: z.string().nullable(),
  /** The matching-profile version the job works under (recorded when it starts). */
  matchingProfileVersion: z.number().int().nullable(),
  /** Active identities when the job started; null until then. A percentage is shown only when this is known. */
  populationTotal: z.number().int().nullable(),
  phases: z.array(JobPhaseSchema),
  counters: JobCountersSchema,
  /**
   * Review cases this job opened per 1,000 records matched: the records it imported (each matched as in
   * ingestion) plus the identities its matching phase visited. Optional so an older registry's jobs still parse.
   */
  reviewRate: ReviewRateSchema.optional(),
  cancelRequested: z.boolean(),
  leaseOwner: z.string().nullable(),
  leaseExpiresAt: z.string().nullable(),
  /** Holds no patient values. */
  error: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type JobState = z.infer<typeof JobStateSchema>;

export const MIN_BATCH_SIZE = 1;
export const MAX_BATCH_SIZE = 25;
const BatchSizeSchema = z.number().int().min(MIN_BATCH_SIZE).max(MAX_BATCH_SIZE);
/** The longest reason a job may be started with (characters, after trimming). */
export const REASON_MAX = 500;
const ReasonSchema = z.string().trim().min(1).max(REASON_MAX);
const JobIdSchema = z.string().regex(/^[A-Za-z0-9-]{8,80}$/, 'a job ID is 8-80 letters, digits or dashes');

export const ReindexInputSchema = z.strictObject({ reason: ReasonSchema, batchSize: BatchSizeSchema });

export const ReconcileInputSchema = z.strictObject({
  reason: ReasonSchema,
  batchSize: BatchSizeSchema,
  /** Must exist in the tenant's SourceTrust and in Maintenance.FhirSources (the FHIR server to import changed Patients from). */
  externalSourceSystem: z.string().min(1).max(100).optional(),
  /** Inclusive lower bound of an incremental import window (with externalSourceSystem only). */
  changedSince: z.iso.datetime({ offset: true }).optional(),
});

export const JobStartedSchema = z.object({ jobId: z.string(), status: z.literal('queued') });

/** `startsJob`: the operation queues a maintenance job and answers with its ID (the console then watches it). */
export const maintenanceOperations = {
  'maintenance/reindex': { input: ReindexInputSchema, output: JobStartedSchema, startsJob: true },
  'maintenance/reconcile': { input: ReconcileInputSchema, output: JobStartedSchema, startsJob: true },
  'jobs/get': { input: z.strictObject({ jobId: JobIdSchema }), output: JobStateSchema },
  'jobs/cancel': {
    input: z.strictObject({ jobId: JobIdSchema }),
    /** status `cancelled` for a job that was queued; `running` with cancelRequested for one that stops at its next batch boundary. */
    output: z.object({ jobId: z.string(), status: JobStatusSchema, cancelRequested: z.boolean() }),
  },
  'jobs/list': {
    /** Newest first; `before` (a page's nextCursor) continues after that job, so new jobs never shift a page. */
    input: z.strictObject({ limit: z.number().int().min(1).max(1000).default(50), before: JobIdSchema.optional() }),
    /** nextCursor: pass it as `before` for the next (older) page; null on the last page. */
    output: z.object({ rows: z.array(JobStateSchema), nextCursor: z.string().nullable() }),
  },
} as const;
