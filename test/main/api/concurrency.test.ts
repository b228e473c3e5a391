/**
 * Concurrency through the API: parallel starts, GETs, listings and cancels while two workers run jobs on
 * the same database — the in-process worker of `serve --worker` and a separate `mpi-console worker`
 * process. No caller ever sees SQLITE_BUSY or any 5xx (the client does not retry, so nothing is masked),
 * every cancel is either acknowledged (and the job ends cancelled) or refused as a conflict because the job
 * had already finished (and it ended completed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngineError } from '../../../engine/contract/errors.ts';
import type { CallContext } from '../../../engine/contract/operations.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { RemoteEngine } from '../../../main/remote/remote-engine.ts';
import { StaticTokenProvider } from '../../../main/remote/token-provider.ts';
import { devTokenFor, serveWithWorker, type ServedApi } from '../../helpers/api.ts';
import { exited, makeSandbox, setMaintenance, spawnWorker, TENANT } from '../../engine/jobs/helpers.ts';
import { scratchDir } from '../../helpers/temp.ts';

const ctx: CallContext = { tenantId: TENANT, actor: 'ignored' };

describe('parallel starts, reads and cancels while workers run', () => {
  const { dir, cleanup } = scratchDir('mpi-api-concurrency-');
  let engine: LocalEngine;
  let api: ServedApi;
  let worker: ReturnType<typeof spawnWorker>;
  let client: RemoteEngine;

  beforeAll(async () => {
    const dbPath = await makeSandbox(dir, 'registry', 250, 3);
    setMaintenance(dbPath, { PollIntervalSeconds: 1, LeaseSeconds: 30 });
    engine = LocalEngine.open({ dbPath });
    api = await serveWithWorker(engine);
    worker = spawnWorker(dbPath);
    client = new RemoteEngine({
      baseUrl: api.url,
      tokens: new StaticTokenProvider(await devTokenFor(engine, ['mpi.admin', 'mpi.operations'], { tenantId: TENANT })),
      retries: 0,
    });
  });
  afterAll(async () => {
    await client.close();
    await api.stop();
    worker.kill('SIGTERM');
    await exited(worker);
    engine.close();
    cleanup();
  });

  it('never lets SQLITE_BUSY or a 5xx reach a caller, and every cancel is consistent with the final status', async () => {
    const starts = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? client.call('maintenance/reindex', { reason: `parallel ${String(i)}`, batchSize: 5 }, ctx)
          : client.call('maintenance/reconcile', { reason: `parallel ${String(i)}`, batchSize: 5 }, ctx),
      ),
    );
    expect(new Set(starts.map((s) => s.jobId)).size).toBe(10);
    const cancelled = starts.filter((_, i) => i % 3 === 1).map((s) => s.jobId);
    const calls: Promise<unknown>[] = [];
    for (let round = 0; round < 8; round++) {
      for (const { jobId } of starts) calls.push(client.call('jobs/get', { jobId }, ctx));
      calls.push(client.call('jobs/list', { limit: 20 }, ctx));
      if (round === 2)
        for (const jobId of cancelled)
          calls.push(client.call('jobs/cancel', { jobId }, ctx).catch((e: unknown) => ({ refused: e, jobId })));
    }
    const settled = await Promise.allSettled(calls);
    const failures = settled.filter((s) => s.status === 'rejected').map((s) => String(s.reason));
    expect(failures).toEqual([]);
    const cancelAnswers = settled.flatMap((s) =>
      s.status === 'fulfilled' && typeof s.value === 'object' && s.value !== null && 'refused' in s.value
        ? [s.value as { refused: unknown; jobId: string }]
        : [],
    );
    for (const { refused } of cancelAnswers)
      expect(isEngineError(refused) && refused.kind === 'conflict', String(refused)).toBe(true);

    const final = new Map<string, string>();
    await waitForAsync(async () => {
      for (const { jobId } of starts) final.set(jobId, (await client.call('jobs/get', { jobId }, ctx)).status);
      return [...final.values()].every((s) => s === 'completed' || s === 'cancelled');
    });
    const refusedIds = new Set(cancelAnswers.map((a) => a.jobId));
    for (const { jobId } of starts) {
      const status = final.get(jobId);
      if (!cancelled.includes(jobId)) expect(status, jobId).toBe('completed');
      else expect(status, jobId).toBe(refusedIds.has(jobId) ? 'completed' : 'cancelled');
    }
    const lines = api.logs.lines.map((l) => JSON.parse(l) as { status?: number; msg?: string });
    expect(lines.filter((l) => (l.status ?? 0) >= 500 || l.msg === 'unexpected failure')).toEqual([]);
    expect(api.logs.text).not.toMatch(/SQLITE_BUSY/);
    expect(worker.output()).not.toMatch(/SQLITE_BUSY|unexpected failure/);
  });
});

async function waitForAsync(check: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the jobs to finish');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
