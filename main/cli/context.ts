import { existsSync, readFileSync } from 'node:fs';
import { LocalEngine, RunCancelled, describeLocation, isPostgresUrl, settingsPathFor } from '../../engine/index.ts';
import type { CallContext, EngineClient, OperationInput, OperationOutput } from '../../engine/contract/operations.ts';
import type { RunOperation, RunProgress } from '../../engine/contract/runs.ts';
import type { RemoteEngine } from '../remote/remote-engine.ts';
import { remoteClient } from './remote-client.ts';
import { EngineError } from '../../engine/contract/errors.ts';
import type { FileInUse } from './files.ts';
import { paceText, TerminalProgress } from './progress.ts';

export type OptionValues = Record<string, string | boolean | undefined>;

/**
 * What a command gets: its options, its positional words, and a lazily opened engine. Only the commands
 * that create a sandbox (`sandbox init`, `febrl load`) may create a database; every other command on a
 * path where there is none says so and creates nothing.
 */
export class CliContext {
  private engineInstance: LocalEngine | undefined;
  private remoteInstance: RemoteEngine | undefined;

  constructor(
    readonly values: OptionValues,
    readonly positionals: readonly string[],
    readonly write: (text: string) => void,
    readonly warn: (text: string) => void = () => undefined,
  ) {}

  get json(): boolean {
    return this.values.json === true;
  }

  /**
   * The registry: --database URL (PostgreSQL), else --db FILE (SQLite), else $MPI_DATABASE, else the configuration
   * file's Api.Database, else $MPI_DB, else mpi-sandbox.db.
   */
  get dbPath(): string {
    const database = this.string('database');
    const db = this.string('db');
    if (database !== undefined && db !== undefined) throw usage('give --db FILE or --database URL, not both');
    if (database !== undefined) {
      if (!isPostgresUrl(database))
        throw usage('--database takes a PostgreSQL URL (postgres://USER@HOST:PORT/DB); a SQLite file goes in --db');
      return database;
    }
    if (db !== undefined) {
      if (db === '') throw usage('--db is empty; give the path of a sandbox database');
      return db;
    }
    const fromEnv = process.env.MPI_DATABASE;
    if (fromEnv !== undefined && fromEnv !== '') {
      if (!isPostgresUrl(fromEnv)) throw usage('$MPI_DATABASE takes a PostgreSQL URL (postgres://USER@HOST:PORT/DB)');
      return fromEnv;
    }
    const configured = configuredDatabase(this.string('config'));
    if (configured !== undefined) return configured;
    return (process.env.MPI_DB === '' ? undefined : process.env.MPI_DB) ?? 'mpi-sandbox.db';
  }

  /**
   * The files this command uses, which its --out must never replace: the SQLite database with its write-ahead log
   * and shared memory, the configuration with its lock, and the input files named on the command line.
   */
  filesInUse(): FileInUse[] {
    const files: FileInUse[] = [];
    const db = this.string('remote') === undefined ? this.dbPath : ':memory:';
    if (db !== ':memory:' && !isPostgresUrl(db)) {
      for (const suffix of ['', '-wal', '-shm', '-journal'])
        files.push({ path: db + suffix, what: 'the database this command uses' });
    }
    const config = this.string('config') ?? (db === ':memory:' || isPostgresUrl(db) ? undefined : settingsPathFor(db));
    if (config !== undefined) {
      files.push({ path: config, what: 'the configuration this command uses (its blocking secrets)' });
      files.push({ path: `${config}.lock`, what: 'the lock of the configuration this command uses' });
    }
    for (const option of ['labels', 'sample', 'ndjson'] as const) {
      const input = this.string(option);
      if (input !== undefined) files.push({ path: input, what: `the --${option} file this command reads` });
    }
    return files;
  }

  /** The registry as it may be shown (a URL without its password). */
  get registryLabel(): string {
    return describeLocation(this.dbPath);
  }

  get call(): CallContext {
    const env = process.env.MPI_TENANT;
    return { tenantId: this.string('tenant') ?? (env === undefined || env === '' ? 'demo' : env), actor: 'cli' };
  }

  /** Where the command's operations go: the registry API with --remote URL, else the local database. */
  get client(): EngineClient {
    const url = this.string('remote');
    if (url === undefined) return this.engine;
    if (this.remoteInstance === undefined) {
      const remote = remoteClient(this.values, url);
      if ('usage' in remote) throw usage(remote.usage);
      this.remoteInstance = remote;
    }
    return this.remoteInstance;
  }

