/**
 * The engine pool (main/engine-host/pool.ts) on a real registry file: engine threads with their own connections,
 * a short lane no run can take, tracked runs with progress and cancel, tenant scope, and a thread that runs out of
 * memory replaced while the pool keeps answering, and threads that cannot open the registry replaced after a pause,
 * not in a loop; a pool that does not wait for its threads, and one that adopts a thread started before the registry
 * was known. Order of events, never timing.
 */
import { copyFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { isEngineError } from '../../../engine/contract/errors.ts';
import type { RunState } from '../../../engine/contract/runs.ts';
import { EnginePool } from '../../../main/engine-host/pool.ts';
import { EarlyEngineThread } from '../../../main/engine-host/threads.ts';
import { suiteDir } from '../../helpers/temp.ts';

const TENANT = 'pool';
const CTX = { tenantId: TENANT, actor: 'test' };
const dir = suiteDir();
let dbPath: string;
let jobId: string;

beforeAll(async () => {
  dbPath = join(dir, 'registry.db');
  const engine = LocalEngine.open({ dbPath });
  try {
    await engine.call('sandbox/create', { syntheticPeople: 1500, seed: 3 }, CTX);
    await engine.call('sandbox/create', { syntheticPeople: 0, seed: 1 }, { tenantId: 'other', actor: 'test' });
    ({ jobId } = await engine.call('maintenance/reindex', { reason: 'a job to read', batchSize: 5 }, CTX));
  } finally {
    engine.close();
  }
}, 120_000);

async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the state was never reached');
}

/** An estimate that runs for many seconds (five million random pairs) unless it is cancelled. */
const LONG_ESTIMATE = {
  operation: 'matching/estimate' as const,
  input: { modelVersion: 'long', randomPairs: 5_000_000 },
};

