/**
 * The local engine: the contract's operations implemented over a SQLite registry. Every call validates its
 * input with the operation's schema (callers are untrusted) and the control-character rule over every free
 * text it carries, runs the handler and turns any unexpected failure into an internal EngineError whose
 * message carries no data (a lock wait beyond the busy timeout is a busy conflict, not an internal error).
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EngineError, isEngineError, validationError, type ErrorIssue } from './contract/errors.ts';
import {
  operations,
  type CallContext,
  type EngineClient,
  type OperationInput,
  type OperationName,
  type OperationOutput,
} from './contract/operations.ts';
import { zodIssues } from './contract/zod-issues.ts';
import { settingsPathFor, TENANT_ID_PATTERN } from './config/settings.ts';
import { MemorySettings, SettingsFile, type SettingsSource } from './config/settings-file.ts';
import { DEFAULT_BUSY_TIMEOUT_MS, Store, storeFailure } from './store/store.ts';
import { withTenant } from './store/tenant-scope.ts';
import { EngineEnv } from './env.ts';
import { freeTextIssues } from './text/free-text.ts';
import { nameRowsByLine } from './assurance/labels.ts';
import { createSandbox } from './operations/sandbox.ts';
import { ingestNdjson } from './operations/ingest.ts';
import { compareStrings } from './operations/compare.ts';
import { explainPair } from './operations/explain.ts';
import { listIdentities } from './operations/lists.ts';
import { identityHistory } from './operations/identity-history.ts';
import { identityOfRecord } from './operations/identity-of-record.ts';
import { recordSources } from './operations/record-sources.ts';
import { decideReview, getReview, listReviews, reviewLabels } from './operations/reviews.ts';
import { applyProfile, getProfile, validateProfile } from './operations/profile.ts';
import { rollbackProfile } from './operations/profile-rollback.ts';
import { profileSummary } from './operations/profile-summary.ts';
import { evaluate } from './assurance/evaluate.ts';
import { calibrate } from './assurance/calibrate.ts';
import { estimate } from './assurance/estimate.ts';
import { sampleLabels } from './assurance/sample-labels.ts';
import { candidatePairs } from './assurance/candidate-pairs.ts';
import { scanLinkQuality } from './assurance/link-quality.ts';
import { previewProfile } from './operations/profile-preview.ts';
import { estimateAudit, sampleAudit } from './operations/audit.ts';
import { healthSeries } from './operations/health.ts';
import { cancelJob, getJob, listJobs, startReconciliation, startReindex } from './operations/maintenance.ts';
import { NO_CONTROL, RunCancelled, type RunControl } from './run-control.ts';
import { RunRegistry, type RunHooks } from './runs/registry.ts';
import { isRunOperation, type RunOperation } from './contract/runs.ts';

const RUN_PROGRESS_EVERY_MS = 200;

/** A control over a run's hooks: progress at most every RUN_PROGRESS_EVERY_MS, RunCancelled once the signal aborts. */
export function hooksControl(hooks: RunHooks): RunControl {
  let last = 0;
  let lastPhase = '';
  return {
    step(phase, done, total = null) {
      if (hooks.signal.aborted) throw new RunCancelled();
      const now = Date.now();
      if (phase !== lastPhase || now - last >= RUN_PROGRESS_EVERY_MS) {
        last = now;
        lastPhase = phase;
        hooks.progress({ phase, done, total });
      }
    },
  };
}

type Handler<K extends OperationName> = (
  env: EngineEnv,
  input: OperationInput<K>,
  ctx: CallContext,
  control: RunControl,
) => OperationOutput<K> | Promise<OperationOutput<K>>;

type RunOperationName = 'runs/start' | 'runs/get' | 'runs/cancel' | 'runs/list';

const handlers: { [K in Exclude<OperationName, RunOperationName>]: Handler<K> } = {
  'sandbox/create': (env, input, ctx, control) =>
    createSandbox(env, input, ctx, (progress) => {
      // Generating has no count yet; ingesting counts the records loaded of all the population's.
      if (progress.stage === 'generating') control.step('generating', 0, null);
      else control.step('ingesting', progress.done, progress.total);
    }),
  'records/ingest': ingestNdjson,
  'comparators/compare': compareStrings,
  'matching/explain': explainPair,
  'identities/list': listIdentities,
  'identities/history': identityHistory,
  'identities/of-record': identityOfRecord,
  'records/sources': recordSources,
  'reviews/list': listReviews,
  'reviews/get': getReview,
  'reviews/decide': decideReview,
  'reviews/labels': reviewLabels,
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
  'links/scan': scanLinkQuality,
  'profile/preview': previewProfile,
  'audit/sample': sampleAudit,
  'audit/estimate': estimateAudit,
  'health/series': healthSeries,
  'maintenance/reindex': startReindex,
  'maintenance/reconcile': startReconciliation,
  'jobs/get': getJob,
  'jobs/cancel': cancelJob,
  'jobs/list': listJobs,
};

