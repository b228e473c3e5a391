/**
 * The registry on PostgreSQL behind the engine's synchronous store interface (store.ts), over one connection per
 * engine thread (connection.ts). Several replicas share the database:
 * - Tenant isolation in the database: before each statement the connection gives PostgreSQL the tenant of the
 *   engine call in progress (tenant-scope.ts); the tables' row-level security checks every row against it, and a
 *   statement made outside any tenant's call is refused (mpi_current_tenant(), migration 0001).
 * - Writers of one tenant take turns, as SQLite's writers do: a write transaction first takes the tenant's
 *   transaction-level advisory lock (waiting at most the busy timeout), so the engine's read-then-write steps
 *   (a candidate lookup, then the link) see what the previous writer committed. Tenants write in parallel.
 * - A read transaction is one snapshot (REPEATABLE READ, READ ONLY).
 * - The hashed migrations of pg/migrations are applied under an advisory lock, so replicas starting together apply
 *   each once; an edited one is refused (the rule of migrate.ts, shared with SQLite).
 */
import { BusyError, EngineError, StorageError, conflict, validationError } from '../../contract/errors.ts';
import { loadMigrations, pendingMigrations, type Migration } from '../migrate.ts';
import type { Dialects, RunResult, Statement, Store } from '../store.ts';
import { currentTenant } from '../tenant-scope.ts';
import { Connection, PgError, sessionEnded, type RowMode } from './connection.ts';
import { toPostgres } from './dialect.ts';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
/** Chosen once: any 64-bit number no other program on the database uses for its advisory locks. */
const MIGRATION_LOCK = '120280208050535';
/** The first key of the tenants' writer locks (pg_advisory_xact_lock(int, int)); the second is the tenant's hash. */
const WRITER_LOCK = 1836083565;

export interface PgStoreOptions {
  readonly busyTimeoutMs?: number;
  readonly readonly?: boolean;
  readonly migrations?: readonly Migration[];
  /** Longest a statement may run, in milliseconds (default 60 s). */
  readonly statementTimeoutMs?: number;
  /** True only for an administrator's connection (setup, tests): it may bypass row-level security; no migration. */
  readonly administration?: boolean;
}

export function loadPgMigrations(): Migration[] {
  return loadMigrations(MIGRATIONS_DIR);
}

/**
 * A failure of the database's storage rather than of a statement, in words a person can act on (engine/store/db.ts
 * says SQLite's alike): a database that accepts no writes (a standby server, or one set read-only), a full disk,
 * damaged data. Trying again mends none of them.
 */
function storageFailure(code: string): StorageError | undefined {
  if (code === '25006')
    return new StorageError(
      'the database accepts no writes (SQLSTATE 25006: a standby server, or a database or role set read-only); give the registry the URL of its primary server',
    );
  if (code === '53100')
    return new StorageError(
      "the disk that holds the registry's database is full (SQLSTATE 53100); free some space on the database server, then try again",
    );
  if (code === 'XX001' || code === 'XX002')
    return new StorageError(
      `the registry's database is damaged (SQLSTATE ${code}); trying again will not mend it: ask its administrator to restore it from a backup (a damaged index, XX002, can be rebuilt with REINDEX)`,
    );
  return undefined;
}

/**
 * PostgreSQL's failures as engine errors: a lock wait past its timeout or a serialization conflict is a retryable
 * BusyError; a statement without a tenant a validation error; a row of another tenant forbidden; a statement past
 * its deadline a conflict; a failure of its storage a StorageError (storageFailure); a lost connection says so.
 * Anything else is returned unchanged.
 */
