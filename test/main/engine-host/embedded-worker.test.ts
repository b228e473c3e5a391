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

async function jobStatus(jobId: string): Promise<string> {
  const engine = LocalEngine.open({ dbPath, create: false });
  try {
    return (await engine.call('jobs/get', { jobId }, CTX)).status;
  } finally {
    engine.close();
  }
}

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
      const engine = LocalEngine.open({ dbPath, create: false });
      let jobId: string;
      try {
        ({ jobId } = await engine.call(
          'maintenance/reindex',
          { reason: 'queued before the worker', batchSize: 20 },
          CTX,
        ));
      } finally {
        engine.close();
      }
      worker.wake();
      for (let i = 0; i < 2400 && (await jobStatus(jobId)) !== 'completed'; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(await jobStatus(jobId)).toBe('completed');
      expect(statuses).toContain('running');
      expect(activity).toContain(jobId);
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
