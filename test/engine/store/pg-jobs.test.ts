/**
 * Maintenance jobs on a real PostgreSQL (a throwaway cluster, test/helpers/postgres/cluster.ts), shared by several replicas
 * (each its own pool, as separate `serve --worker` processes would be): hashed migrations applied once when replicas
 * start together and refused when edited; row-level security refusing a statement made without a tenant and
 * hiding other tenants' jobs; SKIP LOCKED claims that never hand one job to two replicas; fenced batch commits, so
 * a replica paused past its lease whose job was taken over can never commit; one job per schedule bucket; a cancel
 * made through one replica reaching the one that holds the job.
 */
import { describe, expect, inject, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { PgStore, loadPgMigrations } from '../../../engine/store/pg/db.ts';
import {
  LeaseLost,
  claimNextJob,
  commitBatch,
  enqueueJob,
  ensureTenant,
  finishJob,
  renewLease,
  requestCancel,
  type PgLease,
} from '../../../engine/store/pg/jobs.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';

const WORK_TABLE = `CREATE TABLE batch_work (tenant_id text NOT NULL, job_id text NOT NULL, item bigint NOT NULL, worker text NOT NULL, PRIMARY KEY (tenant_id, job_id, item));
  ALTER TABLE batch_work ENABLE ROW LEVEL SECURITY; ALTER TABLE batch_work FORCE ROW LEVEL SECURITY;
  CREATE POLICY batch_work_tenant ON batch_work USING (tenant_id = mpi_current_tenant()) WITH CHECK (tenant_id = mpi_current_tenant());`;

async function replicas(url: string, count: number): Promise<PgStore[]> {
  return Promise.all(Array.from({ length: count }, () => PgStore.open(url, { maxConnections: 4 })));
}

const job = (reason = 'nightly reconciliation') => ({
  jobId: `job-${randomUUID()}`,
  kind: 'reconciliation' as const,
  reason,
  requestedBy: 'test',
  batchSize: 25,
});

describe('maintenance jobs on PostgreSQL, several replicas', () => {
  it('applies the hashed migrations once when replicas start together, and refuses an edited one', async () => {
    const url = await freshDatabase();
    const stores = await replicas(url, 3);
    const [first] = stores;
    if (first === undefined) throw new Error('no replica');
    const applied = await first.query<{ migration_id: number; sha256: string }>(
      'SELECT migration_id, sha256 FROM schema_migration ORDER BY migration_id',
    );
    expect(applied.map((r) => [r.migration_id, r.sha256])).toEqual(loadPgMigrations().map((m) => [m.id, m.sha256]));
    const edited = loadPgMigrations().map((m) => (m.id === 1 ? { ...m, sha256: 'f'.repeat(64) } : m));
    await expect(PgStore.open(url, { migrations: edited })).rejects.toThrow(
      /differs from the one applied to this database/,
    );
    await Promise.all(stores.map((s) => s.close()));
  });

  it('refuses a statement made without a tenant, and shows a tenant only its own jobs', async () => {
    const store = await PgStore.open(await freshDatabase());
    await ensureTenant(store, 'north');
    await ensureTenant(store, 'south');
    await enqueueJob(store, 'north', job('north only'));
    await enqueueJob(store, 'south', job('south only'));
    // A query that forgot its tenant: refused by the database's own rule, not answered with every tenant's rows.
    await expect(store.query('SELECT reason FROM maintenance_job')).rejects.toMatchObject({
      kind: 'validation',
      message: 'the database refused a statement made without a tenant',
    });
    // Even one that names the tenant in its WHERE clause but did not set it.
    await expect(store.query("SELECT reason FROM maintenance_job WHERE tenant_id = 'north'")).rejects.toMatchObject({
      kind: 'validation',
    });
    expect(
      await store.tenantTransaction('north', (tx) =>
        tx.query<{ reason: string }>('SELECT reason FROM maintenance_job'),
      ),
    ).toEqual([{ reason: 'north only' }]);
    // Writing another tenant's row from a tenant's transaction is refused too.
    await expect(
      store.tenantTransaction('north', (tx) =>
        tx.query(
          "INSERT INTO maintenance_job (tenant_id, job_id, kind, status, reason, requested_by, batch_size, created_at) VALUES ('south', 'job-smuggled', 'reindex', 'queued', 'x', 'y', 1, now())",
        ),
      ),
    ).rejects.toMatchObject({
      kind: 'forbidden',
      message: "the database refused a write to another tenant's rows (row-level security)",
    });
    // And a role that would bypass the rule is refused as the registry's connection.
    await expect(PgStore.open(inject('postgresUrl'))).rejects.toThrow(/^the database role bypasses row-level security/);
    await store.close();
  });

  it('hands each job to exactly one replica when four claim at once (SKIP LOCKED)', async () => {
    const url = await freshDatabase();
    const stores = await replicas(url, 4);
    const [first] = stores;
    if (first === undefined) throw new Error('no replica');
    await ensureTenant(first, 't');
    const queued = [];
    for (let i = 0; i < 40; i++) queued.push((await enqueueJob(first, 't', job(`job ${String(i)}`))).jobId);
    const claimed = await Promise.all(
      stores.map(async (store, r) => {
        const mine: string[] = [];
        for (;;) {
          const lease = await claimNextJob(store, 't', `replica-${String(r)}`, 60_000);
          if (lease === undefined) return mine;
          mine.push(lease.jobId);
        }
      }),
    );
    const all = claimed.flat();
    expect(all.sort()).toEqual([...queued].sort());
    expect(new Set(all).size).toBe(queued.length);
    // Every replica got work: no one waited for another's claim to finish.
    expect(claimed.filter((mine) => mine.length > 0).length).toBeGreaterThan(1);
    await Promise.all(stores.map((s) => s.close()));
  });

  it('never lets a replica paused past its lease commit a batch once another took the job over', async () => {
    const url = await freshDatabase();
    const [a, b] = await replicas(url, 2);
    if (a === undefined || b === undefined) throw new Error('no replica');
    await a.query(WORK_TABLE);
    await ensureTenant(a, 't');
    const { jobId } = await enqueueJob(a, 't', job());
    const write =
      (lease: PgLease, items: readonly number[]) => (tx: Parameters<Parameters<typeof commitBatch>[4]>[0]) =>
        Promise.all(
          items.map((item) =>
            tx.query('INSERT INTO batch_work (tenant_id, job_id, item, worker) VALUES ($1, $2, $3, $4)', [
              lease.tenantId,
              lease.jobId,
              item,
              lease.owner,
            ]),
          ),
        ).then(() => undefined);

    const leaseA = await claimNextJob(a, 't', 'replica-a', 300);
    if (leaseA === undefined) throw new Error('no claim');
    await commitBatch(a, leaseA, 300, 2, write(leaseA, [1, 2]));
    // A pauses (a long GC, a frozen VM) past its lease; B takes the job over with the next epoch.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const leaseB = await claimNextJob(b, 't', 'replica-b', 60_000);
    expect(leaseB).toMatchObject({ jobId, owner: 'replica-b', epoch: leaseA.epoch + 1 });
    if (leaseB === undefined) throw new Error('no takeover');
    // A wakes up and tries to commit its next batch: refused, and nothing of it is written.
    await expect(commitBatch(a, leaseA, 300, 2, write(leaseA, [3, 4]))).rejects.toBeInstanceOf(LeaseLost);
    expect(await renewLease(a, leaseA, 300)).toBe(false);
    await expect(finishJob(a, leaseA, 'completed')).rejects.toBeInstanceOf(LeaseLost);
    // B goes on from where the committed work ends.
    await commitBatch(b, leaseB, 60_000, 2, write(leaseB, [3, 4]));
    await finishJob(b, leaseB, 'completed');
    const rows = await b.tenantTransaction('t', (tx) =>
      tx.query<{ item: string; worker: string }>('SELECT item, worker FROM batch_work ORDER BY item'),
    );
    expect(rows.map((r) => [Number(r.item), r.worker])).toEqual([
      [1, 'replica-a'],
      [2, 'replica-a'],
      [3, 'replica-b'],
      [4, 'replica-b'],
    ]);
    const state = await b.tenantTransaction('t', (tx) =>
      tx.query<{ status: string; scanned: string; claims: number; takeovers: number }>(
        'SELECT status, scanned, claims, takeovers FROM maintenance_job',
      ),
    );
    expect(state).toEqual([{ status: 'completed', scanned: '4', claims: 2, takeovers: 0 }]);
    await a.close();
    await b.close();
  });

  it('a takeover racing a long batch: the claim skips the row the batch holds, and the lease the commit renews keeps the job with its holder', async () => {
    const url = await freshDatabase();
    const [a, b] = await replicas(url, 2);
    if (a === undefined || b === undefined) throw new Error('no replica');
    await ensureTenant(a, 't');
    await enqueueJob(a, 't', job());
    const leaseA = await claimNextJob(a, 't', 'replica-a', 200);
    if (leaseA === undefined) throw new Error('no claim');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A's batch locks the row, then works past its lease while B tries to claim.
    const batch = commitBatch(a, leaseA, 200, 1, async () => {
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    const claim = claimNextJob(b, 't', 'replica-b', 60_000);
    release();
    await batch;
    // B either skipped the locked row or found the lease the commit renewed from the moment it committed (the
    // database's clock, not the batch's start): nothing to take, no second holder.
    expect(await claim).toBeUndefined();
    expect(await renewLease(a, leaseA, 60_000)).toBe(true);
    await a.close();
    await b.close();
  });

  it('creates one job per schedule bucket when replicas enqueue it at once', async () => {
    const url = await freshDatabase();
    const stores = await replicas(url, 3);
    const [first] = stores;
    if (first === undefined) throw new Error('no replica');
    await ensureTenant(first, 't');
    const schedule = { key: 'nightly', bucket: 20_260_101 };
    const results = await Promise.all(
      stores.flatMap((store) => [
        enqueueJob(store, 't', { ...job(), schedule }),
        enqueueJob(store, 't', { ...job(), schedule }),
      ]),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.jobId)).size).toBe(1);
    expect(await first.tenantTransaction('t', (tx) => tx.query('SELECT job_id FROM maintenance_job'))).toHaveLength(1);
    await Promise.all(stores.map((s) => s.close()));
  });

  it('a cancel made through one replica reaches the replica holding the job at its next batch', async () => {
    const url = await freshDatabase();
    const [a, b] = await replicas(url, 2);
    if (a === undefined || b === undefined) throw new Error('no replica');
    await ensureTenant(a, 't');
    const queued = await enqueueJob(a, 't', job());
    const other = await enqueueJob(a, 't', job());
    expect(await requestCancel(b, 't', other.jobId, 'analyst')).toBe('cancelled');
    const lease = await claimNextJob(a, 't', 'replica-a', 60_000);
    expect(lease?.jobId).toBe(queued.jobId);
    if (lease === undefined) throw new Error('no claim');
    expect(await commitBatch(a, lease, 60_000, 1, () => Promise.resolve())).toEqual({ cancelRequested: false });
    expect(await requestCancel(b, 't', queued.jobId, 'analyst')).toBe('requested');
    expect(await commitBatch(a, lease, 60_000, 1, () => Promise.resolve())).toEqual({ cancelRequested: true });
    await finishJob(a, lease, 'cancelled');
    expect(await requestCancel(b, 't', queued.jobId, 'analyst')).toBe('ended');
    await a.close();
    await b.close();
  });
});
