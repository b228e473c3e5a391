/**
 * The engine behind one front door, off the thread that answers requests (Actual Budget's shape: the engine in its
 * own thread, the host only relays). A small pool of engine threads (engine-thread.ts), each with its own SQLite
 * connection, in two lanes:
 *
 *   short  one thread (or more) kept for quick calls: a job's state, a job list, the profile, a cancel, a start.
 *          A long run can never take it, so a job GET is answered while an estimate computes.
 *   long   the other threads: the tracked runs (estimate, evaluation, calibration, label sample, candidate draw)
 *          and the calls that read a whole tenant (ingestion, identity and review lists). A quick call may use an
 *          idle long thread too.
 *
 * The long lane may start later than the short one (longThreadsAfterMs: the console's window loads first on a
 * workstation of two cores), and at once when a long call comes before. Calls wait in their lane's queue when every
 * thread that may take them is busy. The runs/* operations are this
 * pool's run registry (engine/runs/registry.ts); a run operation called directly (the specification's synchronous
 * evaluation and calibration) is a run the pool waits for. A thread that crashes or runs out of memory fails its
 * call with an internal error that says so, and is replaced; the pool stays up. A thread that cannot open the
 * registry at all (its file gone or unreadable) is replaced only after a pause that doubles at each failure, up to
 * a minute, and the calls no thread can take meanwhile fail at once and say so: never a loop starting threads.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { EngineError } from '../../engine/contract/errors.ts';
import type {
  CallContext,
  EngineClient,
  OperationInput,
  OperationName,
  OperationOutput,
} from '../../engine/contract/operations.ts';
import { isRunOperation, type RunOperation, type RunProgress } from '../../engine/contract/runs.ts';
import { operations } from '../../engine/contract/operations.ts';
import { zodIssues } from '../../engine/contract/zod-issues.ts';
import { RunRegistry, type RunHooks } from '../../engine/host-side.ts';
import { bodyInput, type BodyBytes } from '../net/json-body.ts';
import { fromErrorData } from './errors.ts';
import { Intake } from './intake.ts';
import { checkRunStart } from './run-start.ts';
import type { EngineCallMessage, EngineThreadCommand, EngineThreadData, EngineThreadMessage } from './messages.ts';
import { startEngineThread, startNowOrLater } from './threads.ts';

type Lane = 'short' | 'long';

/** Calls that read or write a whole tenant: never on the short lane. */
const LONG_CALLS: ReadonlySet<string> = new Set([
  'records/ingest',
  'sandbox/create',
  'identities/list',
  'reviews/list',
  'reviews/labels',
]);

export function laneOf(name: string): Lane {
  return isRunOperation(name) || LONG_CALLS.has(name) ? 'long' : 'short';
}

export interface EnginePoolOptions extends EngineThreadData {
  /** Threads for long calls (default: the machine's cores less one, 1 to 3). */
  readonly longThreads?: number;
  /** Threads kept for quick calls (default 1; at least 1). */
  readonly shortThreads?: number;
  /** The run registry's orphan delay (tests shorten it). */
  readonly orphanMs?: number;
  /**
   * Start the long lane this long after the short one, or at the first long call if it comes sooner (default 0:
   * together, and open() waits for both).
   */
  readonly longThreadsAfterMs?: number;
  /** The heap limit of each long thread, in MiB (default: Node's); a run beyond it fails and its thread is replaced. */
  readonly longThreadHeapMb?: number;
  /**
   * An engine thread started before the pool (threads.ts, startEngineThread), not told yet what to open: the first
   * quick-call thread. The console's host starts one before it loads itself, so the engine loads on another core
   * meanwhile.
   */
  readonly startedThread?: Worker;
}

/**
 * An input still in its request body's bytes (callWithBody): it passes through the run registry and the queues as it
 * is, and the engine thread that takes it parses it.
 */
class BodyInput {
  constructor(readonly body: BodyBytes) {}
}

