/**
 * Tracked runs: the long assurance operations (an estimate, an evaluation, a calibration, a label sample, the
 * workbench's candidate draw) started, followed and cancelled by ID, so no caller holds a request open while one
 * computes, and none waits blind. Browser-safe: zod only.
 *
 *   queued ──► running ──► completed (output)
 *      │          ├──────► failed (error: the engine error, as data)
 *      └──────────┴──────► cancelled (a cancel, a caller gone, the server stopping)
 *
 * A run belongs to the tenant that started it: another tenant's run ID is "not found". IDs are random (128 bits).
 * The run's output is the operation's own output, kept a while after the run ends (RUN_KEPT_MS) for the caller to
 * read; the synchronous endpoints (evaluation, calibration) are runs waited for by the server.
 */
import { z } from 'zod';

/** The operations that run as tracked runs. */
export const RUN_OPERATIONS = [
  'matching/estimate',
  'matching/evaluate',
  'matching/calibrate',
  'labels/sample',
  'labels/candidates',
  'links/scan',
  'profile/preview',
  'audit/sample',
] as const;
export type RunOperation = (typeof RUN_OPERATIONS)[number];
export const RunOperationSchema = z.enum(RUN_OPERATIONS);

export function isRunOperation(name: string): name is RunOperation {
  return (RUN_OPERATIONS as readonly string[]).includes(name);
}

export const RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;

export function isFinalRunStatus(status: RunStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** The longest a runs/get may wait for its run to end. */
export const MAX_RUN_WAIT_MS = 20_000;

/** How long an ended run stays readable. */
export const RUN_KEPT_MS = 30 * 60 * 1000;

export const RunProgressSchema = z.object({
  /** What the run is doing, in words ("comparing candidate pairs"). */
  phase: z.string(),
  /** Items done in this phase. */
  done: z.number().int().min(0),
  /** Items this phase will do, when known (null: no total, so no percentage). */
  total: z.number().int().min(0).nullable(),
});
export type RunProgress = z.infer<typeof RunProgressSchema>;

const RunErrorSchema = z.object({
  kind: z.enum(['validation', 'not_found', 'conflict', 'forbidden', 'remote_http', 'internal']),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })),
});

export const RunStateSchema = z.object({
  runId: z.string(),
  operation: RunOperationSchema,
  status: RunStatusSchema,
  progress: RunProgressSchema.nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Why the run failed or was cancelled (never patient values). */
  error: RunErrorSchema.nullable(),
  /** The operation's output, once completed (runs/get only; lists leave it out). */
  output: z.unknown().optional(),
});
export type RunState = z.infer<typeof RunStateSchema>;

const RUN_ID = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'a run ID is 16-64 letters, digits, - or _');

export const runOperations = {
  'runs/start': {
    input: z.strictObject({ operation: RunOperationSchema, input: z.unknown() }),
    output: RunStateSchema,
  },
  /**
   * waitMs: answer as soon as the run ends, or after this long with its state then (a long poll: a follower learns
   * of the end at once without asking many times). 0 or absent answers at once.
   */
  'runs/get': {
    input: z.strictObject({ runId: RUN_ID, waitMs: z.number().int().min(0).max(MAX_RUN_WAIT_MS).optional() }),
    output: RunStateSchema,
  },
  'runs/cancel': { input: z.strictObject({ runId: RUN_ID }), output: RunStateSchema },
  'runs/list': { input: z.strictObject({}), output: z.object({ rows: z.array(RunStateSchema) }) },
} as const;
