/**
 * Starts one of the backend's worker threads. The console's slow work (the maintenance worker, sandbox
 * creation) runs in threads so the backend's event loop, which answers the renderer, never waits on SQLite.
 */
import { Worker } from 'node:worker_threads';

export type ThreadName = 'job-thread' | 'sandbox-thread';

export function startThread(name: ThreadName, data: Record<string, unknown>): Worker {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const entry = new URL(`./threads/${name}${extension}`, import.meta.url).href;
  // No inherited Node flags: the thread needs none, and some (--input-type, --eval) would stop it from loading.
  return new Worker(new URL('./threads/bootstrap.js', import.meta.url), { workerData: { ...data, entry }, execArgv: [] });
}
