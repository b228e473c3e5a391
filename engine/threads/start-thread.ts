/**
 * Starts a worker thread on a module of this code base: TypeScript when it runs from source (loaded through
 * tsx, which a thread does not inherit from its parent), JavaScript when built for packaging. The one place that
 * knows how a thread finds its module; the host's threads (main/engine-host/) and ingestion's preparation thread
 * start here.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** The module `name` beside `base` (the caller's import.meta.url), with the extension the caller itself has. */
export function threadEntry(name: string, base: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

export function startThread(
  entry: URL,
  data: Record<string, unknown>,
  options: { readonly resourceLimits?: ResourceLimits } = {},
): Worker {
  // No inherited Node flags: the thread needs none, and some (--input-type, --eval) would stop it from loading.
  return new Worker(new URL('./bootstrap.js', import.meta.url), {
    workerData: { ...data, entry: entry.href },
    execArgv: [],
    ...(options.resourceLimits === undefined ? {} : { resourceLimits: options.resourceLimits }),
  });
}
