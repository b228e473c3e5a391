/**
 * The runs one process is tracking (contract/runs.ts): their state, progress, output, and the rules around them.
 * How a run computes is the executor's business: the local engine runs it in-process, the engine pool in a worker
 * thread. This registry owns what every host must do alike:
 *
 *  - IDs are random (128 bits) and scoped to the tenant that started the run: another tenant's ID is not found;
 *  - at most MAX_ACTIVE_PER_TENANT queued or running runs per tenant, so one tenant cannot take every worker;
 *  - a run nobody follows (no read, no waiter) for ORPHAN_MS is cancelled: a client that went away does not leave
 *    a computation behind it;
 *  - an ended run stays readable RUN_KEPT_MS (and at most KEPT_PER_TENANT of them), then is forgotten;
 *  - close() cancels every run (a stopping server).
 */
import { randomBytes } from 'node:crypto';
import { conflict, EngineError, isEngineError, notFound, type ErrorData } from '../contract/errors.ts';
import type { CallContext } from '../contract/operations.ts';
import { isFinalRunStatus, RUN_KEPT_MS, type RunOperation, type RunProgress, type RunState } from '../contract/runs.ts';

export const MAX_ACTIVE_PER_TENANT = 4;
export const ORPHAN_MS = 60_000;
const KEPT_PER_TENANT = 50;
const SWEEP_MS = 5_000;

/** What an executor is handed: where to report progress, and the signal that asks it to stop. */
export interface RunHooks {
  readonly progress: (progress: RunProgress) => void;
  readonly signal: AbortSignal;
}

export type RunExecutor = (
  operation: RunOperation,
  input: unknown,
  ctx: CallContext,
  hooks: RunHooks,
) => Promise<unknown>;

interface Run {
  state: RunState;
  readonly tenantId: string;
  readonly controller: AbortController;
  readonly settled: Promise<void>;
  lastReadAt: number;
  waiters: number;
  cancelReason: string | null;
}

export type RunListener = (tenantId: string, state: RunState) => void;

function errorOf(error: unknown): NonNullable<RunState['error']> {
  const data: ErrorData = isEngineError(error)
    ? error.toData()
    : {
        type: 'EngineError',
        kind: 'internal',
        message: `the run failed unexpectedly (${error instanceof Error ? error.name : 'error'})`,
        issues: [],
      };
  return { kind: data.kind, message: data.message, issues: [...data.issues] };
}

/** The state without the output (lists, events of a run still going). */
function summary(state: RunState): RunState {
  if (state.output === undefined) return state;
  const copy = { ...state };
  delete copy.output;
  return copy;
}