export function pgFailure(error: unknown): unknown {
  if (error instanceof EngineError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !(error instanceof PgError || /^[0-9A-Z]{5}$/.test(code))) return error;
  if (code === '40001' || code === '40P01' || code === '55P03')
    return new BusyError('the database is busy with a conflicting change; try again');
  if (code === '42501') {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message.startsWith('no tenant is set'))
      return validationError('the database refused a statement made without a tenant');
    return new EngineError('forbidden', "the database refused a write to another tenant's rows (row-level security)");
  }
  if (code === '57014') return conflict('a database statement ran past its deadline and was cancelled');
  const storage = storageFailure(code);
  if (storage !== undefined) return storage;
  if (sessionEnded(code))
    return conflict(`${(error as Error).message}; check that the database server is running and try again`);
  return error;
}

/** Refuses a role that would bypass row-level security: the database itself must keep tenants apart. */
function refuseBypassingRole(connection: Connection): void {
  const role = connection.query(
    'SELECT rolsuper OR rolbypassrls AS bypasses FROM pg_roles WHERE rolname = current_user',
    [],
  ).rows[0] as { bypasses: number } | undefined;
  if (role?.bypasses !== 0) {
    throw validationError(
      'the database role bypasses row-level security (SUPERUSER or BYPASSRLS): connect the registry as a role without them, so the database itself keeps tenants apart',
    );
  }
}

/** The hashed migrations, applied under an advisory lock so replicas starting together apply each once. */
function migrate(connection: Connection, migrations: readonly Migration[]): void {
  connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    connection.exec(`CREATE TABLE IF NOT EXISTS schema_migration (
      migration_id integer PRIMARY KEY, name text NOT NULL, sha256 text NOT NULL CHECK (length(sha256) = 64), applied_at timestamptz NOT NULL)`);
    const rows = connection.query('SELECT migration_id, name, sha256 FROM schema_migration', []).rows as {
      migration_id: number;
      name: string;
      sha256: string;
    }[];
    const applied = new Map(rows.map((r) => [r.migration_id, { name: r.name, sha256: r.sha256 }]));
    for (const migration of pendingMigrations(applied, migrations)) {
      connection.exec('BEGIN');
      try {
        connection.exec(migration.sql);
        connection.query(
          'INSERT INTO schema_migration (migration_id, name, sha256, applied_at) VALUES ($1, $2, $3, now())',
          [migration.id, migration.name, migration.sha256],
        );
        connection.exec('COMMIT');
      } catch (error) {
        connection.exec('ROLLBACK');
        throw error;
      }
    }
  } finally {
    connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}

/** A named statement: its PostgreSQL text, prepared by the connection on its first use. */
interface Prepared {
  readonly name: string;
  readonly text: string;
}

class PgStatement implements Statement {
  constructor(
    private readonly store: PgStore,
    private readonly prepared: Prepared,
    private readonly mode: RowMode,
  ) {}

  run(...params: unknown[]): RunResult {
    return { changes: this.store.execute(this.prepared, params, this.mode).changes };
  }

  get(...params: unknown[]): unknown {
    return this.store.execute(this.prepared, params, this.mode).rows[0];
  }

  all(...params: unknown[]): unknown[] {
    return this.store.execute(this.prepared, params, this.mode).rows;
  }

  pluck(): Statement {
    return new PgStatement(this.store, this.prepared, 'pluck');
  }

  raw(): Statement {
    return new PgStatement(this.store, this.prepared, 'raw');
  }
}

export class PgStore implements Store {
  readonly kind = 'postgres';
  private readonly statements = new Map<string, PgStatement>();
  /** The tenant the session last gave PostgreSQL ('' for none). */
  private sessionTenant = '';
  private depth = 0;

  private constructor(
    readonly path: string,
    private connection: Connection,
    private readonly connect: () => Connection,
  ) {}

  static open(url: string, options: PgStoreOptions = {}): PgStore {
    const connect = (): Connection => {
      try {
        return new Connection(url, {
          statementTimeoutMs: options.statementTimeoutMs ?? 60_000,
          lockTimeoutMs: options.busyTimeoutMs ?? 15_000,
          connectTimeoutSeconds: 10,
        });
      } catch (error) {
        throw pgFailure(error);
      }
    };
    const connection = connect();
    try {
      if (options.administration !== true) {
        refuseBypassingRole(connection);
        if (options.readonly !== true) migrate(connection, options.migrations ?? loadPgMigrations());
      }
    } catch (error) {
      connection.close();
      throw pgFailure(error);
    }
    return new PgStore(url, connection, connect);
  }