/** The message handing a call to a thread: its input, or its body's bytes for the thread to parse. */
function callMessage(name: string, input: unknown, ctx: CallContext, cancel?: SharedArrayBuffer): EngineCallMessage {
  return {
    type: 'call',
    id: 0,
    name,
    ctx: { tenantId: ctx.tenantId, actor: ctx.actor },
    ...(input instanceof BodyInput ? { input: undefined, body: input.body } : { input }),
    ...(cancel === undefined ? {} : { cancel }),
  };
}

interface Task {
  readonly id: number;
  readonly message: EngineCallMessage;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly onProgress?: (progress: RunProgress) => void;
}

interface Slot {
  readonly lane: Lane;
  readonly worker: Worker;
  busy: Task | undefined;
  readonly ready: Promise<void>;
  /** The thread has opened the registry. */
  opened: boolean;
  /** The thread has stopped; the slot waits for its replacement. */
  dead: boolean;
}

/** After a thread could not open the registry, the pause before its replacement: doubled at each failure in a row. */
const REOPEN_FIRST_MS = 1_000;
const REOPEN_MAX_MS = 60_000;

function deferred(): {
  promise: Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
} {
  let resolve: (value: unknown) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<unknown>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export interface PoolStats {
  /** The live threads (a stopped one waiting for its replacement is not listed). */
  readonly threads: { readonly lane: Lane; readonly busy: boolean }[];
  readonly queued: { readonly short: number; readonly long: number };
  /** Threads started since the pool opened, replacements included. */
  readonly started: number;
}

/** A thread of the long lane also takes quick calls. */
function serves(slot: Slot, lane: Lane): boolean {
  return slot.lane === lane || (lane === 'short' && slot.lane === 'long');
}

export class EnginePool implements EngineClient {
  readonly runs: RunRegistry;
  private readonly slots: Slot[] = [];
  private readonly queues: Record<Lane, Task[]> = { short: [], long: [] };
  private nextId = 1;
  private closing = false;
  private readonly longThreads: number;
  private longLaneTimer: NodeJS.Timeout | undefined;
  private started = 0;
  /** Threads in a row that could not open the registry (none since one did). */
  private openFailures = 0;
  private readonly reopenTimers = new Set<NodeJS.Timeout>();
  private readonly intake = new Intake();

  private constructor(private readonly options: EnginePoolOptions) {
    this.runs = new RunRegistry(
      (operation, input, ctx, hooks) => this.runOnThread(operation, input, ctx, hooks),
      Date.now,
      options.orphanMs,
    );
    const cores = availableParallelism();
    this.longThreads = options.longThreads ?? Math.max(1, Math.min(3, cores - 1));
    const short = Math.max(1, options.shortThreads ?? 1);
    for (let i = 0; i < short; i++) this.slots.push(this.spawn('short', i === 0 ? options.startedThread : undefined));
    this.longLaneTimer = startNowOrLater(options.longThreadsAfterMs, () => {
      this.startLongLane();
    });
  }

  /**
   * Starts the threads (the long lane's later when asked) and returns at once: a call made meanwhile waits for its
   * thread to open the registry, and fails (as any call does while no thread can open it) if it cannot. The caller
   * has checked that the registry opens.
   */
  static start(options: EnginePoolOptions): EnginePool {
    const pool = new EnginePool(options);
    // Nobody waits for these: a thread that cannot open fails the calls handed to it instead.
    for (const slot of pool.slots) void slot.ready.catch(() => undefined);
    return pool;
  }

  /**
   * Starts the threads (the long lane's later when asked); resolves once each started has opened the registry (or
   * rejects with why the first could not).
   */
  static async open(options: EnginePoolOptions): Promise<EnginePool> {
    const pool = EnginePool.start(options);
    try {
      await Promise.all(pool.slots.map((slot) => slot.ready));
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  async call<K extends OperationName>(
    name: K,
    input: OperationInput<K>,
    context: CallContext,
  ): Promise<OperationOutput<K>> {
    return this.callWith(name, input, context);
  }

  /**
   * A call, with a signal for the caller going away: a run it waits for is then cancelled (an HTTP client that
   * disconnected from a synchronous evaluation leaves nothing computing).
   */
  async callWith<K extends OperationName>(
    name: K,
    input: OperationInput<K>,
    context: CallContext,
    signal?: AbortSignal,
  ): Promise<OperationOutput<K>> {
    if (this.closing) throw new EngineError('conflict', 'the engine is stopping; try again once it has restarted');
    switch (name) {
      case 'runs/start': {
        const { operation, input: runInput } = checkRunStart(input);
        await this.requireTenant(context);
        return this.runs.start(operation, runInput, context) as OperationOutput<K>;
      }
      case 'runs/get': {
        await this.requireTenant(context);
        const { runId, waitMs } = this.runInput(input);
        return (await this.runs.getWhenEnded(runId, context.tenantId, waitMs ?? 0)) as OperationOutput<K>;
      }
      case 'runs/cancel':
        await this.requireTenant(context);
        return this.runs.cancel(this.runIdOf(input), context.tenantId) as OperationOutput<K>;
      case 'runs/list':
        await this.requireTenant(context);
        return { rows: this.runs.list(context.tenantId) } as OperationOutput<K>;
      default:
        break;
    }
    if (isRunOperation(name)) {
      const started = this.runs.start(name, input, context);
      const ended = await this.runs.wait(started.runId, context.tenantId, signal);
      if (ended.status === 'completed') return ended.output as OperationOutput<K>;
      const error = ended.error ?? {
        kind: 'internal' as const,
        message: 'the run ended without an answer',
        issues: [],
      };
      throw new EngineError(error.kind, error.message, error.issues);
    }
    return (await this.submit(laneOf(name), name, input, context)) as OperationOutput<K>;
  }

  /**
   * callWith for an input still in its request body's bytes (a large body the registry API did not parse: see
   * main/net/json-body.ts), with the path's parameters: an engine thread parses it, and a run's start is checked on
   * the intake thread, so the thread answering requests never reads it. The answers and refusals are callWith's.
   */
  async callWithBody<K extends OperationName>(
    name: K,
    body: BodyBytes,
    context: CallContext,
    signal?: AbortSignal,
  ): Promise<OperationOutput<K>> {
    if (this.closing) throw new EngineError('conflict', 'the engine is stopping; try again once it has restarted');
    if (name === 'runs/start') {
      const operation = await this.intake.check(body.bytes);
      await this.requireTenant(context);
      return this.runs.start(operation, new BodyInput({ ...body, pick: 'input' }), context) as OperationOutput<K>;
    }
    // The other run calls take a run ID and a wait at most: never a large body but by mistake, read here.
    if (name.startsWith('runs/')) return this.callWith(name, bodyInput(name, body) as never, context, signal);
    return this.callWith(name, new BodyInput(body) as never, context, signal);
  }

  /** What the threads are doing (the bench and the console show it). */
  stats(): PoolStats {
    return {
      threads: this.slots.filter((s) => !s.dead).map((s) => ({ lane: s.lane, busy: s.busy !== undefined })),
      queued: { short: this.queues.short.length, long: this.queues.long.length },
      started: this.started,
    };
  }

  /** Cancels every run, lets each thread finish its call, then stops the threads. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearTimeout(this.longLaneTimer);
    for (const timer of this.reopenTimers) clearTimeout(timer);
    await this.runs.close();
    await this.intake.close();
    for (const lane of ['short', 'long'] as const) {
      for (const task of this.queues[lane].splice(0))
        task.reject(new EngineError('conflict', 'the engine stopped before this call ran'));
    }
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.dead) return;
        while (slot.busy !== undefined) await new Promise((resolve) => setTimeout(resolve, 10));
        slot.worker.postMessage({ type: 'close' });
        await slot.worker.terminate();
      }),
    );
  }

  /** A tenant this registry does not hold is refused as the engine refuses it (not found), before any run is touched. */
  private async requireTenant(context: CallContext): Promise<void> {
    await this.submit('short', 'profile/summary', {}, context);
  }

  private runInput(input: unknown): OperationInput<'runs/get'> {
    const parsed = operations['runs/get'].input.safeParse(input);
    if (!parsed.success)
      throw new EngineError('validation', 'invalid input for a run', zodIssues(parsed.error, '', false));
    return parsed.data;
  }

  private runIdOf(input: unknown): string {
    return this.runInput(input).runId;
  }

  private runOnThread(operation: RunOperation, input: unknown, ctx: CallContext, hooks: RunHooks): Promise<unknown> {
    const cancel = new SharedArrayBuffer(4);
    const { promise, resolve, reject } = deferred();
    const task: Task = {
      id: this.nextId++,
      message: callMessage(operation, input, ctx, cancel),
      resolve,
      reject,
      onProgress: hooks.progress,
    };
    const onAbort = (): void => {
      Atomics.store(new Int32Array(cancel), 0, 1);
      // A run still queued never reaches a thread.
      this.dequeue(task);
    };
    hooks.signal.addEventListener('abort', onAbort, { once: true });
    this.enqueue('long', task);
    return promise.finally(() => {
      hooks.signal.removeEventListener('abort', onAbort);
    });
  }

  private submit(lane: Lane, name: string, input: unknown, ctx: CallContext): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.enqueue(lane, {
        id: this.nextId++,
        message: callMessage(name, input, ctx),
        resolve,
        reject,
      });
    });
  }

  private enqueue(lane: Lane, task: Task): void {
    // A long call starts a long lane not started yet; one of its new threads takes the call below.
    if (lane === 'long') this.startLongLane();
    const slot = this.slots.find((s) => !s.dead && s.busy === undefined && serves(s, lane));
    if (slot !== undefined) this.dispatch(slot, task);
    else if (this.servable(lane)) this.queues[lane].push(task);
    else task.reject(this.cannotOpen());
  }

  /** Whether a live thread (open or opening) may take this lane's calls. */
  private servable(lane: Lane): boolean {
    return this.slots.some((s) => !s.dead && serves(s, lane));
  }

  private cannotOpen(): EngineError {
    const seconds = Math.ceil(this.reopenDelay() / 1000);
    // The thread's own reason names the database's path: kept from remote callers.
    return new EngineError(
      'internal',
      `the engine could not open the registry's database; it tries again within ${String(seconds)} s. If this goes on, whoever runs the registry should check that its database file is in place and readable`,
    );
  }

  private reopenDelay(): number {
    return Math.min(REOPEN_MAX_MS, REOPEN_FIRST_MS * 2 ** Math.max(0, this.openFailures - 1));
  }

  /**
   * A thread that never opened the registry stopped: its call and the calls no other thread can take fail now, and
   * the replacement starts after a pause (doubled at each failure in a row), so a registry that cannot be opened
   * never sets the pool starting threads in a loop.
   */
  private couldNotOpen(slot: Slot, task: Task | undefined): void {
    this.openFailures++;
    const error = this.cannotOpen();
    task?.reject(error);
    for (const lane of ['short', 'long'] as const) {
      if (this.servable(lane)) continue;
      for (const waiting of this.queues[lane].splice(0)) waiting.reject(error);
    }
    const timer = setTimeout(() => {
      this.reopenTimers.delete(timer);
      this.replace(slot);
    }, this.reopenDelay());
    timer.unref();
    this.reopenTimers.add(timer);
  }

  /** A new thread in a stopped thread's place; it takes a waiting call once open. */
  private replace(slot: Slot): void {
    if (this.closing) return;
    const replacement = this.spawn(slot.lane);
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots[index] = replacement;
    void replacement.ready.then(
      () => {
        this.next(replacement);
      },
      () => undefined,
    );
  }

  /**
   * The long lane's threads, once. Each takes a waiting call at once: its message waits for the thread to open, and
   * a thread that cannot open fails it, as a crash does.
   */
  private startLongLane(): void {
    if (this.closing || this.slots.some((s) => s.lane === 'long')) return;
    clearTimeout(this.longLaneTimer);
    for (let i = 0; i < this.longThreads; i++) {
      const slot = this.spawn('long');
      this.slots.push(slot);
      void slot.ready.catch(() => undefined);
      this.next(slot);
    }
  }

  private dequeue(task: Task): void {
    const index = this.queues.long.indexOf(task);
    if (index < 0) return;
    this.queues.long.splice(index, 1);
    task.reject(new EngineError('conflict', 'the run was cancelled before it started'));
  }

  /**
   * Hands a task to a thread. A message that cannot be copied to the thread (nested too deeply for the structured
   * clone, which recurses) fails that call only: the thread never saw it, so it is free for the next task. Left
   * busy, two such calls would hold every thread and the pool would answer nothing again, nor close.
   */
  private dispatch(slot: Slot, task: Task): void {
    slot.busy = task;
    try {
      slot.worker.postMessage({ ...task.message, id: task.id });
    } catch {
      slot.busy = undefined;
      task.reject(
        new EngineError(
          'validation',
          `the input of ${task.message.name} could not be handed to the engine: it nests too deeply or holds values that cannot be copied`,
        ),
      );
      if (!this.closing) this.next(slot);
    }
  }

  /** The next task for a freed slot: its own lane first; a long thread also takes quick calls. */
  private next(slot: Slot): void {
    // A replacement thread still opening may already hold a call handed to it while it was free.
    if (slot.busy !== undefined || slot.dead) return;
    const task =
      slot.lane === 'short' ? this.queues.short.shift() : (this.queues.long.shift() ?? this.queues.short.shift());
    if (task !== undefined) this.dispatch(slot, task);
  }

  private spawn(lane: Lane, started?: Worker): Slot {
    const data: EngineThreadData = {
      dbPath: this.options.dbPath,
      ...(this.options.settingsPath === undefined ? {} : { settingsPath: this.options.settingsPath }),
      ...(this.options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: this.options.busyTimeoutMs }),
    };
    const heap = lane === 'long' ? this.options.longThreadHeapMb : undefined;
    const worker = started ?? startEngineThread(heap === undefined ? undefined : { maxOldGenerationSizeMb: heap });
    const open: EngineThreadCommand = { type: 'open', data };
    worker.postMessage(open);
    const opening = deferred();
    const opened = (): void => {
      opening.resolve(undefined);
    };
    const failedToOpen = opening.reject;
    this.started++;
    const slot: Slot = {
      lane,
      worker,
      busy: undefined,
      ready: opening.promise.then(() => undefined),
      opened: false,
      dead: false,
    };
    worker.on('message', (message: EngineThreadMessage) => {
      switch (message.type) {
        case 'ready':
          slot.opened = true;
          this.openFailures = 0;
          opened();
          return;
        case 'open-failed':
          failedToOpen(fromErrorData(message.error));
          return;
        case 'progress':
          if (slot.busy?.id === message.id)
            slot.busy.onProgress?.({ phase: message.phase, done: message.done, total: message.total });
          return;
        case 'done':
        case 'failed': {
          const task = slot.busy;
          if (task?.id !== message.id) return;
          slot.busy = undefined;
          if (message.type === 'done') task.resolve(message.value);
          else task.reject(fromErrorData(message.error));
          if (!this.closing) this.next(slot);
          return;
        }
      }
    });
    const crashed = (why: string): void => {
      // 'error' and then 'exit' both come for one crash.
      if (slot.dead) return;
      slot.dead = true;
      const task = slot.busy;
      slot.busy = undefined;
      failedToOpen(new EngineError('internal', `the engine thread could not start (${why})`));
      if (!slot.opened && !this.closing) {
        this.couldNotOpen(slot, task);
        return;
      }
      const advice =
        why === 'out of memory'
          ? 'ask for less at once (fewer random or candidate pairs, a smaller label set), or run it with the CLI on the registry machine'
          : 'try again; if it happens again, the server log has the request';
      task?.reject(
        new EngineError(
          'internal',
          `the engine thread running ${task.message.name} stopped (${why}); it was replaced. ${advice}`,
        ),
      );
      this.replace(slot);
    };
    worker.on('error', (error: Error & { code?: string }) => {
      crashed(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out of memory' : (error.code ?? error.name));
    });
    worker.on('exit', (code) => {
      if (code !== 0 && !this.closing) crashed(`exit code ${String(code)}`);
    });
    return slot;
  }
}
