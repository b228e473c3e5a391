/**
 * The renderer's task slots over a real console backend on a real sandbox (the transport forwards to the backend
 * as the Electron preload does): an output that arrives while no panel shows the slot is handed over once, a window
 * opened later follows the task the console still runs, and a second start in a slot supersedes the first.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ConsoleBackend } from '../../main/backend/console-backend.ts';
import { LocalEngine } from '../../engine/local-engine.ts';
import type { OperationOutput } from '../../engine/contract/operations.ts';
import { ConsoleClient } from '../../renderer/client/client.ts';
import type { Transport } from '../../renderer/client/transport.ts';
import { TaskSlots, type SlotState } from '../../renderer/hooks/task-slots.ts';
import { scratchDir } from '../helpers/temp.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openedBackend(): Promise<ConsoleBackend> {
  const dir = scratchDir('mpi-slots-').dir;
  cleanups.push(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const db = join(dir, 'sandbox.db');
  const engine = LocalEngine.open({ dbPath: db });
  try {
    await engine.call('sandbox/create', { syntheticPeople: 300, seed: 5 }, { tenantId: 'demo', actor: 'test' });
  } finally {
    engine.close();
  }
  const backend = new ConsoleBackend({ dataFolder: join(dir, 'data'), actor: 'console:test' });
  cleanups.push(() => backend.close());
  await backend.call('console/open-sandbox', { path: db, tenantId: 'demo' });
  return backend;
}

function clientOf(backend: ConsoleBackend): ConsoleClient {
  const transport: Transport = {
    send: (name, input) => backend.send(name, input),
    subscribe: (event, handler) =>
      backend.subscribe((name, payload) => {
        if (name === event) handler(payload);
      }),
  };
  return new ConsoleClient(transport);
}

/** Resolves with the slot's state once it satisfies the condition (checked on every change). */
function when(slots: TaskSlots, slot: string, ok: (state: SlotState) => boolean): Promise<SlotState> {
  return new Promise((resolve) => {
    if (ok(slots.get(slot))) {
      resolve(slots.get(slot));
      return;
    }
    const stop = slots.subscribe(() => {
      if (!ok(slots.get(slot))) return;
      stop();
      resolve(slots.get(slot));
    });
  });
}

type EstimateOutput = OperationOutput<'matching/estimate'>;

const SHORT = { modelVersion: 'short', randomPairs: 2_000 };
/** Five million random pairs: many seconds of work unless cancelled. */
const LONG = { modelVersion: 'long', randomPairs: 5_000_000 };

describe('task slots', () => {
  it('hold an output that arrived while no panel showed it, and hand it over once', async () => {
    const backend = await openedBackend();
    const slots = new TaskSlots(clientOf(backend));
    const slot = TaskSlots.key('sandbox', 'matching/estimate');
    slots.start(slot, 'matching/estimate', SHORT);
    expect(slots.get(slot).run?.status).toBe('queued');
    const ended = await when(slots, slot, (state) => state.run?.finishedAt != null);
    expect(ended.run?.status).toBe('completed');
    expect(ended.taken).toBe(false);
    expect((slots.take(slot) as EstimateOutput).model.modelVersion).toBe('short');
    expect(slots.take(slot)).toBeUndefined();
    // The output stays readable (the panel's data) after it was handed over.
    expect((slots.get(slot).output as EstimateOutput).model.modelVersion).toBe('short');
  });

  it('follow, in a window opened later, the task the console still runs, and cancel it', async () => {
    const backend = await openedBackend();
    const started = await backend.call('console/start-task', { operation: 'matching/estimate', input: LONG });
    const slots = new TaskSlots(clientOf(backend));
    const slot = TaskSlots.key('sandbox', 'matching/estimate');
    const other = TaskSlots.key('sandbox', 'matching/evaluate');
    slots.adopt(other, 'matching/evaluate');
    slots.adopt(slot, 'matching/estimate');
    const followed = await when(slots, slot, (state) => state.run?.progress != null);
    expect(followed.run?.runId).toBe(started.runId);
    expect(followed.run?.status).toBe('running');
    slots.cancel(slot);
    const cancelled = await when(slots, slot, (state) => state.run?.finishedAt != null);
    expect(cancelled.run?.status).toBe('cancelled');
    expect(cancelled.error).toBeNull();
    // No evaluation ran: its slot adopted nothing.
    expect(slots.get(other).run).toBeNull();
  });

  it('show only the newest start of a slot', async () => {
    const backend = await openedBackend();
    const slots = new TaskSlots(clientOf(backend));
    const slot = TaskSlots.key('sandbox', 'matching/estimate');
    slots.start(slot, 'matching/estimate', LONG);
    const first = (await when(slots, slot, (state) => state.run?.progress != null)).run?.runId ?? '';
    slots.start(slot, 'matching/estimate', SHORT);
    const shown: string[] = [];
    const stop = slots.subscribe(() => {
      shown.push(slots.get(slot).run?.runId ?? '');
    });
    // The first run, cancelled in the console, ends there: its end is not this slot's any more.
    await backend.call('console/cancel-task', { runId: first });
    const ended = await when(slots, slot, (state) => state.run?.finishedAt != null);
    stop();
    expect(ended.run?.status).toBe('completed');
    expect(ended.run?.runId).not.toBe(first);
    expect(shown).not.toContain(first);
    expect((slots.take(slot) as EstimateOutput).model.modelVersion).toBe('short');
    const { rows } = await backend.call('console/tasks', {});
    expect(rows.find((row) => row.runId === first)?.status).toBe('cancelled');
  });
});
