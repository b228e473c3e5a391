/**
 * The engine's front door: what the shells (the CLI, `serve`, the console backend, the engine threads) may use
 * besides the contract (engine/contract/, a package of its own that the renderer shares). Lint refuses an import
 * from main/ into any other engine module, so the engine's inside can move without the shells noticing (Medplum's
 * one barrel; VS Code's no-deep-import rule).
 *
 *   the engine          LocalEngine (the contract over a registry), EngineEnv (its store and configuration)
 *   long operations     RunControl and its flag form, RunRegistry (tracked runs)
 *   jobs                runWorker and its events, the tenants a registry holds
 *   configuration       the Api and Maintenance sections, where a database's configuration file is
 *   operations the CLI runs in-process    ingestion from a stream, sandbox creation, FHIR sources, blocking keys,
 *                       synthetic populations, label files (the FEBRL loader has its own door,
 *                       engine/benchmark/index.ts, since the console is built without engine/benchmark/)
 *   threads             how a thread starts on a module of this code base (source or built) has a door of its own,
 *                       engine/threads/start-thread.ts, which loads nothing else: a host starts its first engine
 *                       thread there before it loads the engine
 *   shared helpers      transient HTTP failures and backoff (the remote client retries as the engine does), atomic
 *                       file writes, the store (opened read-only to check a file before a sandbox is opened)
 */
export { LocalEngine, hooksControl, type LocalEngineOptions } from './local-engine.ts';
export type { EngineEnv } from './env.ts';
export { flagControl, isRunCancelled, NO_CONTROL, RunCancelled, type RunControl } from './run-control.ts';
export { RunRegistry, type RunExecutor, type RunHooks, type RunListener } from './runs/registry.ts';
export { runWorker, workerOwnerName, type WorkerEvent, type WorkerOptions } from './jobs/worker.ts';
export { listTenantIds } from './jobs/job-store.ts';
export {
  ApiSettingsSchema,
  ASYMMETRIC_ALGORITHMS,
  DEFAULT_TENANT_CLAIM,
  type ApiSettings,
  type DevAuthSettings,
} from './config/api.ts';
export { maintenanceSettings, MaintenanceSettingsSchema, type MaintenanceSettings } from './config/maintenance.ts';
export { settingsPathFor } from './config/settings.ts';
export { ingestStream } from './operations/ingest.ts';
export { createSandbox } from './operations/sandbox.ts';
export { checkSource, listSources } from './operations/sources.ts';
export { addBlockingKey, listBlockingKeys, removeBlockingKey } from './operations/blocking-keys.ts';
export { loadSynthetic } from './synthetic/load.ts';
export { parseLabelsTsv, type LabelPair } from './assurance/labels.ts';
export { datasetDigest } from './assurance/dataset-digest.ts';
export { fullJitterBackoff } from './net/backoff.ts';
export { LazyAgent } from './net/lazy-agent.ts';
export { isTransientNetworkError, isTransientStatus, networkErrorCode, retryAfterMs } from './net/transient.ts';
export { targetKind, writeFileAtomic } from './files/atomic-file.ts';
export { Store, describeLocation, isPostgresUrl, storeFailure } from './store/store.ts';
