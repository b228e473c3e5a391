/**
 * Maintenance operations: starting a job validates what it will need (a registered tenant, an active
 * profile whose blocking keys are in the configuration file) and queues it; the answer comes at once and a
 * worker does the work. External import is a later issue: a reconciliation naming an external source is
 * refused with a validation error rather than queued to do less than was asked.
 */
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { EngineError, validationError } from '../contract/errors.ts';
import { keyRingFor } from '../blocking/key-ring.ts';
import { activeProfile } from '../store/profiles.ts';
import { requireTenant } from '../store/tenants.ts';
import { jobRow, jobState, listJobRows } from '../jobs/job-store.ts';
import { cancelJob as cancel, enqueueJob } from '../jobs/lifecycle.ts';
import type { EngineEnv } from '../env.ts';

function checkStartable(env: EngineEnv, ctx: CallContext): void {
  requireTenant(env.store, ctx.tenantId);
  const profile = activeProfile(env.store, ctx.tenantId);
  // Fails now, with the key version named, rather than later in the worker.
  keyRingFor(profile.profile.Blocking, env.settings(), ctx.tenantId);
}

export function startReindex(env: EngineEnv, input: OperationInput<'maintenance/reindex'>, ctx: CallContext): OperationOutput<'maintenance/reindex'> {
  checkStartable(env, ctx);
  const { jobId } = enqueueJob(env.store, ctx.tenantId, { kind: 'reindex', reason: input.reason, batchSize: input.batchSize, requestedBy: ctx.actor });
  return { jobId, status: 'queued' };
}

export function startReconciliation(
  env: EngineEnv,
  input: OperationInput<'maintenance/reconcile'>,
  ctx: CallContext,
): OperationOutput<'maintenance/reconcile'> {
  checkStartable(env, ctx);
  if (input.externalSourceSystem !== undefined) {
    const known = activeProfile(env.store, ctx.tenantId).profile.SourceTrust.some((s) => s.SourceSystem === input.externalSourceSystem);
    if (!known) {
      throw validationError('invalid input for maintenance/reconcile', [
        { path: 'externalSourceSystem', message: "the source system is not in the tenant's SourceTrust configuration" },
      ]);
    }
    throw validationError('invalid input for maintenance/reconcile', [
      { path: 'externalSourceSystem', message: 'importing from an external FHIR source is not yet supported; omit externalSourceSystem for a registry-only reconciliation' },
    ]);
  }
  if (input.changedSince !== undefined) {
    throw validationError('invalid input for maintenance/reconcile', [
      { path: 'changedSince', message: 'changedSince bounds an external import window; it needs externalSourceSystem, which is not yet supported' },
    ]);
  }
  const { jobId } = enqueueJob(env.store, ctx.tenantId, {
    kind: 'reconciliation',
    reason: input.reason,
    batchSize: input.batchSize,
    requestedBy: ctx.actor,
  });
  return { jobId, status: 'queued' };
}

export function getJob(env: EngineEnv, input: OperationInput<'jobs/get'>, ctx: CallContext): OperationOutput<'jobs/get'> {
  requireTenant(env.store, ctx.tenantId);
  return env.store.read(() => {
    const row = jobRow(env.store, ctx.tenantId, input.jobId);
    if (row === undefined) throw new EngineError('not_found', 'no job with this ID exists in this tenant', [{ path: 'jobId', message: 'not found' }]);
    return jobState(env.store, ctx.tenantId, row);
  });
}

export function cancelJob(env: EngineEnv, input: OperationInput<'jobs/cancel'>, ctx: CallContext): OperationOutput<'jobs/cancel'> {
  requireTenant(env.store, ctx.tenantId);
  return cancel(env.store, ctx.tenantId, input.jobId, ctx.actor);
}

/** One page of the history, newest first; one row more than asked tells whether an older page exists. */
export function listJobs(env: EngineEnv, input: OperationInput<'jobs/list'>, ctx: CallContext): OperationOutput<'jobs/list'> {
  requireTenant(env.store, ctx.tenantId);
  const limit = input.limit ?? 50;
  return env.store.read(() => {
    if (input.before !== undefined && jobRow(env.store, ctx.tenantId, input.before) === undefined) {
      // Another tenant's job reads exactly like an unknown one.
      throw validationError('invalid input for jobs/list', [{ path: 'before', message: 'no job with this ID exists in this tenant; pass the nextCursor of an earlier page' }]);
    }
    const rows = listJobRows(env.store, ctx.tenantId, limit + 1, input.before);
    const page = rows.slice(0, limit);
    return {
      rows: page.map((row) => jobState(env.store, ctx.tenantId, row)),
      nextCursor: rows.length > limit ? (page.at(-1)?.jobId ?? null) : null,
    };
  });
}
