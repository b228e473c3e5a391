/**
 * Maintenance jobs on PostgreSQL, shared by several replicas (`serve --worker` processes on one database):
 *
 * - **Claims** take the oldest claimable job (queued, or running with an expired lease) with `FOR UPDATE SKIP
 *   LOCKED`, so replicas claiming at once never wait on each other nor take the same job; each claim increments the
 *   job's lease epoch.
 * - **Heartbeats** renew the lease only while the row still names this worker and epoch.
 * - **Every batch commit is fenced**: in the batch's own transaction the job row is locked (`FOR UPDATE`) and must
 *   still name the committing worker and epoch and be running; otherwise the batch's writes roll back and the
 *   worker learns it lost the job. A replica paused past its lease (a long GC, a frozen VM) whose job another took
 *   over can therefore never commit.
 * - **Schedules**: a bucket's job is inserted with `ON CONFLICT DO NOTHING` on (tenant, schedule key, bucket), so
 *   replicas enqueueing the same bucket create one job.
 * - **Cancel** is a column any replica sets; the holder sees it at its next fenced commit.
 *
 * Times are the database's clock (`clock_timestamp()`, not `now()`, which stays at the transaction's start: a batch
 * that ran long would otherwise renew its lease into the past), so replicas with skewed clocks agree on who holds a
 * lease.
 */
import { conflict } from '../../contract/errors.ts';
import type { JobKind } from '../../contract/maintenance.ts';
import type { PgStore, PgTx } from './db.ts';

export interface PgLease {
  readonly tenantId: string;
  readonly jobId: string;
  readonly owner: string;
  readonly epoch: number;
}

export interface NewPgJob {
  readonly jobId: string;
  readonly kind: JobKind;
  readonly reason: string;
  readonly requestedBy: string;
  readonly batchSize: number;
  readonly schedule?: { readonly key: string; readonly bucket: number };
}

/** The worker lost its job: another replica took it over (the lease had expired), or it ended. Nothing was written. */
export class LeaseLost extends Error {
  constructor(readonly jobId: string) {
    super(
      `job ${jobId} is no longer held by this worker (another worker took it over, or it ended); the batch was not committed`,
    );
  }
}

export async function ensureTenant(store: PgStore, tenantId: string): Promise<void> {
  await store.query('INSERT INTO tenant (tenant_id, created_at) VALUES ($1, now()) ON CONFLICT DO NOTHING', [tenantId]);
}

/** Queues a job; for a schedule bucket already queued by any replica, answers that job (created false). */
export async function enqueueJob(
  store: PgStore,
  tenantId: string,
  job: NewPgJob,
): Promise<{ jobId: string; created: boolean }> {
  return store.tenantTransaction(tenantId, async (tx) => {
    const inserted = await tx.query<{ job_id: string }>(
      `INSERT INTO maintenance_job (tenant_id, job_id, kind, status, reason, requested_by, batch_size, schedule_key, schedule_bucket, created_at)
       VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $8, now())
       ON CONFLICT (tenant_id, schedule_key, schedule_bucket) DO NOTHING RETURNING job_id`,
      [
        tenantId,
        job.jobId,
        job.kind,
        job.reason,
        job.requestedBy,
        job.batchSize,
        job.schedule?.key ?? null,
        job.schedule?.bucket ?? null,
      ],
    );
    const created = inserted[0];
    if (created !== undefined) return { jobId: created.job_id, created: true };
    const existing = await tx.query<{ job_id: string }>(
      'SELECT job_id FROM maintenance_job WHERE tenant_id = $1 AND schedule_key = $2 AND schedule_bucket = $3',
      [tenantId, job.schedule?.key ?? null, job.schedule?.bucket ?? null],
    );
    const jobId = existing[0]?.job_id;
    if (jobId === undefined) throw conflict('the job could not be queued; try again');
    return { jobId, created: false };
  });
}

/** Claims the tenant's oldest claimable job for `owner`, skipping rows another replica is claiming right now. */
export async function claimNextJob(
  store: PgStore,
  tenantId: string,
  owner: string,
  leaseMs: number,
): Promise<PgLease | undefined> {
  return store.tenantTransaction(tenantId, async (tx) => {
    const rows = await tx.query<{ job_id: string; lease_epoch: string }>(
      `UPDATE maintenance_job SET status = 'running', lease_owner = $2, lease_expires_at = clock_timestamp() + $3 * interval '1 millisecond',
         lease_epoch = lease_epoch + 1, claims = claims + 1,
         takeovers = CASE WHEN status = 'running' THEN takeovers + 1 ELSE takeovers END, started_at = COALESCE(started_at, now())
       WHERE job_seq = (
         SELECT job_seq FROM maintenance_job
         WHERE tenant_id = $1 AND (status = 'queued' OR (status = 'running' AND lease_expires_at < clock_timestamp()))
         ORDER BY job_seq LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING job_id, lease_epoch`,
      [tenantId, owner, leaseMs],
    );
    const row = rows[0];
    return row === undefined ? undefined : { tenantId, jobId: row.job_id, owner, epoch: Number(row.lease_epoch) };
  });
}

