/**
 * The engine's front door: what the shells (the CLI, `serve`, the console backend, the engine threads) may use
 * besides the contract (engine/contract/, a package of its own that the renderer shares). Lint refuses an import
 * from main/ into any other engine module, so the engine's inside can move without the shells noticing (Medplum's
 * one barrel; VS Code's no-deep-import rule).
 *
 *   the engine          LocalEngine (the contract over a registry), EngineEnv (its store and configuration)
 *   long operations     RunControl and its flag form
 *   jobs                runWorker and its events
 *   configuration       the Api and Maintenance sections
 *   operations the CLI runs in-process    ingestion from a stream, sandbox creation, the whole record list, FHIR
 *                       sources, blocking keys, synthetic populations, label files (the FEBRL loader has its own door,
 *                       engine/benchmark/index.ts, since the console is built without engine/benchmark/)
 *   and host-side.ts    what a host's own thread uses without loading the engine: tracked runs, the store and its
 *                       tenants, shared helpers. Importing this file loads the whole engine; a module that runs on
 *                       the console's request thread imports engine/host-side.ts instead, and how a thread starts
 *                       is engine/threads/start-thread.ts
 */
export { LocalEngine, hooksControl, type LocalEngineOptions } from './local-engine.ts';
export type { EngineEnv } from './env.ts';
export { flagControl, isRunCancelled, NO_CONTROL, RunCancelled, type RunControl } from './run-control.ts';
export { runWorker, workerOwnerName, type WorkerEvent, type WorkerOptions } from './jobs/worker.ts';
export { ApiSettingsSchema, ASYMMETRIC_ALGORITHMS, type ApiSettings, type DevAuthSettings } from './config/api.ts';
export { maintenanceSettings, MaintenanceSettingsSchema, type MaintenanceSettings } from './config/maintenance.ts';
export { ingestStream } from './operations/ingest.ts';
export { linesOfBytes } from './ingest/load-size.ts';
export { createSandbox } from './operations/sandbox.ts';
export { eachRecordIdentity } from './operations/lists.ts';
export { checkSource, listSources } from './operations/sources.ts';
export { addBlockingKey, listBlockingKeys, removeBlockingKey } from './operations/blocking-keys.ts';
export { loadSynthetic } from './synthetic/load.ts';
export { parseLabelsTsv, type LabelPair } from './assurance/labels.ts';
export * from './host-side.ts';
