/**
 * Helpers for the maintenance-job tests: synthetic sandboxes in temp folders, the real CLI as a child
 * process, whole-table dumps for before/after comparisons, and polling (never timing assertions).
 */
import { expect, onTestFinished } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { Store, isPostgresUrl } from '../../../engine/store/store.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import { settingsPathFor } from '../../../engine/config/settings.ts';
import type { CallContext } from '../../../engine/contract/operations.ts';
import type { JobState } from '../../../engine/contract/maintenance.ts';
import { TENANT } from './job-claims.ts';
import { scratchDir } from '../../helpers/temp.ts';

export const BIN = fileURLToPath(new URL('../../../main/cli/bin.js', import.meta.url));
export { TENANT, jobClaims } from './job-claims.ts';
export const CTX: CallContext = { tenantId: TENANT, actor: 'test' };

/**
 * A registry is a SQLite file or a PostgreSQL URL; a PostgreSQL registry's configuration file (which cannot sit
 * beside a URL) is remembered here when the registry is made.
 */
const configurations = new Map<string, string>();

/** The configuration file of a registry. */
export function configOf(location: string): string {
  if (!isPostgresUrl(location)) return settingsPathFor(location);
  const config = configurations.get(location);
  if (config === undefined) throw new Error('a PostgreSQL registry this helper did not make');
  return config;
}

/** The command-line options that name a registry. */
export function registryArgs(location: string): string[] {
  return isPostgresUrl(location) ? ['--database', location, '--config', configOf(location)] : ['--db', location];
}

/** The registry at url (a fresh PostgreSQL database) with its configuration file at config. */
export function usePostgres(url: string, config: string): string {
  configurations.set(url, config);
  return url;
}

/**
 * A closed sandbox with people synthetic people; returns its location: a SQLite file in dir, or, given a fresh
 * PostgreSQL database's URL, that database (its configuration file in dir).
 */
export async function makeSandbox(
  dir: string,
  name: string,
  people: number,
  seed = 11,
  postgresUrl?: string,
): Promise<string> {
  const dbPath =
    postgresUrl === undefined ? join(dir, `${name}.db`) : usePostgres(postgresUrl, join(dir, `${name}.config.json`));
  const engine = LocalEngine.open({ dbPath, settingsPath: configOf(dbPath) });
  try {
    await engine.call('sandbox/create', { syntheticPeople: people, seed }, CTX);
  } finally {
    engine.close();
  }
  return dbPath;
}

/** A SQLite sandbox of synthetic people in a folder of its own, open for the test; closed and removed after it. */
export async function openSandbox(
  name: string,
  people: number,
  seed?: number,
): Promise<{ engine: LocalEngine; db: string; store: Store }> {
  const { dir, cleanup } = scratchDir();
  onTestFinished(cleanup);
  const db = await makeSandbox(dir, name, people, seed);
  const engine = LocalEngine.open({ dbPath: db });
  onTestFinished(() => {
    engine.close();
  });
  return { engine, db, store: engine.env.store };
}

/** Copies a closed database and its configuration file. */
export function copyDatabase(from: string, to: string): string {
  copyFileSync(from, to);
  for (const suffix of ['-wal', '-shm']) if (existsSync(from + suffix)) copyFileSync(from + suffix, to + suffix);
  copyFileSync(settingsPathFor(from), settingsPathFor(to));
  return to;
}

