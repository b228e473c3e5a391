/**
 * Creating and cancelling jobs, and the audit records of their final transitions. Starting a job only
 * queues it: a worker (`mpi-console worker`, later the API host) does the work asynchronously.
 */
import { emitHealthMetrics } from '../telemetry/health-metrics.ts';
import type { HealthSample } from '../contract/health.ts';
import { randomUUID } from 'node:crypto';
import type { Store } from '../store/store.ts';
import type { JobKind, JobStatus, PhaseName } from '../contract/maintenance.ts';
import { EngineError } from '../contract/errors.ts';
import { identitySizes, jobReviewHolds, recordHealthSample } from '../store/health.ts';
import { writeAudit } from '../store/audit.ts';
import { finishJob, insertJob, markCancelRequested, requireJob, type JobRow } from './job-store.ts';
import type { FinalJobStatus } from './states.ts';
import { recordJobStatus } from '../telemetry/job-metrics.ts';

export interface JobRequest {
  readonly kind: JobKind;
  readonly reason: string;
  readonly batchSize: number;
  readonly requestedBy: string;
  readonly externalSourceSystem?: string;
  readonly changedSince?: string;
  readonly schedule?: { readonly key: string; readonly bucket: number };
  /** Deterministic for scheduled jobs; a fresh random ID otherwise. */
  readonly jobId?: string;
}

export function phasesFor(
  kind: JobKind,
  externalSourceSystem: string | undefined,
): { name: PhaseName; status: 'pending' | 'skipped' }[] {
  if (kind === 'reindex') {
    return [
      { name: 'validation', status: 'pending' },
      { name: 'writing', status: 'pending' },
    ];
  }
  return [
    { name: 'importing', status: externalSourceSystem === undefined ? 'skipped' : 'pending' },
    { name: 'rebuilding', status: 'pending' },
    { name: 'matching', status: 'pending' },
  ];
}

/** Queues a job; created is false when a job with the same ID (the same schedule bucket) already exists. */
export function enqueueJob(
  store: Store,
  tenantId: string,
  request: JobRequest,
  at = new Date().toISOString(),
): { jobId: string; created: boolean } {
  const jobId = request.jobId ?? `job-${randomUUID()}`;
  const created = store.write(() => {
    const inserted = insertJob(
      store,
      tenantId,
      {
        jobId,
        kind: request.kind,
        reason: request.reason,
        requestedBy: request.requestedBy,
        batchSize: request.batchSize,
        externalSourceSystem: request.externalSourceSystem ?? null,
        changedSince: request.changedSince ?? null,
        schedule: request.schedule ?? null,
        phases: phasesFor(request.kind, request.externalSourceSystem),
      },
      at,
    );
    if (inserted) {
      writeAudit(
        store,
        tenantId,
        {
          actor: request.requestedBy,
          action: 'maintenance.job.request',
          subject: `maintenance-job/${jobId}`,
          detail: { kind: request.kind, batchSize: request.batchSize, scheduleKey: request.schedule?.key ?? null },
        },
        at,
      );
    }
    return inserted;
  });
  if (created) recordJobStatus(request.kind, 'queued');
  return { jobId, created };
}

const ACTION_OF: { readonly [S in FinalJobStatus]: string } = {
  completed: 'maintenance.job.complete',
  cancelled: 'maintenance.job.cancel',
  failed: 'maintenance.job.fail',
  stopped: 'maintenance.job.stop',
};

/** Moves the job to a final status with its audit record, in the caller's write transaction. */
export function finishWithAudit(
  store: Store,
  tenantId: string,
  job: JobRow,
  to: FinalJobStatus,
  actor: string,
  error: string | null,
  at: string,
): void {
  finishJob(store, tenantId, job, to, error, at);
  const after = requireJob(store, tenantId, job.jobId);
  const sample: HealthSample = {
    at,
    origin: 'job',
    sourceSystem: job.externalSourceSystem,
    jobId: job.jobId,
    jobKind: job.kind,
    jobStatus: to,
    profileVersion: after.profileVersion,
    records: after.counters.scanned + after.counters.imported,
    created: after.counters.imported,
    autoLinked: 0,
    reviewCases: after.counters.reviewCreated,
    rejected: after.counters.failure,
    fieldPresent: {},
    durationMs: after.startedAt === null ? 0 : Date.parse(at) - Date.parse(after.startedAt),
    matching: null,
    identitySizes: identitySizes(store, tenantId),
    reviewHolds: jobReviewHolds(store, tenantId, job.jobId),
  };
  recordHealthSample(store, tenantId, sample);
  emitHealthMetrics(sample);
  writeAudit(
    store,
    tenantId,
    {
      actor,
      action: ACTION_OF[to],
      subject: `maintenance-job/${job.jobId}`,
      detail: {
        kind: job.kind,
        status: to,
        requestedBy: job.requestedBy,
        matchingProfileVersion: after.profileVersion,
        populationTotal: after.populationTotal,
        ...after.counters,
        error,
      },
    },
    at,
  );
}

export interface CancelOutcome {
  readonly jobId: string;
  readonly status: JobStatus;
  readonly cancelRequested: boolean;
}

/**
 * A queued job is cancelled at once; so is a running one whose lease has expired (no worker holds it). A
 * running job with a live lease is marked and stops at its next batch boundary. Cancelling a cancelled job
 * is acknowledged again; a completed, failed or stopped job cannot be cancelled.
 */
export function cancelJob(
  store: Store,
  tenantId: string,
  jobId: string,
  actor: string,
  now = new Date(),
): CancelOutcome {
  const at = now.toISOString();
  const outcome = store.write((): CancelOutcome & { finished: boolean; kind: JobKind } => {
    const job = requireJob(store, tenantId, jobId);
    switch (job.status) {
      case 'cancelled':
        return { jobId, status: 'cancelled', cancelRequested: true, finished: false, kind: job.kind };
      case 'completed':
      case 'failed':
      case 'stopped':
        throw new EngineError(
          'conflict',
          `job ${jobId} is already ${job.status}; only a queued or running job can be cancelled`,
        );
      case 'queued':
        finishWithAudit(store, tenantId, job, 'cancelled', actor, null, at);
        return { jobId, status: 'cancelled', cancelRequested: true, finished: true, kind: job.kind };
      case 'running':
        if (job.leaseExpiresAt !== null && job.leaseExpiresAt < at) {
          finishWithAudit(store, tenantId, job, 'cancelled', actor, null, at);
          return { jobId, status: 'cancelled', cancelRequested: true, finished: true, kind: job.kind };
        }
        markCancelRequested(store, tenantId, jobId, actor);
        return { jobId, status: 'running', cancelRequested: true, finished: false, kind: job.kind };
    }
  });
  if (outcome.finished) recordJobStatus(outcome.kind, 'cancelled');
  return { jobId: outcome.jobId, status: outcome.status, cancelRequested: outcome.cancelRequested };
}