  statement(sql: string | Dialects): Statement {
    const key = typeof sql === 'string' ? sql : sql.postgres;
    let statement = this.statements.get(key);
    if (statement === undefined) {
      const text = toPostgres(typeof sql === 'string' ? sql : sql.postgres);
      statement = new PgStatement(this, { name: `s${String(this.statements.size + 1)}`, text }, 'object');
      this.statements.set(key, statement);
    }
    return statement;
  }

  /** Runs a prepared statement for the tenant of the call in progress. */
  execute(prepared: Prepared, params: readonly unknown[], mode: RowMode): { rows: unknown[]; changes: number } {
    this.useTenant();
    try {
      return this.connection.execute(prepared.name, prepared.text, params, mode);
    } catch (error) {
      throw pgFailure(error);
    }
  }

  write<T>(fn: () => T): T {
    return this.transaction(fn, 'write');
  }

  read<T>(fn: () => T): T {
    return this.transaction(fn, 'read');
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  exec(sql: string): void {
    this.useTenant();
    try {
      this.connection.exec(sql);
    } catch (error) {
      throw pgFailure(error);
    }
  }

  /** PostgreSQL checkpoints on its own. */
  checkpoint(): void {
    return;
  }

  close(): void {
    this.statements.clear();
    this.connection.close();
  }

  private transaction<T>(fn: () => T, kind: 'read' | 'write'): T {
    const nested = this.depth > 0;
    const savepoint = `sp${String(this.depth)}`;
    try {
      if (nested) this.connection.exec(`SAVEPOINT ${savepoint}`);
      else {
        this.useTenant();
        if (kind === 'read') this.connection.exec('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        else {
          this.connection.exec('BEGIN');
          if (this.sessionTenant !== '')
            this.connection.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [WRITER_LOCK, this.sessionTenant]);
        }
      }
    } catch (error) {
      if (!nested) this.rollback();
      throw pgFailure(error);
    }
    this.depth += 1;
    let result: T;
    try {
      result = fn();
    } catch (error) {
      this.depth -= 1;
      if (nested) this.connection.exec(`ROLLBACK TO SAVEPOINT ${savepoint}; RELEASE SAVEPOINT ${savepoint}`);
      else this.rollback();
      throw pgFailure(error);
    }
    this.depth -= 1;
    try {
      this.connection.exec(nested ? `RELEASE SAVEPOINT ${savepoint}` : 'COMMIT');
    } catch (error) {
      if (!nested) this.rollback();
      throw pgFailure(error);
    }
    return result;
  }

  private rollback(): void {
    try {
      this.connection.exec('ROLLBACK');
    } catch {
      // The connection is gone; the server rolls the transaction back itself.
    }
  }

  /**
   * Gives PostgreSQL the tenant of the call in progress when it is not the one the session has. Outside a
   * transaction, a connection that was lost (the server restarted, the network failed) is replaced first: the
   * statement that met the loss failed, and the next one runs on a new connection.
   */
  private useTenant(): void {
    if (this.depth === 0 && this.connection.isLost) {
      this.connection.close();
      this.connection = this.connect();
      // Statement names stay: the new connection prepares each again on its first use.
      this.sessionTenant = '';
    }
    const tenant = currentTenant() ?? '';
    if (tenant === this.sessionTenant) return;
    if (this.depth > 0)
      throw new EngineError('internal', "a statement of another tenant's call ran inside a transaction");
    try {
      this.connection.query("SELECT set_config('mpi.tenant_id', $1, false)", [tenant]);
    } catch (error) {
      throw pgFailure(error);
    }
    this.sessionTenant = tenant;
  }
}
