import { describe, expect, it, afterEach } from 'vitest';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConsoleBackend } from '../../../main/backend/console-backend.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import type { JobState } from '../../../engine/contract/maintenance.ts';
import type { RunState } from '../../../engine/contract/runs.ts';
import type { ConsoleEventName, SandboxProgress } from '../../../console-protocol/protocol.ts';
import { scratchDir } from '../../helpers/temp.ts';
import { SANDBOX_CANCELLED } from '../../../main/backend/sandbox-creator.ts';
import { EarlyEngineThread } from '../../../main/engine-host/threads.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setup(): { backend: ConsoleBackend; dir: string; events: { event: ConsoleEventName; payload: unknown }[] } {
  const dir = scratchDir('mpi-console-backend-').dir;
  const backend = new ConsoleBackend({
    dataFolder: join(dir, 'data'),
    actor: 'console:test',
    watcher: { pollMs: 100, minGapMs: 20, listEveryMs: 200 },
  });
  const events: { event: ConsoleEventName; payload: unknown }[] = [];
  backend.subscribe((event, payload) => events.push({ event, payload }));
  cleanups.push(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  cleanups.push(() => backend.close());
  return { backend, dir, events };
}

async function until<T>(read: () => T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('console backend over a local sandbox', () => {
  it('creates a synthetic sandbox with progress, runs a reconciliation in its worker and pushes the job until it completes', async () => {
    const { backend, dir, events } = setup();
    const status = await backend.call('console/create-sandbox', {
      folder: join(dir, 'sandboxes'),
      syntheticPeople: 200,
      seed: 3,
    });
    expect(status.connection).toMatchObject({
      kind: 'local-sandbox',
      path: join(dir, 'sandboxes', 'sandbox.db'),
      tenantId: 'demo',
      actor: 'console:test',
    });
    const progress = events.filter((e) => e.event === 'sandbox/progress').map((e) => e.payload as SandboxProgress);
    expect(progress.map((p) => p.stage)).toEqual(
      expect.arrayContaining(['preparing', 'generating', 'ingesting', 'done']),
    );
    const lastIngest = progress.filter((p) => p.stage === 'ingesting').at(-1);
    expect(lastIngest?.done).toBe(lastIngest?.total);
    expect(lastIngest?.total).toBeGreaterThan(200);

    const started = await backend.call('maintenance/reconcile', { reason: 'weights changed', batchSize: 5 });
    const final = await until(
      () =>
        events
          .map((e) => (e.event === 'job/updated' ? (e.payload as JobState) : undefined))
          .find((job) => job?.jobId === started.jobId && job.status === 'completed'),
      'the completed job to be pushed',
    );
    expect(final.requestedBy).toBe('console:test');
    expect(final.counters.scanned).toBeGreaterThan(0);
    expect(final.phases.map((p) => [p.name, p.status])).toEqual([
      ['importing', 'skipped'],
      ['rebuilding', 'completed'],
      ['matching', 'completed'],
    ]);
    // Recent sandboxes remember it for the next start.
    expect((await backend.call('console/status', {})).recent[0]).toMatchObject({
      path: join(dir, 'sandboxes', 'sandbox.db'),
      tenantId: 'demo',
      exists: true,
    });
  });

  it('cancels a long task the user cancels at once, before its run has even started', async () => {
    const { backend, dir, events } = setup();
    await backend.call('console/create-sandbox', { folder: join(dir, 'sandboxes'), syntheticPeople: 300, seed: 5 });
    const started = await backend.call('console/start-task', {
      operation: 'matching/estimate',
      input: { modelVersion: 'cancelled at once', randomPairs: 5_000_000 },
    });
    // The same turn: the connection is still asking its engine to start the run.
    await backend.call('console/cancel-task', { runId: started.runId });
    const ended = await until(
      () =>
        events
          .map((e) => (e.event === 'task/updated' ? (e.payload as RunState) : undefined))
          .find((task) => task?.runId === started.runId && task.finishedAt !== null),
      'the task to end',
    );
    expect(ended.status).toBe('cancelled');
    expect(ended.error?.message).toMatch(/cancelled/);
  });

  it("cancels a sandbox creation under way at the user's request: nothing is kept, and the same file can then be created", async () => {
    const { backend, dir, events } = setup();
    const folder = join(dir, 'sandboxes');
    const path = join(folder, 'big.db');
    // Enough people that ingestion is still under way when the cancel arrives.
    const creating = backend.send('console/create-sandbox', { folder, fileName: 'big.db', syntheticPeople: 50_000 });
    await until(
      () =>
        events.find(
          (e) =>
            e.event === 'sandbox/progress' &&
            (e.payload as SandboxProgress).stage === 'ingesting' &&
            (e.payload as SandboxProgress).done > 0,
        ),
      'ingestion to begin',
    );
    // The file and its configuration (with the blocking secret) exist while it is built.
    expect(existsSync(path)).toBe(true);
    expect(existsSync(join(folder, 'big.config.json'))).toBe(true);
    const during = await backend.call('console/cancel-sandbox', {});
    expect(during.connection).toBeNull();
    expect(await creating).toEqual({
      ok: false,
      error: expect.objectContaining({ kind: 'conflict', message: SANDBOX_CANCELLED }) as unknown,
    });
    const stages = events
      .filter((e) => e.event === 'sandbox/progress')
      .map((e) => (e.payload as SandboxProgress).stage);
    expect(stages.at(-1)).toBe('cancelled');
    expect(stages).not.toContain('done');
    // Nothing at all: the database, its WAL files, its configuration and that configuration's lock.
    expect(readdirSync(folder)).toEqual([]);
    const after = await backend.call('console/status', {});
    expect(after.creating).toBeNull();
    expect(after.connection).toBeNull();
    // Nothing in the way of creating it again; a cancel with nothing under way changes nothing.
    expect((await backend.call('console/cancel-sandbox', {})).connection).toBeNull();
    const created = await backend.call('console/create-sandbox', { folder, fileName: 'big.db', syntheticPeople: 50 });
    expect(created.connection).toMatchObject({ kind: 'local-sandbox', path });
  });

  it('refuses engine operations without a connection, unknown operations and invalid input, naming the field', async () => {
    const { backend } = setup();
    expect(await backend.send('jobs/list', {})).toMatchObject({
      ok: false,
      error: { kind: 'conflict', message: expect.stringMatching(/no sandbox is open/) as unknown },
    });
    expect(await backend.send('system/exec', {})).toMatchObject({
      ok: false,
      error: { kind: 'validation', message: 'unknown operation system/exec' },
    });
    expect(
      await backend.send('console/create-sandbox', { folder: 'relative/path', syntheticPeople: -1 }),
    ).toMatchObject({
      ok: false,
      error: {
        kind: 'validation',
        issues: expect.arrayContaining([
          expect.objectContaining({ path: 'folder' }),
          expect.objectContaining({ path: 'syntheticPeople' }),
        ]) as unknown,
      },
    });
  });

  it('refuses a file that is not a sandbox and leaves it unchanged', async () => {
    const { backend, dir } = setup();
    const other = join(dir, 'notes.db');
    writeFileSync(other, 'not a database');
    expect(await backend.send('console/open-sandbox', { path: other })).toMatchObject({
      ok: false,
      error: { kind: 'validation', message: expect.stringMatching(/not an MPI sandbox/) as unknown },
    });
    expect(await backend.send('console/open-sandbox', { path: join(dir, 'missing.db') })).toMatchObject({
      ok: false,
      error: { kind: 'not_found' },
    });
    expect(existsSync(join(dir, 'missing.db'))).toBe(false);
  });
});

describe('console backend lifecycle', () => {
  it('pushes jobs queued by another process (the CLI) and stops its worker cleanly: the batch in progress commits, the lease is released, a reopened console resumes the job', async () => {
    const { backend, dir, events } = setup();
    await backend.call('console/create-sandbox', {
      folder: dir,
      fileName: 'resume.db',
      syntheticPeople: 1500,
      seed: 9,
    });
    const path = join(dir, 'resume.db');

    // Another process queues the job; the console notices it through its job list.
    const cli = LocalEngine.open({ dbPath: path });
    const { jobId } = await cli.call(
      'maintenance/reconcile',
      { reason: 'queued from the CLI', batchSize: 1 },
      { tenantId: 'demo', actor: 'cli' },
    );
    const running = await until(
      () =>
        events
          .map((e) => (e.event === 'job/updated' ? (e.payload as JobState) : undefined))
          .find((job) => job?.jobId === jobId && job.status === 'running' && job.counters.scanned > 0),
      'the CLI job to be pushed while running',
    );
    expect(running.requestedBy).toBe('cli');

    await backend.close();
    const stopped = await cli.call('jobs/get', { jobId }, { tenantId: 'demo', actor: 'cli' });
    expect(stopped.status).toBe('running');
    expect(Date.parse(stopped.leaseExpiresAt ?? '')).toBeLessThanOrEqual(Date.now());
    const cursorAtStop = stopped.phases.reduce((sum, phase) => sum + phase.processed, 0);
    expect(cursorAtStop).toBeGreaterThan(0);

    const reopened = new ConsoleBackend({
      dataFolder: join(dir, 'data'),
      actor: 'console:test',
      watcher: { pollMs: 100, minGapMs: 20, listEveryMs: 200 },
    });
    cleanups.push(() => reopened.close());
    const pushed: JobState[] = [];
    reopened.subscribe((event, payload) => {
      if (event === 'job/updated') pushed.push(payload as JobState);
    });
    // The most recent sandbox, with the engine thread a host starts at launch as its first engine thread.
    const early = new EarlyEngineThread();
    await reopened.start(undefined, early);
    expect(early.take()).toBeUndefined();
    const reopenedConnection = reopened.status().connection;
    expect(reopenedConnection?.kind === 'local-sandbox' ? reopenedConnection.path : undefined).toBe(path);
    const done = await until(
      () => pushed.find((job) => job.jobId === jobId && job.status === 'completed'),
      'the resumed job to complete',
    );
    // Resumed from its cursors: every identity once per phase, none twice.
    expect(done.counters.scanned).toBe(2 * (done.populationTotal ?? -1));
    cli.close();
  });

  it('stops the engine thread started at launch when there is no sandbox to open', async () => {
    const { backend } = setup();
    const early = new EarlyEngineThread();
    await backend.start(undefined, early);
    expect(backend.status().connection).toBeNull();
    expect(early.take()).toBeUndefined();
  });
});