export class RunRegistry {
  private readonly runs = new Map<string, Run>();
  private readonly listeners = new Set<RunListener>();
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly execute: RunExecutor,
    private readonly now: () => number = Date.now,
    private readonly orphanMs: number = ORPHAN_MS,
  ) {
    this.sweeper = setInterval(() => {
      this.sweep();
    }, SWEEP_MS);
    this.sweeper.unref();
  }

  /** Called with every change of a run's status or progress (the output is not included). */
  subscribe(listener: RunListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  start(operation: RunOperation, input: unknown, ctx: CallContext): RunState {
    if (this.closed) throw conflict('the server is stopping: no new run is started');
    const active = [...this.runs.values()].filter(
      (r) => r.tenantId === ctx.tenantId && !isFinalRunStatus(r.state.status),
    ).length;
    if (active >= MAX_ACTIVE_PER_TENANT) {
      throw new EngineError(
        'conflict',
        `this tenant already has ${String(active)} runs queued or running (at most ${String(MAX_ACTIVE_PER_TENANT)}); wait for one to end or cancel one`,
      );
    }
    const runId = randomBytes(16).toString('base64url');
    const controller = new AbortController();
    const state: RunState = {
      runId,
      operation,
      status: 'queued',
      progress: null,
      startedAt: new Date(this.now()).toISOString(),
      finishedAt: null,
      error: null,
    };
    let settle: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const run: Run = {
      state,
      tenantId: ctx.tenantId,
      controller,
      settled,
      lastReadAt: this.now(),
      waiters: 0,
      cancelReason: null,
    };
    this.runs.set(runId, run);
    this.forgetOld(ctx.tenantId);
    this.emit(run);
    void this.execute(operation, input, ctx, {
      signal: controller.signal,
      progress: (progress) => {
        if (isFinalRunStatus(run.state.status)) return;
        run.state = { ...run.state, status: 'running', progress };
        this.emit(run);
      },
    }).then(
      (output) => {
        this.finish(
          run,
          controller.signal.aborted
            ? { status: 'cancelled', error: this.cancelError(run) }
            : { status: 'completed', output },
        );
        settle();
      },
      (error: unknown) => {
        this.finish(
          run,
          controller.signal.aborted
            ? { status: 'cancelled', error: this.cancelError(run) }
            : { status: 'failed', error: errorOf(error) },
        );
        settle();
      },
    );
    return summary(run.state);
  }

  /** A run of the tenant, with its output once completed. */
  get(runId: string, tenantId: string): RunState {
    const run = this.own(runId, tenantId);
    run.lastReadAt = this.now();
    return run.state;
  }

  /** As get, once the run has ended or `waitMs` has passed, whichever comes first. */
  async getWhenEnded(runId: string, tenantId: string, waitMs: number): Promise<RunState> {
    const run = this.own(runId, tenantId);
    if (waitMs > 0 && !isFinalRunStatus(run.state.status)) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
      });
      try {
        await Promise.race([run.settled, timeout]);
      } finally {
        clearTimeout(timer);
      }
    }
    return this.get(runId, tenantId);
  }

  cancel(runId: string, tenantId: string, reason = 'cancelled on request'): RunState {
    const run = this.own(runId, tenantId);
    this.abort(run, reason);
    return summary(run.state);
  }

  list(tenantId: string): RunState[] {
    return [...this.runs.values()]
      .filter((r) => r.tenantId === tenantId)
      .map((r) => summary(r.state))
      .reverse();
  }

  /**
   * Waits for the run to end and returns its final state (with the output). The waiter follows the run, so it is
   * no orphan; when `signal` aborts (the caller went away) the run is cancelled.
   */
  async wait(runId: string, tenantId: string, signal?: AbortSignal): Promise<RunState> {
    const run = this.own(runId, tenantId);
    run.waiters++;
    const onAbort = (): void => {
      this.abort(run, 'cancelled: the caller waiting for it went away');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted === true) onAbort();
    try {
      await run.settled;
    } finally {
      run.waiters--;
      signal?.removeEventListener('abort', onAbort);
    }
    run.lastReadAt = this.now();
    return run.state;
  }

  /** Cancels every run and waits until each has ended. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    const runs = [...this.runs.values()];
    for (const run of runs) this.abort(run, 'cancelled: the server is stopping');
    await Promise.all(runs.map((r) => r.settled));
  }

  private own(runId: string, tenantId: string): Run {
    const run = this.runs.get(runId);
    // Another tenant's run is indistinguishable from none.
    if (run?.tenantId !== tenantId)
      throw notFound('no run with this ID exists in this tenant (ended runs are kept 30 minutes)');
    return run;
  }

  private abort(run: Run, reason: string): void {
    if (isFinalRunStatus(run.state.status) || run.controller.signal.aborted) return;
    run.cancelReason = reason;
    run.controller.abort();
  }

  private cancelError(run: Run): NonNullable<RunState['error']> {
    return {
      kind: 'conflict',
      message: `the run was ${run.cancelReason ?? 'cancelled'}; nothing was written`,
      issues: [],
    };
  }

  private finish(
    run: Run,
    end:
      | { status: 'completed'; output: unknown }
      | { status: 'failed' | 'cancelled'; error: NonNullable<RunState['error']> },
  ): void {
    const finishedAt = new Date(this.now()).toISOString();
    // A completed run did all of its last phase, whatever its last step reported (a phase shorter than one step
    // reports only its start: "0 of 966"). A failed or cancelled run keeps where it stopped.
    const { progress } = run.state;
    run.state =
      end.status === 'completed'
        ? {
            ...run.state,
            status: 'completed',
            progress: progress?.total == null ? progress : { ...progress, done: progress.total },
            finishedAt,
            error: null,
            output: end.output,
          }
        : { ...run.state, status: end.status, finishedAt, error: end.error };
    run.lastReadAt = this.now();
    this.emit(run);
  }

  private emit(run: Run): void {
    const state = summary(run.state);
    for (const listener of this.listeners) {
      try {
        listener(run.tenantId, state);
      } catch {
        // One broken listener must not stop the others.
      }
    }
  }

  private sweep(): void {
    const now = this.now();
    for (const [runId, run] of this.runs) {
      if (isFinalRunStatus(run.state.status)) {
        if (now - run.lastReadAt > RUN_KEPT_MS) this.runs.delete(runId);
      } else if (run.waiters === 0 && now - run.lastReadAt > this.orphanMs) {
        this.abort(
          run,
          `cancelled: nobody followed it for ${String(Math.round(this.orphanMs / 1000))} s (the caller went away)`,
        );
      }
    }
  }

  private forgetOld(tenantId: string): void {
    const ended = [...this.runs.entries()].filter(
      ([, r]) => r.tenantId === tenantId && isFinalRunStatus(r.state.status),
    );
    for (const [runId] of ended.slice(0, Math.max(0, ended.length - KEPT_PER_TENANT))) this.runs.delete(runId);
  }
}