/** Renews the lease while the job still names this worker and epoch; false when it was lost. */
export async function renewLease(store: PgStore, lease: PgLease, leaseMs: number): Promise<boolean> {
  const rows = await store.tenantTransaction(lease.tenantId, (tx) =>
    tx.query(
      `UPDATE maintenance_job SET lease_expires_at = clock_timestamp() + $4 * interval '1 millisecond'
       WHERE tenant_id = $1 AND job_id = $2 AND status = 'running' AND lease_owner = $3 AND lease_epoch = $5 RETURNING job_id`,
      [lease.tenantId, lease.jobId, lease.owner, leaseMs, lease.epoch],
    ),
  );
  return rows.length > 0;
}

/**
 * Commits one batch, fenced: the job row is locked and checked in the batch's own transaction before `work` writes;
 * the batch's counter and a renewed lease are written with it. Throws LeaseLost (nothing written) when the row no
 * longer names this worker and epoch. Answers whether a cancel was requested (the worker stops after this batch).
 */
export async function commitBatch(
  store: PgStore,
  lease: PgLease,
  leaseMs: number,
  scanned: number,
  work: (tx: PgTx) => Promise<void>,
): Promise<{ cancelRequested: boolean }> {
  return store.tenantTransaction(lease.tenantId, async (tx) => {
    const held = await tx.query<{
      lease_owner: string | null;
      lease_epoch: string;
      status: string;
      cancel_requested_by: string | null;
    }>(
      'SELECT lease_owner, lease_epoch, status, cancel_requested_by FROM maintenance_job WHERE tenant_id = $1 AND job_id = $2 FOR UPDATE',
      [lease.tenantId, lease.jobId],
    );
    const row = held[0];
    if (
      row === undefined ||
      row.status !== 'running' ||
      row.lease_owner !== lease.owner ||
      Number(row.lease_epoch) !== lease.epoch
    )
      throw new LeaseLost(lease.jobId);
    await work(tx);
    await tx.query(
      `UPDATE maintenance_job SET scanned = scanned + $3, takeovers = 0, lease_expires_at = clock_timestamp() + $4 * interval '1 millisecond'
       WHERE tenant_id = $1 AND job_id = $2`,
      [lease.tenantId, lease.jobId, scanned, leaseMs],
    );
    return { cancelRequested: row.cancel_requested_by !== null };
  });
}

/** Ends the job the worker holds (fenced like a batch): completed, or cancelled when a cancel was requested. */
export async function finishJob(
  store: PgStore,
  lease: PgLease,
  to: 'completed' | 'cancelled' | 'failed',
  error: string | null = null,
): Promise<void> {
  await store.tenantTransaction(lease.tenantId, async (tx) => {
    const rows = await tx.query(
      `UPDATE maintenance_job SET status = $5, finished_at = now(), lease_owner = NULL, lease_expires_at = NULL, error = $6
       WHERE tenant_id = $1 AND job_id = $2 AND status = 'running' AND lease_owner = $3 AND lease_epoch = $4 RETURNING job_id`,
      [lease.tenantId, lease.jobId, lease.owner, lease.epoch, to, error],
    );
    if (rows.length === 0) throw new LeaseLost(lease.jobId);
  });
}

/** Asks the holder to stop (any replica may): a queued job is cancelled at once. */
export async function requestCancel(
  store: PgStore,
  tenantId: string,
  jobId: string,
  actor: string,
): Promise<'cancelled' | 'requested' | 'ended'> {
  return store.tenantTransaction(tenantId, async (tx) => {
    const queued = await tx.query(
      "UPDATE maintenance_job SET status = 'cancelled', finished_at = now(), cancel_requested_by = $3 WHERE tenant_id = $1 AND job_id = $2 AND status = 'queued' RETURNING job_id",
      [tenantId, jobId, actor],
    );
    if (queued.length > 0) return 'cancelled';
    const running = await tx.query(
      "UPDATE maintenance_job SET cancel_requested_by = $3 WHERE tenant_id = $1 AND job_id = $2 AND status = 'running' RETURNING job_id",
      [tenantId, jobId, actor],
    );
    return running.length > 0 ? 'requested' : 'ended';
  });
}
