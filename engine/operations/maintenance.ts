/**
 * Maintenance operations: starting a job validates what it will need (a registered tenant, an active
 * profile whose blocking keys are in the configuration file and, for an import, a configured FHIR source
 * whose secret can be read) and queues it; the answer comes at once and a worker does the work.
 */
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { EngineError, validationError } from '../contract/errors.ts';
import { keyRingFor } from '../config/key-ring.ts';
import { activeProfile } from '../store/profiles.ts';
import { requireTenant } from '../store/tenants.ts';
import { sourceForImport } from '../fhir-source/resolve.ts';
import { FhirSourceClient } from '../fhir-source/client.ts';
import { jobRow, jobState, listJobRows } from '../jobs/job-store.ts';
import { cancelJob as cancel, enqueueJob } from '../jobs/lifecycle.ts';
import type { EngineEnv } from '../env.ts';

function checkStartable(env: EngineEnv, ctx: CallContext): void {
  requireTenant(env.store, ctx.tenantId);
  const profile = activeProfile(env.store, ctx.tenantId);
  // Fails now, with the key version named, rather than later in the worker.
  keyRingFor(profile.profile.Blocking, env.settings(), ctx.tenantId);
}

export function startReindex(
  env: EngineEnv,
  input: OperationInput<'maintenance/reindex'>,
  ctx: CallContext,
): OperationOutput<'maintenance/reindex'> {
  checkStartable(env, ctx);
  const { jobId } = enqueueJob(env.store, ctx.tenantId, {
    kind: 'reindex',
    reason: input.reason,
    batchSize: input.batchSize,
    requestedBy: ctx.actor,
  });
  return { jobId, status: 'queued' };
}

export function startReconciliation(
  env: EngineEnv,
  input: OperationInput<'maintenance/reconcile'>,
  ctx: CallContext,
): OperationOutput<'maintenance/reconcile'> {
  checkStartable(env, ctx);
  if (input.externalSourceSystem !== undefined) {
    let configured;
    try {
      configured = sourceForImport(
        env.settings(),
        activeProfile(env.store, ctx.tenantId).profile,
        ctx.tenantId,
        input.externalSourceSystem,
      );
      // Reads the secret now, so a missing file or variable is said here rather than by a failed job.
      void new FhirSourceClient(configured.source, {
        allowInsecureHttp: configured.allowInsecureHttp,
        key: configured.key,
      }).close();
    } catch (error) {
      if (error instanceof EngineError && error.kind === 'validation') {
        throw validationError(
          'invalid input for maintenance/reconcile',
          error.issues.length > 0 ? error.issues : [{ path: 'externalSourceSystem', message: error.message }],
        );
      }
      throw error;
    }
  }
  if (input.changedSince !== undefined && input.externalSourceSystem === undefined) {
    throw validationError('invalid input for maintenance/reconcile', [
      { path: 'changedSince', message: 'changedSince bounds an external import window; it needs externalSourceSystem' },
    ]);
  }
  const { jobId } = enqueueJob(env.store, ctx.tenantId, {
    kind: 'reconciliation',
    reason: input.reason,
    batchSize: input.batchSize,
    requestedBy: ctx.actor,
    ...(input.externalSourceSystem === undefined ? {} : { externalSourceSystem: input.externalSourceSystem }),
    ...(input.changedSince === undefined ? {} : { changedSince: input.changedSince }),
  });
  return { jobId, status: 'queued' };
}

export function getJob(
  env: EngineEnv,
  input: OperationInput<'jobs/get'>,
  ctx: CallContext,
): OperationOutput<'jobs/get'> {
  return env.store.read(() => {
    const row = jobRow(env.store, ctx.tenantId, input.jobId);
    // The job row references its tenant, so the tenant is looked up only when no job is found: the most
    // polled read of the API costs one query fewer, and an unknown tenant still gets its own message.
    if (row === undefined) {
      requireTenant(env.store, ctx.tenantId);
      throw new EngineError('not_found', 'no job with this ID exists in this tenant', [
        { path: 'jobId', message: 'not found' },
      ]);
    }
    return jobState(env.store, ctx.tenantId, row);
  });
}

export function cancelJob(
  env: EngineEnv,
  input: OperationInput<'jobs/cancel'>,
  ctx: CallContext,
): OperationOutput<'jobs/cancel'> {
  requireTenant(env.store, ctx.tenantId);
  return cancel(env.store, ctx.tenantId, input.jobId, ctx.actor);
}

/** One page of the history, newest first; one row more than asked tells whether an older page exists. */
export function listJobs(
  env: EngineEnv,
  input: OperationInput<'jobs/list'>,
  ctx: CallContext,
): OperationOutput<'jobs/list'> {
  requireTenant(env.store, ctx.tenantId);
  const limit = input.limit ?? 50;
  return env.store.read(() => {
    if (input.before !== undefined && jobRow(env.store, ctx.tenantId, input.before) === undefined) {
      // Another tenant's job reads exactly like an unknown one.
      throw validationError('invalid input for jobs/list', [
        {
          path: 'before',
          message: 'no job with this ID exists in this tenant; pass the nextCursor of an earlier page',
        },
      ]);
    }
    const rows = listJobRows(env.store, ctx.tenantId, limit + 1, input.before);
    const page = rows.slice(0, limit);
    return {
      rows: page.map((row) => jobState(env.store, ctx.tenantId, row)),
      nextCursor: rows.length > limit ? (page.at(-1)?.jobId ?? null) : null,
    };
  });
}
