/**
 * Starts one of the host's worker threads. Engine work runs in threads so the thread that answers requests (the
 * registry API, the console's backend) never waits on SQLite or on a long computation.
 *
 * This module loads no engine code (its one engine import is the threads' own door), so a host can start an engine
 * thread before it loads the rest of itself: the thread loads the engine on another core meanwhile.
 */
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { startThread as startModuleThread, threadEntry } from '../../engine/threads/start-thread.ts';

export type ThreadName = 'engine-thread' | 'job-thread' | 'sandbox-thread' | 'intake-thread';

export function startThread(name: ThreadName, data: Record<string, unknown>, resourceLimits?: ResourceLimits): Worker {
  return startModuleThread(
    threadEntry(name, import.meta.url),
    data,
    resourceLimits === undefined ? {} : { resourceLimits },
  );
}

/**
 * An engine thread (engine-thread.ts), loading the engine; it opens a registry when its first message says which
 * (`{ type: 'open', data }`). The pool starts its threads here, and the console's host starts one before it
 * loads itself, for the pool of the sandbox it opens first (EnginePoolOptions.startedThread).
 */
export function startEngineThread(resourceLimits?: ResourceLimits): Worker {
  return startThread('engine-thread', {}, resourceLimits);
}

/**
 * An engine thread started early, loading the engine until a pool takes it (or it is stopped unused). It is started
 * before the host knows which registry it will open, so the thread and the host load side by side.
 */
export class EarlyEngineThread {
  private worker: Worker | undefined;
  private failed = false;
  private readonly onFailure = (): void => {
    this.failed = true;
  };

  constructor() {
    this.worker = startEngineThread();
    // A thread that fails to load must not bring the host down: it is simply not handed on.
    this.worker.on('error', this.onFailure);
    this.worker.on('exit', this.onFailure);
  }

  /**
   * The thread, for a pool to adopt now (in the same turn: a failure after this goes to the pool's own listeners), or
   * undefined when it was taken already or failed to load; then the pool starts one of its own.
   */
  take(): Worker | undefined {
    const worker = this.worker;
    this.worker = undefined;
    if (worker === undefined) return undefined;
    worker.off('error', this.onFailure);
    worker.off('exit', this.onFailure);
    if (!this.failed) return worker;
    void worker.terminate();
    return undefined;
  }

  /** Stops the thread if no pool took it. */
  async stop(): Promise<void> {
    const worker = this.take();
    await worker?.terminate();
  }
}

/**
 * Runs `start` now, or in `ms` without keeping the process alive for it. The timer is returned, to clear when the
 * work starts sooner or is no longer wanted.
 */
export function startNowOrLater(ms: number | undefined, start: () => void): NodeJS.Timeout | undefined {
  if (ms === undefined || ms <= 0) {
    start();
    return undefined;
  }
  const timer = setTimeout(start, ms);
  timer.unref();
  return timer;
}
