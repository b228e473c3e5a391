/**
 * The local engine: the contract's operations implemented over a SQLite registry. Every call validates its
 * input with the operation's schema (callers are untrusted), runs the handler and turns any unexpected
 * failure into an internal EngineError whose message carries no data.
 */
import { EngineError, isEngineError, validationError } from './contract/errors.ts';
import { operations, type CallContext, type EngineClient, type OperationInput, type OperationName, type OperationOutput } from './contract/operations.ts';
import { zodIssues } from './contract/zod-issues.ts';
import { settingsPathFor } from './config/settings.ts';
import { Store } from './store/db.ts';
import { EngineEnv } from './env.ts';
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
  'labels/sample': sampleLabels,
  'labels/candidates': candidatePairs,
  'maintenance/reindex': startReindex,
  'maintenance/reconcile': startReconciliation,
  'jobs/get': getJob,
  'jobs/cancel': cancelJob,
  'jobs/list': listJobs,
};

const TENANT_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export interface LocalEngineOptions {
  readonly dbPath: string;
  /** The configuration file with the blocking secrets; defaults to `<db without extension>.config.json`. */
  readonly settingsPath?: string;
}

export class LocalEngine implements EngineClient {
  readonly env: EngineEnv;

  private constructor(env: EngineEnv) {
    this.env = env;
  }

  static open(options: LocalEngineOptions): LocalEngine {
    const store = Store.open(options.dbPath);
    return new LocalEngine(new EngineEnv(store, options.settingsPath ?? settingsPathFor(options.dbPath)));
  }

  async call<K extends OperationName>(name: K, input: OperationInput<K>, context: CallContext): Promise<OperationOutput<K>> {
    if (!TENANT_PATTERN.test(context.tenantId)) {
      throw validationError('a tenant ID is 1-64 letters, digits, dot, dash or underscore');
    }
    const schema = operations[name].input;
    const parsed = schema.safeParse(input);
    if (!parsed.success) throw validationError(`invalid input for ${name}`, zodIssues(parsed.error, '', false));
    const handler = handlers[name] as Handler<K>;
    try {
      return await handler(this.env, parsed.data as OperationInput<K>, context);
    } catch (error) {
      if (isEngineError(error)) throw error;
      throw new EngineError('internal', `${name} failed unexpectedly (${error instanceof Error ? error.name : 'error'})`);
    }
  }

  close(): void {
    this.env.store.close();
  }
}