/** Sets the configuration file's Maintenance section (keeping the blocking keys). */
export function setMaintenance(dbPath: string, maintenance: Record<string, unknown>): void {
  const path = configOf(dbPath);
  const settings = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  writeFileSync(path, JSON.stringify({ ...settings, Maintenance: maintenance }, null, 2), { mode: 0o600 });
}

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function cli(dbPath: string, args: readonly string[], tenant: string | null = TENANT): CliResult {
  const result = spawnSync(
    process.execPath,
    [BIN, ...registryArgs(dbPath), ...(tenant === null ? [] : ['--tenant', tenant]), ...args],
    {
      encoding: 'utf8',
      env: { ...process.env, MPI_TENANT: '' },
      timeout: 120_000,
    },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the JSON shape it expects
export function cliJson<T>(dbPath: string, args: readonly string[]): T {
  const result = cli(dbPath, [...args, '--json']);
  if (result.status !== 0)
    throw new Error(`mpi-console ${args.join(' ')} exited ${String(result.status)}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** Queues a registry-only reconciliation through the CLI; its job ID. */
export function queueReconciliation(dbPath: string, reason: string, batchSize: number): string {
  return cliJson<{ jobId: string }>(dbPath, ['reconcile', '--reason', reason, '--batch-size', String(batchSize)]).jobId;
}

/**
 * A reconciliation at batch size 5 run to its end by one `worker --once`: the reference an interrupted run of the same
 * registry is compared with. The finished job, checked completed with every active identity scanned in both phases.
 */
export function uninterruptedReconciliation(dbPath: string, reason: string): JobState {
  const jobId = queueReconciliation(dbPath, reason, 5);
  const run = cli(dbPath, ['worker', '--once']);
  expect(run.status, run.stderr).toBe(0);
  const job = readJob(dbPath, jobId);
  expect(job.status).toBe('completed');
  expect(job.counters.scanned).toBe(2 * (job.populationTotal ?? 0));
  return job;
}

/** A long-running `worker` process (its output is collected for failure messages). */
export function spawnWorker(dbPath: string, extra: readonly string[] = []): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, [BIN, ...registryArgs(dbPath), '--tenant', TENANT, 'worker', ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MPI_TENANT: '' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return Object.assign(child, { output: () => output });
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      resolve(code);
    });
  });
}

/** Polls until check returns a value (not undefined), or fails after timeoutMs. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined,
  timeoutMs = 90_000,
  everyMs = 5,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Reads a job's state through a short-lived read-only connection (another process may be writing). */
export function readJob(dbPath: string, jobId: string): JobState {
  return withTenant(TENANT, () => readJobRow(dbPath, jobId));
}

function readJobRow(dbPath: string, jobId: string): JobState {
  const store = Store.open(dbPath, { readonly: true });
  try {
    const job = store
      .statement('SELECT * FROM maintenance_job WHERE tenant_id = ? AND job_id = ?')
      .get(TENANT, jobId) as Record<string, unknown> | undefined;
    if (job === undefined) throw new Error(`job ${jobId} not found`);
    const phases = store
      .statement('SELECT * FROM maintenance_job_phase WHERE tenant_id = ? AND job_id = ? ORDER BY ordinal')
      .all(TENANT, jobId) as Record<string, unknown>[];
    return {
      jobId,
      kind: job.kind,
      status: job.status,
      reason: job.reason,
      requestedBy: job.requested_by,
      batchSize: job.batch_size,
      externalSourceSystem: job.external_source_system,
      changedSince: job.changed_since,
      scheduleKey: job.schedule_key,
      matchingProfileVersion: job.profile_version,
      populationTotal: job.population_total,
      phases: phases.map((p) => ({
        name: p.phase,
        status: p.status,
        processed: p.processed,
        cursor: p.cursor_identity_id,
        note: p.note,
        startedAt: p.started_at,
        finishedAt: p.finished_at,
      })),
      counters: {
        validated: job.validated,
        scanned: job.scanned,
        imported: job.imported,
        updated: job.updated,
        unchanged: job.unchanged,
        reviewCreated: job.review_created,
        warning: job.warning,
        failure: job.failure,
      },
      cancelRequested: job.cancel_requested_by !== null,
      leaseOwner: job.lease_owner,
      leaseExpiresAt: job.lease_expires_at,
      error: job.error,
      createdAt: job.created_at,
      startedAt: job.started_at,
      finishedAt: job.finished_at,
    } as JobState;
  } finally {
    store.close();
  }
}

const DUMPS: Readonly<Record<string, string>> = {
  identity:
    'SELECT identity_id, enterprise_id, logical_version, canonical_json, status FROM identity WHERE tenant_id = ? ORDER BY identity_id',
  identity_link:
    'SELECT record_id, identity_id, link_kind, score FROM identity_link WHERE tenant_id = ? ORDER BY record_id',
  blocking_tag:
    'SELECT tag, identity_id, rule_name, rule_set_version, key_version FROM blocking_tag WHERE tenant_id = ? ORDER BY tag, identity_id',
  source_record:
    'SELECT record_id, source_system, local_id, payload_digest, logical_version FROM source_record WHERE tenant_id = ? ORDER BY record_id',
  review_case: `SELECT case_id, kind, left_identity_id, left_version, right_identity_id, right_version, profile_version, score, decision, evidence_json, status
                FROM review_case WHERE tenant_id = ? ORDER BY case_id`,
};

/** Whole tables (timestamps left out), for before/after and run-against-run comparisons. */
export function dumpTables(dbPath: string, tables: readonly string[] = Object.keys(DUMPS)): Record<string, unknown[]> {
  return withTenant(TENANT, () => {
    const store = Store.open(dbPath, { readonly: true });
    try {
      const out: Record<string, unknown[]> = {};
      for (const table of tables) {
        const sql = DUMPS[table];
        if (sql === undefined) throw new Error(`no dump for ${table}`);
        out[table] = (store.statement(sql).all(TENANT) as Record<string, unknown>[]).map((row) =>
          Buffer.isBuffer(row.tag) ? { ...row, tag: row.tag.toString('hex') } : row,
        );
      }
      return out;
    } finally {
      store.close();
    }
  });
}

/** The job fields that must agree between two runs of the same work (IDs, times and leases left out). */
export function jobOutcome(job: JobState): unknown {
  return {
    kind: job.kind,
    status: job.status,
    populationTotal: job.populationTotal,
    counters: job.counters,
    phases: job.phases.map((p) => ({
      name: p.name,
      status: p.status,
      processed: p.processed,
      cursor: p.cursor,
      note: p.note,
    })),
    error: job.error,
  };
}

/** Weighted similarity with Probable at 0.3 (no probability model): most candidate pairs open a review case. */
export async function lowerProbable(engine: LocalEngine): Promise<void> {
  const { profile } = await engine.call('profile/get', {}, CTX);
  const Thresholds = { Certain: 0.999, Probable: 0.3 };
  await engine.call(
    'profile/apply',
    { document: { MatchingRules: { ...profile.MatchingRules, FellegiSunter: null, Thresholds } }, reason: 'test' },
    CTX,
  );
}
