/**
 * Starts one of the host's worker threads. Engine work runs in threads so the thread that answers requests (the
 * registry API, the console's backend) never waits on SQLite or on a long computation.
 */
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { startThread as startModuleThread, threadEntry } from '../../engine/index.ts';

export type ThreadName = 'engine-thread' | 'job-thread' | 'sandbox-thread';

export function startThread(name: ThreadName, data: Record<string, unknown>, resourceLimits?: ResourceLimits): Worker {
  return startModuleThread(
    threadEntry(name, import.meta.url),
    data,
    resourceLimits === undefined ? {} : { resourceLimits },
  );
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