  /**
   * A long operation (estimate, evaluation, calibration, label sample): on a terminal its progress is written to
   * standard error as it goes, and Ctrl-C cancels it (on the registry too, with --remote) instead of leaving it
   * computing. Remotely it goes as a run where the registry offers runs.
   */
  async longCall<K extends RunOperation>(name: K, input: OperationInput<K>): Promise<OperationOutput<K>> {
    const line = new TerminalProgress();
    let phase = { name: '', started: 0 };
    const show = (progress: RunProgress): void => {
      const next = progress.phase !== phase.name;
      if (next) phase = { name: progress.phase, started: performance.now() };
      const elapsedMs = performance.now() - phase.started;
      line.show(
        progress.total === null
          ? progress.phase
          : `${progress.phase} ${paceText({ done: progress.done, total: progress.total, elapsedMs })}`,
        next,
      );
    };
    const interrupted = new AbortController();
    const onInterrupt = (): void => {
      interrupted.abort();
    };
    process.once('SIGINT', onInterrupt);
    try {
      const client = this.client;
      if (client !== this.engineInstance && 'callWith' in client) {
        return await (client as { callWith: RemoteEngine['callWith'] }).callWith(name, input, this.call, {
          onProgress: show,
          signal: interrupted.signal,
        });
      }
      return await this.engine.call(name, input, this.call, {
        step: (phase, done, total = null) => {
          if (interrupted.signal.aborted) throw new RunCancelled();
          show({ phase, done, total });
        },
      });
    } finally {
      process.off('SIGINT', onInterrupt);
      line.end();
    }
  }

  /** The engine over an existing database. */
  get engine(): LocalEngine {
    return this.openEngine(false);
  }

  /** The engine, creating the database (and its configuration file) if need be. */
  get creatingEngine(): LocalEngine {
    return this.openEngine(true);
  }

  private openEngine(create: boolean): LocalEngine {
    if (this.string('remote') !== undefined)
      throw usage('this command works on a local database only; the registry API does not offer it (--remote)');
    if (this.engineInstance !== undefined) return this.engineInstance;
    const dbPath = this.dbPath;
    const config = this.string('config');
    if (isPostgresUrl(dbPath) && config === undefined)
      throw usage(
        'a PostgreSQL registry needs --config FILE: the configuration (with the blocking secrets) every replica shares',
      );
    if (!create && dbPath !== ':memory:' && !isPostgresUrl(dbPath) && !existsSync(dbPath)) {
      throw new EngineError(
        'not_found',
        `no sandbox at ${dbPath}; create one with \`mpi-console sandbox init --db ${dbPath}\``,
      );
    }
    const busy = busyTimeoutMs();
    this.engineInstance = LocalEngine.open({
      dbPath,
      create,
      ...(busy === undefined ? {} : { busyTimeoutMs: busy }),
      onWarning: (message) => {
        this.warn(`mpi-console: warning: ${message}\n`);
      },
      ...(config === undefined ? {} : { settingsPath: config }),
    });
    return this.engineInstance;
  }

  string(name: string): string | undefined {
    const value = this.values[name];
    return typeof value === 'string' ? value : undefined;
  }

  required(name: string): string {
    const value = this.string(name);
    if (value === undefined || value === '') throw usage(`--${name} is required`);
    return value;
  }

  integer(name: string, fallback?: number): number {
    const raw = this.string(name);
    if (raw === undefined) {
      if (fallback === undefined) throw usage(`--${name} is required`);
      return fallback;
    }
    if (!/^-?\d+$/.test(raw)) throw usage(`--${name} must be a whole number`);
    return Number(raw);
  }

  /** Closes the registry (and the remote client); a command that removes what it created closes it first. */
  close(): void {
    void this.remoteInstance?.close();
    this.engineInstance?.close();
    this.remoteInstance = undefined;
    this.engineInstance = undefined;
  }
}

/** MPI_BUSY_TIMEOUT_MS: how long a command waits for another process's lock (default 15 s). */
function busyTimeoutMs(): number | undefined {
  const raw = process.env.MPI_BUSY_TIMEOUT_MS;
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,9}$/.test(raw)) throw usage('MPI_BUSY_TIMEOUT_MS is a whole number of milliseconds');
  return Number(raw);
}

export class UsageError extends Error {}

export function usage(message: string): UsageError {
  return new UsageError(message);
}

export function asEngineError(error: unknown): EngineError | undefined {
  return error instanceof EngineError ? error : undefined;
}

/**
 * The PostgreSQL registry a configuration file names (Api.Database), if it names one. Only that field is read here;
 * the engine reads and checks the whole file when it opens.
 */
function configuredDatabase(configPath: string | undefined): string | undefined {
  if (configPath === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(configPath, 'utf8');
  } catch {
    return undefined;
  }
  let database: unknown;
  try {
    database = (JSON.parse(text) as { Api?: { Database?: unknown } } | null)?.Api?.Database;
  } catch {
    return undefined;
  }
  if (database === undefined) return undefined;
  if (typeof database !== 'string' || !isPostgresUrl(database))
    throw usage(`Api.Database in ${configPath} is not a PostgreSQL URL (postgres://USER@HOST:PORT/DB)`);
  return database;
}
