/**
 * Durability: a reconciliation whose worker processes are killed with SIGKILL (once while rebuilding, once
 * while matching) is resumed by another worker after the lease expires, and ends with exactly the registry
 * and job counters of an uninterrupted run of the same job on a copy of the same database.
 */
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { Store } from '../../../engine/store/store.ts';
import {
  CTX,
  TENANT,
  copyDatabase,
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
  waitFor,
} from './helpers.ts';
import { scratchDir } from '../../helpers/temp.ts';

describe('a reconciliation interrupted by kill -9', () => {
  it(
    'resumes in another worker after the lease expires and ends exactly like an uninterrupted run',
    { timeout: 300_000 },
    async () => {
      const { dir, cleanup } = scratchDir();
      onTestFinished(cleanup);
      const base = await makeSandbox(dir, 'base', 4000, 21);
      // Reversing source trust changes survivorship, so Rebuilding rewrites many canonical records.
      const engine = LocalEngine.open({ dbPath: base });
      const current = await engine.call('profile/get', {}, CTX);
      await engine.call(
        'profile/apply',
        { document: { SourceTrust: [...current.profile.SourceTrust].reverse() }, reason: 'test: survivorship change' },
        CTX,
      );
      engine.close();
      setMaintenance(base, { LeaseSeconds: 2, PollIntervalSeconds: 1 });
      const uninterrupted = copyDatabase(base, join(dir, 'uninterrupted.db'));
      const interrupted = copyDatabase(base, join(dir, 'interrupted.db'));

      const expected = uninterruptedReconciliation(uninterrupted, 'uninterrupted run');
      const total = expected.populationTotal ?? 0;
      expect(total).toBeGreaterThan(3000);
      expect(expected.counters.updated).toBeGreaterThan(0);
      expect(expected.counters.reviewCreated).toBeGreaterThan(0);

      const jobB = queueReconciliation(interrupted, 'interrupted run', 5);
      for (const [phase, threshold] of [
        ['rebuilding', Math.floor(total / 3)],
        ['matching', total + Math.floor(total / 3)],
      ] as const) {
        const worker = spawnWorker(interrupted);
        await waitFor(`the ${phase} phase to pass ${String(threshold)} scanned items`, () => {
          const job = readJob(interrupted, jobB);
          return job.counters.scanned >= threshold ? job : undefined;
        });
        worker.kill('SIGKILL');
        await exited(worker);
        const killed = readJob(interrupted, jobB);
        expect(killed.status, 'the job must still be unfinished when its worker is killed').toBe('running');
        expect(killed.phases.find((p) => p.status === 'running')?.name).toBe(phase);
        expect(killed.counters.scanned).toBeLessThan(2 * total);
      }

      const last = spawnWorker(interrupted);
      const finished = await waitFor(
        'the resumed job to finish',
        () => {
          const job = readJob(interrupted, jobB);
          return job.status === 'running' ? undefined : job;
        },
        180_000,
        50,
      );
      last.kill('SIGTERM');
      expect(await exited(last), last.output()).toBe(0);

      expect(finished.status).toBe('completed');
      expect(jobClaims(interrupted, jobB)).toBe(3);
      expect(jobOutcome(finished)).toEqual(jobOutcome(expected));
      expect(dumpTables(interrupted)).toEqual(dumpTables(uninterrupted));

      // Every review case the counter reports exists once; none is duplicated under another ID.
      const store = Store.open(interrupted, { readonly: true });
      try {
        const cases = store
          .statement(
            "SELECT left_identity_id, right_identity_id, left_version, right_version FROM review_case WHERE tenant_id = ? AND kind = 'PopulationReconciliation'",
          )
          .all(TENANT) as { left_identity_id: number; right_identity_id: number }[];
        expect(cases.length).toBe(finished.counters.reviewCreated);
        expect(new Set(cases.map((c) => `${String(c.left_identity_id)}-${String(c.right_identity_id)}`)).size).toBe(
          cases.length,
        );
        const actions = store
          .statement('SELECT action FROM audit_record WHERE tenant_id = ? AND subject = ?')
          .pluck()
          .all(TENANT, `maintenance-job/${jobB}`);
        expect(actions).toEqual(['maintenance.job.request', 'maintenance.job.complete']);
      } finally {
        store.close();
      }
    },
  );
});
