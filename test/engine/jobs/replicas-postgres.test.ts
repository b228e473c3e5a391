/**
 * Several replicas on one PostgreSQL registry (a real cluster; each replica a real `worker` process, as each
 * `serve --worker` runs one):
 * - kill -9 the replica holding a reconciliation's lease, three times at points spread over both phases, while
 *   another replica runs beside it: the other resumes, and the end state (identities, links, tags, review cases
 *   and their IDs, counters 2N scanned) equals an uninterrupted single-replica run on a copy of the same registry;
 * - a replica paused past its lease while another takes the job over then tries to commit its batch: refused in
 *   the commit's own transaction, and the job's counters hold each batch once;
 * - two replicas starting at once with the same schedule make one job for the time bucket.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { Store } from '../../../engine/store/store.ts';
import { scheduleBucket, scheduledJobId } from '../../../engine/jobs/schedules.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import {
  TENANT,
  configOf,
  dumpTables,
  exited,
  jobClaims,
  jobOutcome,
  makeSandbox,
  queueReconciliation,
  readJob,
  setMaintenance,
  spawnWorker,
  uninterruptedReconciliation,
  usePostgres,
  waitFor,
} from './helpers.ts';
import { copyOfDatabase, freshDatabase } from '../../helpers/postgres/database.ts';
import { scratchDir } from '../../helpers/temp.ts';

/** People in the kill -9 test's registry (MPI_REPLICA_PEOPLE=23000 gives the 20,000 identities; slow). */
const PEOPLE = Number(process.env.MPI_REPLICA_PEOPLE ?? 2000);
const SLOW_WORKER = fileURLToPath(new URL('./slow-worker.ts', import.meta.url));

/** The process ID in a lease owner's name (host:pid:nonce). */
const ownerPid = (owner: unknown): number => Number(String(owner).split(':')[1]);

function killed(child: ChildProcess): Promise<number | null> {
  child.kill('SIGKILL');
  return exited(child);
}

function reviewCasesOf(url: string): { case_id: string }[] {
  return withTenant(TENANT, () => {
    const store = Store.open(url, { readonly: true });
    try {
      return store
        .statement("SELECT case_id FROM review_case WHERE tenant_id = ? AND kind = 'PopulationReconciliation'")
        .all(TENANT) as { case_id: string }[];
    } finally {
      store.close();
    }
  });
}

