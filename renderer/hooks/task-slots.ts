/**
 * The long operations the pages started, kept for the whole session by slot (a connection and a panel), so leaving
 * a page does not lose them: opened again, the panel finds its run still going (progress, Cancel) or the output that
 * arrived meanwhile, handed to it once. A slot with nothing known asks the backend for a task of its operation
 * still running on this connection (console/tasks), so a reloaded window follows it too. Plain TypeScript over the
 * client: the hook (task.ts) only subscribes and renders.
 */
import type { RunOperation, RunState } from '../../engine/contract/runs.ts';
import type { ConsoleClient } from '../client/client.ts';
import { ClientError } from '../client/errors.ts';

export interface SlotState {
  /** The slot's run, from its start to its end (null: none started, or a start the backend refused). */
  readonly run: RunState | null;
  readonly error: ClientError | null;
  /** The last completed run's output. */
  readonly output: unknown;
  /** Whether that output has been handed to a panel (take). */
  readonly taken: boolean;
}

const EMPTY: SlotState = { run: null, error: null, output: undefined, taken: true };
/** Pushes of runs whose start has not answered yet, kept at most this many (the rest are other windows' runs). */
const MAX_EARLY = 50;

function startFailure(failure: unknown): ClientError {
  return failure instanceof ClientError
    ? failure
    : new ClientError({
        kind: 'internal',
        message: failure instanceof Error ? failure.message : 'the task could not start',
        issues: [],
      });
}

export class TaskSlots {
  private readonly slots = new Map<string, SlotState>();
  /** Which slot each known run belongs to. */
  private readonly runs = new Map<string, string>();
  /** States pushed before the start's reply named the run. */
  private readonly early = new Map<string, RunState>();
  /** Slots already asked about a running task (once per slot and session). */
  private readonly adopted = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly client: ConsoleClient) {
    client.subscribe('task/updated', (state) => {
      const slot = this.runs.get(state.runId);
      if (slot !== undefined) {
        this.apply(slot, state);
        return;
      }
      this.early.set(state.runId, state);
      for (const runId of [...this.early.keys()].slice(0, Math.max(0, this.early.size - MAX_EARLY)))
        this.early.delete(runId);
    });
  }

  static key(connection: string, slot: string): string {
    return `${connection}\u0000${slot}`;
  }

  get(slot: string): SlotState {
    return this.slots.get(slot) ?? EMPTY;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  start(slot: string, operation: RunOperation, input: unknown): void {
    const placeholder: RunState = {
      runId: '',
      operation,
      status: 'queued',
      progress: null,
      startedAt: new Date().toISOString(),
      finishedAt: null,
      error: null,
    };
    this.forgetRunsOf(slot);
    this.set(slot, { run: placeholder, error: null, output: undefined, taken: true });
    this.client.send('console/start-task', { operation, input }).then(
      (started) => {
        // Another start in this slot since: this run goes on in the console, unfollowed; the slot shows the newest.
        if (this.get(slot).run !== placeholder) return;
        this.runs.set(started.runId, slot);
        const pushed = this.early.get(started.runId);
        this.early.delete(started.runId);
        this.apply(slot, pushed !== undefined && pushed.status !== 'running' ? pushed : started);
      },
      (failure: unknown) => {
        if (this.get(slot).run !== placeholder) return;
        this.set(slot, { run: null, error: startFailure(failure), output: undefined, taken: true });
      },
    );
  }

  cancel(slot: string): void {
    const runId = this.get(slot).run?.runId ?? '';
    if (runId !== '') void this.client.send('console/cancel-task', { runId }).catch(() => undefined);
  }

  /** The completed output not yet handed to a panel, once; undefined when there is none. */
  take(slot: string): unknown {
    const state = this.get(slot);
    if (state.taken) return undefined;
    this.set(slot, { ...state, taken: true });
    return state.output;
  }

  /**
   * Once per slot: when nothing is known of it, follow a task of this operation that this connection still runs
   * (the newest), e.g. after the window was reloaded.
   */
  adopt(slot: string, operation: RunOperation): void {
    if (this.adopted.has(slot)) return;
    this.adopted.add(slot);
    if (this.get(slot).run !== null) return;
    this.client.send('console/tasks', {}).then(
      ({ rows }) => {
        const running = rows
          .filter((row) => row.operation === operation && row.finishedAt === null && !this.runs.has(row.runId))
          .sort((a, b) => b.startedAt.localeCompare(a.startedAt))[0];
        if (running === undefined || this.get(slot).run !== null) return;
        this.runs.set(running.runId, slot);
        this.apply(slot, this.early.get(running.runId) ?? running);
        this.early.delete(running.runId);
      },
      () => undefined,
    );
  }

  /** Forgets a slot (a panel's own task, when the panel goes): its run goes on, unfollowed. */
  drop(slot: string): void {
    this.forgetRunsOf(slot);
    this.slots.delete(slot);
    this.adopted.delete(slot);
  }

  private apply(slot: string, next: RunState): void {
    const state = this.get(slot);
    if (state.run !== null && state.run.runId !== '' && state.run.runId !== next.runId) return;
    if (next.status === 'completed' && next.output !== undefined) {
      this.set(slot, { run: { ...next, output: undefined }, error: null, output: next.output, taken: false });
    } else if (next.status === 'failed' && next.error !== null) {
      this.set(slot, {
        ...state,
        run: next,
        error: new ClientError({ ...next.error, issues: [...next.error.issues] }),
      });
    } else {
      this.set(slot, { ...state, run: next, error: null });
    }
  }

  private forgetRunsOf(slot: string): void {
    for (const [runId, owner] of this.runs) if (owner === slot) this.runs.delete(runId);
  }

  private set(slot: string, state: SlotState): void {
    this.slots.set(slot, state);
    for (const listener of this.listeners) listener();
  }
}
