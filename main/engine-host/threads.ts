/**
 * Starts one of the host's worker threads. Engine work runs in threads so the thread that answers requests (the
 * registry API, the console's backend) never waits on SQLite or on a long computation.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';

export type ThreadName = 'engine-thread' | 'job-thread' | 'sandbox-thread';

export function startThread(name: ThreadName, data: Record<string, unknown>, resourceLimits?: ResourceLimits): Worker {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const entry = new URL(`./${name}${extension}`, import.meta.url).href;
  // No inherited Node flags: the thread needs none, and some (--input-type, --eval) would stop it from loading.
  return new Worker(new URL('./bootstrap.js', import.meta.url), {
    workerData: { ...data, entry },
    execArgv: [],
    ...(resourceLimits === undefined ? {} : { resourceLimits }),
  });
}