/**
 * Input subtrees checked by their own rules, with better paths: NDJSON lines by FHIR validation (line and
 * field), profile documents by profile validation (profile paths), labelled pairs by the label rules (rows), a
 * run's input by the call of its operation.
 */
const OWN_RULES: ReadonlySet<string> = new Set(['ndjson', 'document', 'pairs', 'input']);

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
  /**
   * This engine's runs (runs/*), computed in this process: a run started here has ended before `runs/start`
   * returns. A server computes them in worker threads instead (main/engine-host).
   */
  private readonly runs: RunRegistry;

  private constructor(env: EngineEnv) {
    this.env = env;
    this.runs = new RunRegistry((operation, input, ctx, hooks) =>
      this.call(operation, input as never, ctx, hooksControl(hooks)),
    );
  }

  static open(options: LocalEngineOptions): LocalEngine {
    if (options.dbPath === '') throw validationError('the database path is empty');
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    const inMemory = options.dbPath === ':memory:' && options.settingsPath === undefined;
    const settingsPath = options.settingsPath ?? settingsPathFor(options.dbPath);
    // Checked before the database is created, so a bad --config leaves no new database behind.
    if (!inMemory && (options.create ?? true) && !existsSync(dirname(resolve(settingsPath)))) {
      throw validationError(
        `the folder ${dirname(settingsPath)} for the configuration file ${settingsPath} does not exist`,
      );
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

  async call<K extends OperationName>(
    name: K,
    input: OperationInput<K>,
    context: CallContext,
    control: RunControl = NO_CONTROL,
  ): Promise<OperationOutput<K>> {
    if (!TENANT_ID_PATTERN.test(context.tenantId)) {
      throw validationError('a tenant ID is 1-64 letters, digits, dot, dash or underscore');
    }
    // The name may come from a remote caller: only the contract's own operations, never an inherited member.
    if (!Object.hasOwn(operations, name))
      throw validationError('unknown operation', [{ path: 'operation', message: 'not an operation of the contract' }]);
    const schema = operations[name].input;
    const parsed = schema.safeParse(input);
    const rowNumbers = (input as { rowNumbers?: unknown } | null)?.rowNumbers;
    if (!parsed.success)
      throw validationError(
        `invalid input for ${name}`,
        nameRowsByLine(zodIssues(parsed.error, '', false), rowNumbers),
      );
    const text: ErrorIssue[] = freeTextIssues(
      parsed.data,
      (path) => path.length === 1 && OWN_RULES.has(String(path[0])),
    );
    if (text.length > 0) throw validationError(`invalid input for ${name}`, text);
    if (name.startsWith('runs/'))
      return (await this.callRuns(name as RunOperationName, parsed.data, context)) as OperationOutput<K>;
    const handler = handlers[name as Exclude<OperationName, RunOperationName>] as unknown as Handler<K>;
    try {
      // The tenant goes with every statement of the call (a PostgreSQL registry checks each row against it).
      return await withTenant(context.tenantId, () =>
        handler(this.env, parsed.data as OperationInput<K>, context, control),
      );
    } catch (error) {
      if (isEngineError(error)) throw error;
      const mapped = storeFailure(error);
      if (isEngineError(mapped)) throw mapped;
      throw new EngineError(
        'internal',
        `${name} failed unexpectedly (${error instanceof Error ? error.name : 'error'})`,
        [],
        { cause: error },
      );
    }
  }

  private async callRuns(name: RunOperationName, input: unknown, context: CallContext): Promise<unknown> {
    switch (name) {
      case 'runs/start': {
        const { operation, input: runInput } = input as { operation: RunOperation; input: unknown };
        if (!isRunOperation(operation)) throw validationError('not an operation that runs as a run');
        const started = this.runs.start(operation, runInput, context);
        // In this process the run has ended by the time its promise settles: answer with its final state.
        return this.runs.wait(started.runId, context.tenantId);
      }
      case 'runs/get': {
        const { runId, waitMs } = input as { runId: string; waitMs?: number };
        return this.runs.getWhenEnded(runId, context.tenantId, waitMs ?? 0);
      }
      case 'runs/cancel':
        return this.runs.cancel((input as { runId: string }).runId, context.tenantId);
      case 'runs/list':
        return { rows: this.runs.list(context.tenantId) };
    }
  }

  close(): void {
    void this.runs.close();
    this.env.store.close();
  }
}
