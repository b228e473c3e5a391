/**
 * The local engine: the contract's operations implemented over a SQLite registry. Every call validates its
 * input with the operation's schema (callers are untrusted) and the control-character rule over every free
 * text it carries, runs the handler and turns any unexpected failure into an internal EngineError whose
 * message carries no data (a lock wait beyond the busy timeout is a busy conflict, not an internal error).
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EngineError, isEngineError, validationError, type ErrorIssue } from './contract/errors.ts';
import { operations, type CallContext, type EngineClient, type OperationInput, type OperationName, type OperationOutput } from './contract/operations.ts';
import { zodIssues } from './contract/zod-issues.ts';
import { settingsPathFor, TENANT_ID_PATTERN } from './config/settings.ts';
import { MemorySettings, SettingsFile, type SettingsSource } from './config/settings-file.ts';
import { DEFAULT_BUSY_TIMEOUT_MS, Store, storeFailure } from './store/db.ts';
import { EngineEnv } from './env.ts';
import { freeTextIssues } from './text/free-text.ts';
import { nameRowsByLine } from './assurance/labels.ts';
import { createSandbox } from './operations/sandbox.ts';
import { ingestNdjson } from './operations/ingest.ts';
import { compareStrings } from './operations/compare.ts';
import { explainPair } from './operations/explain.ts';
import { listIdentities, listReviews } from './operations/lists.ts';
import { applyProfile, getProfile, validateProfile } from './operations/profile.ts';
import { rollbackProfile } from './operations/profile-rollback.ts';
import { profileSummary } from './operations/profile-summary.ts';
import { evaluate } from './assurance/evaluate.ts';
import { calibrate } from './assurance/calibrate.ts';
import { estimate } from './assurance/estimate.ts';
import { sampleLabels } from './assurance/sample-labels.ts';
import { candidatePairs } from './assurance/candidate-pairs.ts';
import { cancelJob, getJob, listJobs, startReconciliation, startReindex } from './operations/maintenance.ts';

type Handler<K extends OperationName> = (
  env: EngineEnv,
  input: OperationInput<K>,
  ctx: CallContext,
) => OperationOutput<K> | Promise<OperationOutput<K>>;

const handlers: { [K in OperationName]: Handler<K> } = {
  'sandbox/create': createSandbox,
  'records/ingest': ingestNdjson,
  'comparators/compare': compareStrings,
  'matching/explain': explainPair,
  'identities/list': listIdentities,
  'reviews/list': listReviews,
  'profile/get': getProfile,
  'profile/summary': profileSummary,
  'profile/validate': validateProfile,
  'profile/apply': applyProfile,
  'profile/rollback': rollbackProfile,
  'matching/evaluate': evaluate,
  'matching/calibrate': calibrate,
  'matching/estimate': estimate,
  'labels/sample': sampleLabels,
  'labels/candidates': candidatePairs,
  'maintenance/reindex': startReindex,
  'maintenance/reconcile': startReconciliation,
  'jobs/get': getJob,
  'jobs/cancel': cancelJob,
  'jobs/list': listJobs,
};

/**
 * Input subtrees checked by their own rules, with better paths: NDJSON lines by FHIR validation (line and
 * field), profile documents by profile validation (profile paths), labelled pairs by the label rules (rows).
 */
const OWN_RULES: ReadonlySet<string> = new Set(['ndjson', 'document', 'pairs']);

export interface LocalEngineOptions {
  readonly dbPath: string;
  /**
   * The configuration file with the blocking secrets; defaults to `<db without extension>.config.json`,
   * or, for an in-memory database, a configuration kept in memory (no secret is written to disk).
   */
  readonly settingsPath?: string;
  /** False: refuse to create a database that does not exist. Default true. */
  readonly create?: boolean;
  /** How long a write waits for another process's lock (database or configuration file). */
  readonly busyTimeoutMs?: number;
  /** Warnings about the configuration (an open file mode); default: process.emitWarning. */
  readonly onWarning?: (message: string) => void;
}

export class LocalEngine implements EngineClient {
  readonly env: EngineEnv;

  private constructor(env: EngineEnv) {
    this.env = env;
  }

  static open(options: LocalEngineOptions): LocalEngine {
    if (options.dbPath === '') throw validationError('the database path is empty');
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    const inMemory = options.dbPath === ':memory:' && options.settingsPath === undefined;
    const settingsPath = options.settingsPath ?? settingsPathFor(options.dbPath);
    // Checked before the database is created, so a bad --config leaves no new database behind.
    if (!inMemory && (options.create ?? true) && !existsSync(dirname(resolve(settingsPath)))) {
      throw validationError(`the folder ${dirname(settingsPath)} for the configuration file ${settingsPath} does not exist`);
    }
    const config: SettingsSource = inMemory
      ? new MemorySettings()
      : new SettingsFile(settingsPath, {
          busyTimeoutMs,
          warn:
            options.onWarning ??
            ((message) => {
              process.emitWarning(message);
            }),
        });
    // A change a crashed process left half done is settled before anything reads the configuration. An
    // engine that may create the database reads it first, so a bad configuration creates nothing.
    config.recover();
    if (options.create ?? true) config.read();
    const store = Store.open(options.dbPath, { busyTimeoutMs, create: options.create ?? true });
    return new LocalEngine(new EngineEnv(store, config));
  }

  async call<K extends OperationName>(name: K, input: OperationInput<K>, context: CallContext): Promise<OperationOutput<K>> {
    if (!TENANT_ID_PATTERN.test(context.tenantId)) {
      throw validationError('a tenant ID is 1-64 letters, digits, dot, dash or underscore');
    }
    // The name may come from a remote caller: only the contract's own operations, never an inherited member.
    if (!Object.hasOwn(operations, name)) throw validationError('unknown operation', [{ path: 'operation', message: 'not an operation of the contract' }]);
    const schema = operations[name].input;
    const parsed = schema.safeParse(input);
    const rowNumbers = (input as { rowNumbers?: unknown } | null)?.rowNumbers;
    if (!parsed.success) throw validationError(`invalid input for ${name}`, nameRowsByLine(zodIssues(parsed.error, '', false), rowNumbers));
    const text: ErrorIssue[] = freeTextIssues(parsed.data, (path) => path.length === 1 && OWN_RULES.has(String(path[0])));
    if (text.length > 0) throw validationError(`invalid input for ${name}`, text);
    const handler = handlers[name] as Handler<K>;
    try {
      return await handler(this.env, parsed.data as OperationInput<K>, context);
    } catch (error) {
      if (isEngineError(error)) throw error;
      const mapped = storeFailure(error);
      if (isEngineError(mapped)) throw mapped;
      throw new EngineError('internal', `${name} failed unexpectedly (${error instanceof Error ? error.name : 'error'})`);
    }
  }

  close(): void {
    this.env.store.close();
  }
}