describe('the engine pool', () => {
  let pool: EnginePool;
  beforeAll(async () => {
    pool = await EnginePool.open({ dbPath, longThreads: 1, shortThreads: 1 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('answers a job GET while an estimate is still running on the long thread', async () => {
    const events: string[] = [];
    pool.runs.subscribe((_tenant, state) => {
      if (state.status === 'running' && !events.includes('run running')) events.push('run running');
      if (state.status === 'cancelled') events.push('run cancelled');
      if (state.status === 'completed') events.push('run completed');
    });
    const started = await pool.call('runs/start', LONG_ESTIMATE, CTX);
    await until(
      () => pool.call('runs/get', { runId: started.runId }, CTX),
      (s) => s.status === 'running' && s.progress !== null,
    );
    const job = await pool.call('jobs/get', { jobId }, CTX);
    events.push('job answered');
    expect(job.jobId).toBe(jobId);
    const list = await pool.call('jobs/list', { limit: 10 }, CTX);
    events.push('job list answered');
    expect(list.rows.map((r) => r.jobId)).toContain(jobId);
    expect((await pool.call('runs/get', { runId: started.runId }, CTX)).status).toBe('running');
    const cancelled = await pool.call('runs/cancel', { runId: started.runId }, CTX);
    expect(cancelled.runId).toBe(started.runId);
    const ended = await until(
      () => pool.call('runs/get', { runId: started.runId }, CTX),
      (s) => s.status !== 'running',
    );
    expect(ended.status).toBe('cancelled');
    expect(ended.output).toBeUndefined();
    expect(ended.error?.message).toMatch(/cancelled on request; nothing was written/);
    expect(events).toEqual(['run running', 'job answered', 'job list answered', 'run cancelled']);
  }, 120_000);

  it('answers a long-polling runs/get as soon as its run ends', async () => {
    const started = await pool.call(
      'runs/start',
      { operation: 'labels/sample', input: { maxPairs: 300, seed: 4 } },
      CTX,
    );
    expect(started.status).toBe('queued');
    // One read waiting up to 20 s: it comes back with the run ended (completed), not with the state of the moment.
    const ended = await pool.call('runs/get', { runId: started.runId, waitMs: 20_000 }, CTX);
    expect(ended.status).toBe('completed');
    expect((ended.output as { pairs: unknown[] }).pairs).toHaveLength(300);
    // An ended run answers at once, and waitMs is bounded.
    expect((await pool.call('runs/get', { runId: started.runId, waitMs: 20_000 }, CTX)).status).toBe('completed');
    await expect(pool.call('runs/get', { runId: started.runId, waitMs: 20_001 }, CTX)).rejects.toMatchObject({
      kind: 'validation',
    });
  }, 120_000);

  it('reports progress, and completes a run with its output', async () => {
    const progress: RunState['progress'][] = [];
    const unsubscribe = pool.runs.subscribe((_tenant, state) => {
      if (state.progress !== null) progress.push(state.progress);
    });
    const started = await pool.call(
      'runs/start',
      { operation: 'labels/sample', input: { maxPairs: 400, seed: 2 } },
      CTX,
    );
    const ended = await until(
      () => pool.call('runs/get', { runId: started.runId }, CTX),
      (s) => s.status === 'completed' || s.status === 'failed',
    );
    unsubscribe();
    expect(ended.status).toBe('completed');
    expect((ended.output as { pairs: unknown[] }).pairs).toHaveLength(400);
    expect(progress.map((p) => p?.phase)).toContain('finding blocking candidates');
    // Its last phase reads as done, not as the last step it reported.
    expect(ended.progress?.total).toEqual(expect.any(Number));
    expect(ended.progress?.done).toBe(ended.progress?.total);
    // The synchronous form answers the same.
    const direct = await pool.call('labels/sample', { maxPairs: 400, seed: 2 }, CTX);
    expect(direct).toEqual(ended.output);
  }, 120_000);

  it("keeps runs to their tenant: another tenant's run ID is not found, and not listed", async () => {
    const started = await pool.call(
      'runs/start',
      { operation: 'labels/sample', input: { maxPairs: 20, seed: 2 } },
      CTX,
    );
    const other = { tenantId: 'other', actor: 'test' };
    for (const call of [
      () => pool.call('runs/get', { runId: started.runId }, other),
      () => pool.call('runs/cancel', { runId: started.runId }, other),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(isEngineError(error) && error.kind === 'not_found').toBe(true);
    }
    expect((await pool.call('runs/list', {}, other)).rows).toEqual([]);
    expect((await pool.call('runs/list', {}, CTX)).rows.map((r) => r.runId)).toContain(started.runId);
    await until(
      () => pool.call('runs/get', { runId: started.runId }, CTX),
      (s) => s.status !== 'queued' && s.status !== 'running',
    );
  });

  it('refuses a run whose input does not fit its operation, naming the field', async () => {
    const error = await pool
      .call('runs/start', { operation: 'matching/estimate', input: { modelVersion: '', randomPairs: 5 } }, CTX)
      .catch((e: unknown) => e);
    expect(isEngineError(error) && error.kind === 'validation').toBe(true);
    expect(isEngineError(error) ? error.issues.map((i) => i.path) : []).toEqual(
      expect.arrayContaining(['input.randomPairs']),
    );
  });

  it('fails a call whose input cannot be copied to a thread, and frees the thread for the next', async () => {
    // Nested far deeper than the structured clone can recurse: posting it to a thread throws in this thread.
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    // More calls than threads (one short, one long), on both lanes, a synchronous run included: none may keep a
    // thread, or the pool would answer nothing again.
    for (const name of ['jobs/get', 'jobs/get', 'jobs/get', 'identities/list', 'matching/evaluate'] as const) {
      const error = await pool.call(name, { jobId, nested: deep } as never, CTX).catch((e: unknown) => e);
      expect(isEngineError(error) ? `${error.kind}: ${error.message}` : String(error)).toMatch(
        /^validation: the input of .* could not be handed to the engine: it nests too deeply/,
      );
    }
    expect(pool.stats().threads.every((thread) => !thread.busy)).toBe(true);
    expect((await pool.call('jobs/get', { jobId }, CTX)).jobId).toBe(jobId);
    expect((await pool.call('identities/list', { limit: 2, offset: 0 }, CTX)).rows).toHaveLength(2);
  });

  it('cancels a run nobody follows any more (a caller that went away)', async () => {
    const orphans = await EnginePool.open({ dbPath, longThreads: 1, shortThreads: 1, orphanMs: 200 });
    try {
      const started = await orphans.call('runs/start', LONG_ESTIMATE, CTX);
      const states: string[] = [];
      await new Promise<void>((resolve) => {
        orphans.runs.subscribe((_tenant, state) => {
          if (state.runId !== started.runId) return;
          states.push(state.status);
          if (state.status === 'cancelled' || state.status === 'completed') resolve();
        });
      });
      expect(states.at(-1)).toBe('cancelled');
      const ended = orphans.runs.get(started.runId, TENANT);
      expect(ended.error?.message).toMatch(/nobody followed it/);
    } finally {
      await orphans.close();
    }
  }, 120_000);
});

describe('a long lane started later (the console: its window loads first)', () => {
  it('opens with the short lane, keeps quick calls there, and starts the long lane at the first long call', async () => {
    const pool = await EnginePool.open({ dbPath, longThreads: 1, shortThreads: 1, longThreadsAfterMs: 600_000 });
    try {
      expect(pool.stats().threads.map((t) => t.lane)).toEqual(['short']);
      // More quick calls at once than there are threads: they wait for the short thread, none starts the long lane.
      const jobs = await Promise.all(
        Array.from({ length: 8 }, () => pool.call('jobs/get', { jobId }, CTX).then((job) => job.jobId)),
      );
      expect(jobs).toEqual(Array.from({ length: 8 }, () => jobId));
      expect(pool.stats().threads.map((t) => t.lane)).toEqual(['short']);
      // A long call cannot wait ten minutes: the long lane starts for it and it is answered, alone (nothing else
      // frees a thread to hand it over) and with others.
      expect((await pool.call('identities/list', { limit: 4, offset: 0 }, CTX)).rows).toHaveLength(4);
      const lists = await Promise.all(
        Array.from({ length: 3 }, (_, i) => pool.call('identities/list', { limit: 4, offset: i }, CTX)),
      );
      expect(lists.map((l) => l.rows.length)).toEqual([4, 4, 4]);
      expect(pool.stats().threads.map((t) => t.lane)).toEqual(['short', 'long']);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('starts the long lane after the delay without any call', async () => {
    const pool = await EnginePool.open({ dbPath, longThreads: 2, shortThreads: 1, longThreadsAfterMs: 50 });
    try {
      await until(
        () => pool.stats().threads.map((t) => t.lane),
        (lanes) => lanes.length === 3,
      );
      expect(pool.stats().threads.map((t) => t.lane)).toEqual(['short', 'long', 'long']);
      expect((await pool.call('identities/list', { limit: 2, offset: 0 }, CTX)).rows).toHaveLength(2);
    } finally {
      await pool.close();
    }
  }, 120_000);
});

describe('a pool started without waiting for its threads (the console opens its sandbox so)', () => {
  it('answers the calls made before its thread opened the registry', async () => {
    const pool = EnginePool.start({ dbPath, longThreads: 1, shortThreads: 1, longThreadsAfterMs: 600_000 });
    try {
      const [job, list] = await Promise.all([
        pool.call('jobs/get', { jobId }, CTX),
        pool.call('jobs/list', { limit: 5 }, CTX),
      ]);
      expect(job.jobId).toBe(jobId);
      expect(list.rows.map((r) => r.jobId)).toContain(jobId);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('fails them in plain words, and does not hang, when its thread cannot open the registry', async () => {
    const missing = join(dir, 'never-created.db');
    const pool = EnginePool.start({ dbPath: missing, longThreads: 1, shortThreads: 1, longThreadsAfterMs: 600_000 });
    try {
      const error = await pool.call('jobs/get', { jobId }, CTX).catch((e: unknown) => e);
      expect(isEngineError(error) && error.kind).toBe('internal');
      expect((error as Error).message).toMatch(/^the engine could not open the registry's database/);
      expect((error as Error).message).not.toContain(missing);
    } finally {
      await pool.close();
    }
  }, 120_000);
});

describe('an engine thread started before the registry was known (the console: its host loads beside it)', () => {
  it('waits to be told what to open, and becomes the first quick-call thread of the pool that takes it', async () => {
    const path = join(dir, 'chosen-later.db');
    const early = new EarlyEngineThread();
    // The thread loads the engine meanwhile; the registry it will open does not exist yet.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    copyFileSync(dbPath, path);
    const thread = early.take();
    expect(thread).toBeDefined();
    // Taken once only: a second pool would start its own.
    expect(early.take()).toBeUndefined();
    const exited = new Promise<number>((resolve) => thread?.once('exit', resolve));
    const pool = await EnginePool.open({
      dbPath: path,
      longThreads: 1,
      shortThreads: 1,
      longThreadsAfterMs: 600_000,
      ...(thread === undefined ? {} : { startedThread: thread }),
    });
    try {
      expect(pool.stats().started).toBe(1);
      expect((await pool.call('jobs/get', { jobId }, CTX)).jobId).toBe(jobId);
    } finally {
      await pool.close();
    }
    // The pool stopped the thread it was given as one of its own.
    expect(await exited).toBeTypeOf('number');
  }, 120_000);

  it('is stopped when no pool takes it', async () => {
    const early = new EarlyEngineThread();
    await early.stop();
    expect(early.take()).toBeUndefined();
  }, 120_000);
});

describe('a registry file gone after the pool opened', () => {
  it('fails the calls no thread can take at once, starts no thread in a loop, and recovers once the file is back', async () => {
    const path = join(dir, 'moved.db');
    copyFileSync(dbPath, path);
    const pool = await EnginePool.open({ dbPath: path, longThreads: 2, shortThreads: 1, longThreadsAfterMs: 600_000 });
    try {
      renameSync(path, `${path}.away`);
      // The long lane starts for this call; neither of its threads can open the file.
      const first = await pool.call('identities/list', { limit: 1, offset: 0 }, CTX).catch((error: unknown) => error);
      expect(isEngineError(first) && first.kind).toBe('internal');
      const message = (first as Error).message;
      expect(message).toMatch(/^the engine could not open the registry's database; it tries again within \d+ s/);
      // The thread's own reason names the file: kept from the caller (a remote client of serve).
      expect(message).not.toContain(path);
      const started = pool.stats().started;
      expect(started).toBe(3);
      // While the replacements wait, a long call fails at once, and the open short thread answers quick calls.
      await expect(pool.call('identities/list', { limit: 1, offset: 0 }, CTX)).rejects.toThrow(/could not open/);
      expect((await pool.call('jobs/get', { jobId }, CTX)).jobId).toBe(jobId);
      expect(pool.stats().threads.map((t) => t.lane)).toEqual(['short']);
      // Replacements come after 1 s, 2 s, 4 s, ... of pause: two in the next three seconds (each failing), where
      // replacing at once started a thread every few hundred milliseconds for as long as the file was away.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(pool.stats().started - started).toBeGreaterThanOrEqual(1);
      expect(pool.stats().started - started).toBeLessThanOrEqual(3);
      renameSync(`${path}.away`, path);
      const list = await until(
        () => pool.call('identities/list', { limit: 1, offset: 0 }, CTX).catch(() => null),
        (answer) => answer !== null,
      );
      expect(list?.rows).toHaveLength(1);
    } finally {
      await pool.close();
    }
  }, 120_000);
});

describe('a thread that runs out of memory', () => {
  it('fails its call with a typed error, is replaced, and the pool keeps answering', async () => {
    // A heap that holds the engine with room to spare, and a request several times larger than it: the thread
    // runs out of memory receiving it, whatever the machine's load (a real estimate's peak depends on the data).
    const pool = await EnginePool.open({ dbPath, longThreads: 1, shortThreads: 1, longThreadHeapMb: 96 });
    try {
      const huge = Array.from({ length: 5_000_000 }, (_, i) => ({ label: i }));
      const error = await pool
        .call('matching/estimate', { modelVersion: 'oom', extra: huge } as never, CTX)
        .catch((e: unknown) => e);
      expect(isEngineError(error) && error.kind === 'internal').toBe(true);
      expect(isEngineError(error) ? error.message : '').toMatch(
        /stopped \(out of memory\); it was replaced\. ask for less at once/,
      );
      expect((await pool.call('jobs/get', { jobId }, CTX)).jobId).toBe(jobId);
      // The replacement takes long calls again. These come while it is still opening: the first is handed to it
      // at once, the others wait, and each is answered (once open, it must not take a second call over the one
      // it holds).
      const lists = await Promise.all(
        Array.from({ length: 5 }, (_, i) => pool.call('identities/list', { limit: 5, offset: i }, CTX)),
      );
      expect(lists.map((l) => l.rows.length)).toEqual([5, 5, 5, 5, 5]);
    } finally {
      await pool.close();
    }
  }, 120_000);
});