describe('replicas on one PostgreSQL registry', () => {
  it(
    'resume a reconciliation after kill -9 of the replica holding it, ending exactly like one uninterrupted replica',
    { timeout: Math.max(600_000, PEOPLE * 200) },
    async () => {
      const { dir, cleanup } = scratchDir();
      onTestFinished(cleanup);
      const base = await makeSandbox(dir, 'base', PEOPLE, 21, await freshDatabase());
      setMaintenance(base, { LeaseSeconds: 2, PollIntervalSeconds: 1 });
      // Copies of the same registry sharing its configuration file (one set of blocking secrets, as replicas share).
      const uninterrupted = usePostgres(await copyOfDatabase(base), configOf(base));
      const interrupted = usePostgres(await copyOfDatabase(base), configOf(base));

      const expected = uninterruptedReconciliation(uninterrupted, 'one replica');
      const total = expected.populationTotal ?? 0;
      expect(total).toBeGreaterThan(PEOPLE * 0.75);

      const jobB = queueReconciliation(interrupted, 'two replicas', 5);
      const replicas = [spawnWorker(interrupted), spawnWorker(interrupted)];
      onTestFinished(async () => {
        for (const replica of replicas) await killed(replica);
      });
      for (const threshold of [
        Math.floor(total / 3),
        total + Math.floor(total / 4),
        total + Math.floor((3 * total) / 4),
      ]) {
        const holding = await waitFor(`the job to pass ${String(threshold)} scanned items`, () => {
          const job = readJob(interrupted, jobB);
          return job.counters.scanned >= threshold && job.leaseOwner !== null ? job : undefined;
        });
        const holder = replicas.find((r) => r.pid === ownerPid(holding.leaseOwner));
        expect(holder, `the lease holder ${String(holding.leaseOwner)} is one of the replicas`).toBeDefined();
        if (holder === undefined) return;
        await killed(holder);
        expect(readJob(interrupted, jobB).status, 'the job is unfinished when its replica is killed').toBe('running');
        // A new replica takes the killed one's place: two keep running.
        replicas.splice(replicas.indexOf(holder), 1, spawnWorker(interrupted));
      }
      const finished = await waitFor(
        'the job to finish',
        () => {
          const job = readJob(interrupted, jobB);
          return job.status === 'running' || job.status === 'queued' ? undefined : job;
        },
        300_000,
        50,
      );
      expect(finished.status, replicas.map((r) => r.output()).join('\n')).toBe('completed');
      expect(jobClaims(interrupted, jobB)).toBeGreaterThanOrEqual(4);
      expect(jobOutcome(finished)).toEqual(jobOutcome(expected));
      expect(finished.counters.scanned).toBe(2 * total);
      expect(dumpTables(interrupted)).toEqual(dumpTables(uninterrupted));
      const cases = reviewCasesOf(interrupted);
      expect(cases.length).toBe(finished.counters.reviewCreated);
      expect(new Set(cases.map((c) => c.case_id)).size).toBe(cases.length);
    },
  );

  it(
    'refuses the batch of a replica paused past its lease once another replica has taken the job over',
    { timeout: 300_000 },
    async () => {
      const { dir, cleanup } = scratchDir();
      onTestFinished(cleanup);
      const url = await makeSandbox(dir, 'fenced', 150, 8, await freshDatabase());
      setMaintenance(url, { LeaseSeconds: 1, PollIntervalSeconds: 1 });
      const jobId = queueReconciliation(url, 'fenced batches', 25);
      // The first replica's first batch blocks its thread until the marker exists: it cannot renew its 1 s lease
      // meanwhile. The marker is written once the other replica has taken the job over, so the order of events, not
      // a duration that a slow machine's process start can outlast, makes the paused batch stale.
      const marker = join(dir, 'taken-over');
      const paused = spawn(
        process.execPath,
        ['--import', 'tsx', SLOW_WORKER, url, 'spin-until', marker, configOf(url)],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let pausedOutput = '';
      paused.stdout.on('data', (chunk: Buffer) => (pausedOutput += chunk.toString()));
      paused.stderr.on('data', (chunk: Buffer) => (pausedOutput += chunk.toString()));
      onTestFinished(async () => {
        await killed(paused);
      });
      await waitFor(
        'the paused replica to claim the job',
        () => (jobClaims(url, jobId) >= 1 ? true : undefined),
        60_000,
        20,
      );
      const other = spawnWorker(url);
      onTestFinished(async () => {
        await killed(other);
      });
      await waitFor('the other replica to take the job over', () => (jobClaims(url, jobId) >= 2 ? true : undefined));
      writeFileSync(marker, '');
      const finished = await waitFor(
        'the job to finish under the other replica',
        () => {
          const job = readJob(url, jobId);
          return job.status === 'completed' ? job : undefined;
        },
        240_000,
        50,
      );
      // The paused replica woke, tried to commit, and was refused: it reports the lease lost.
      await waitFor('the paused replica to report its lease lost', () =>
        pausedOutput.includes('"outcome":"lease-lost"') ? true : undefined,
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}; the paused replica said: ${pausedOutput}`);
      });
      expect(jobClaims(url, jobId)).toBe(2);
      const total = finished.populationTotal ?? 0;
      expect(finished.counters.scanned, pausedOutput + other.output()).toBe(2 * total);
      const cases = reviewCasesOf(url);
      expect(cases.length).toBe(finished.counters.reviewCreated);
    },
  );

  it('start one job per schedule bucket when two replicas start at once', { timeout: 120_000 }, async () => {
    const { dir, cleanup } = scratchDir();
    onTestFinished(cleanup);
    const url = await makeSandbox(dir, 'scheduled', 100, 4, await freshDatabase());
    setMaintenance(url, {
      LeaseSeconds: 30,
      PollIntervalSeconds: 1,
      ReconciliationSchedules: [
        { Key: 'nightly', TenantId: TENANT, IntervalMinutes: 1440, BatchSize: 20, RunOnStartup: true },
      ],
    });
    const replicas = [spawnWorker(url, ['--once']), spawnWorker(url, ['--once'])];
    const codes = await Promise.all(replicas.map((r) => exited(r)));
    expect(codes, replicas.map((r) => r.output()).join('\n')).toEqual([0, 0]);
    const jobs = withTenant(TENANT, () => {
      const store = Store.open(url, { readonly: true });
      try {
        return store
          .statement('SELECT job_id, schedule_key, status FROM maintenance_job WHERE tenant_id = ?')
          .all(TENANT) as { job_id: string; schedule_key: string | null; status: string }[];
      } finally {
        store.close();
      }
    });
    expect(jobs).toEqual([
      {
        job_id: scheduledJobId(TENANT, 'nightly', scheduleBucket({ IntervalMinutes: 1440 }, Date.now())),
        schedule_key: 'nightly',
        status: 'completed',
      },
    ]);
    expect(replicas.map((r) => r.output()).filter((o) => o.includes('running reconciliation job'))).toHaveLength(1);
  });
});
