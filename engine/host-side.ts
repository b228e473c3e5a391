/**
 * The engine's side door for a host's own thread: what the console's backend, the remote client and the engine pool
 * use on the thread that answers requests, none of which loads the engine's matching, scoring or operations (about
 * half a second of a core, which the host's engine threads spend instead). The front door, engine/index.ts, exports
 * all of this too. How a thread starts has a door lighter still, engine/threads/start-thread.ts (nothing else loads:
 * the console's host starts its first engine thread there before it loads anything).
 *
 *   tracked runs        RunRegistry
 *   the registry file   the store (opened read-only to check a file, or to apply its migrations before threads open
 *                       it), the tenants it holds, where its configuration file is
 *   shared helpers      the default tenant claim, a label set's digest, transient HTTP failures and backoff (the
 *                       remote client retries as the engine does), atomic file writes, where an unexpected failure
 *                       happened (for a log line, never its text)
 */
export { RunRegistry, type RunExecutor, type RunHooks, type RunListener } from './runs/registry.ts';
export { Store, describeLocation, isPostgresUrl, storeFailure } from './store/store.ts';
export { listTenantIds } from './jobs/job-store.ts';
export { settingsPathFor } from './config/settings.ts';
export { DEFAULT_TENANT_CLAIM } from './config/api.ts';
export { datasetDigest } from './assurance/dataset-digest.ts';
export { fullJitterBackoff } from './net/backoff.ts';
export { LazyAgent } from './net/lazy-agent.ts';
export { isTransientNetworkError, isTransientStatus, networkErrorCode, retryAfterMs } from './net/transient.ts';
export { targetKind, writeFileAtomic } from './files/atomic-file.ts';
export { unexpectedTrace } from './files/unexpected-trace.ts';
