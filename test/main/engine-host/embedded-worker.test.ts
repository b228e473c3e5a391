/**
 * The maintenance worker's thread (main/engine-host/embedded-worker.ts) on a real registry file, started later as
 * the console asks: a job queued before the delay starts it at once, and a worker stopped before it started stops
 * without a thread. Order of events, never timing.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WorkerStatus } from '../../../console-protocol/protocol.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { EmbeddedWorker } from '../../../main/engine-host/embedded-worker.ts';
import { suiteDir } from '../../helpers/temp.ts';

const CTX = { tenantId: 'jobs', actor: 'test' };
const dir = suiteDir();
let dbPath: string;

beforeAll(async () => {
  dbPath = join(dir, 'registry.db');
  const engine = LocalEngine.open({ dbPath });
  try {
    await engine.call('sandbox/create', { syntheticPeople: 200, seed: 4 }, CTX);
  } finally {
    engine.close();
  }
}, 120_000);

describe('a maintenance worker started later', () => {
  it('waits without a thread, and a queued job starts it at once', async () => {
    const statuses: WorkerStatus['state'][] = [];
    const activity: string[] = [];
    const worker = new EmbeddedWorker(
      { dbPath, tenants: [CTX.tenantId] },
      { onStatus: (status) => statuses.push(status.state), onJobActivity: (jobId) => activity.push(jobId) },
      { startAfterMs: 600_000 },
    );
    try {
      expect(worker.status.state).toBe('starting');
      // One connection queues the job and then reads it (WAL: it sees the worker thread's commits).
      const engine = LocalEngine.open({ dbPath, create: false });
      try {
        const { jobId } = await engine.call(
          'maintenance/reindex',
          { reason: 'queued before the worker', batchSize: 20 },
          CTX,
        );
        const status = async (): Promise<string> => (await engine.call('jobs/get', { jobId }, CTX)).status;
        worker.wake();
        for (let i = 0; i < 2400 && (await status()) !== 'completed'; i++)
          await new Promise((resolve) => setTimeout(resolve, 25));
        expect(await status()).toBe('completed');
        expect(activity).toContain(jobId);
      } finally {
        engine.close();
      }
      expect(statuses).toContain('running');
    } finally {
      await worker.stop();
    }
    expect(worker.status.state).toBe('stopped');
  }, 120_000);

  it('stops before it started: no thread, its status stopped', async () => {
    const statuses: WorkerStatus['state'][] = [];
    const worker = new EmbeddedWorker(
      { dbPath, tenants: [CTX.tenantId] },
      { onStatus: (status) => statuses.push(status.state), onJobActivity: () => undefined },
      { startAfterMs: 600_000 },
    );
    await worker.stop();
    expect(statuses).toEqual(['stopped']);
    // A wake after the stop starts nothing.
    worker.wake();
    expect(worker.status.state).toBe('stopped');
  });
});
