/**
 * The one owner of PostgreSQL (nothing else imports `pg`): a connection pool, the hashed migrations of
 * engine/store/pg/migrations (the same rule as SQLite's: numbered, recorded with their SHA-256, refused when edited;
 * applied under an advisory lock so replicas starting together apply each once), and transactions. Every
 * registry statement runs in a tenant transaction: `SET LOCAL mpi.tenant_id` first, which the tables' row-level
 * security checks (a statement without it is refused by the database). Every statement has a deadline
 * (statement_timeout) and so does getting a connection; failures become engine errors that name no value.
 *
 * Asynchronous, as the driver is: the first step of the store interface the engine will run over on both stores.
 */
import pg from 'pg';
import { BusyError, EngineError, conflict, validationError } from '../../contract/errors.ts';
import { loadMigrations, pendingMigrations, type Migration } from '../migrate.ts';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
/** Chosen once: any 64-bit number no other program on the database uses for its advisory locks. */
const MIGRATION_LOCK = 0x6d70696d6967;

export interface PgStoreOptions {
  readonly migrations?: readonly Migration[];
  /** Connections in the pool (default 10). */
  readonly maxConnections?: number;
  /** Longest a statement may run, in milliseconds (default 30 s). */
  readonly statementTimeoutMs?: number;
  /** Longest to wait for a free connection, in milliseconds (default 10 s). */
  readonly connectTimeoutMs?: number;
  /**
   * True only for an administrator's connection that creates databases (setup, tests): it may be a superuser and
   * applies no migration. The registry itself refuses a role that bypasses row-level security.
   */
  readonly administration?: boolean;
}

export interface PgTx {
  /** Rows of one statement; parameters are $1, $2, … */
  query<R extends Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
}

export function loadPgMigrations(): Migration[] {
  return loadMigrations(MIGRATIONS_DIR);
}

/**
 * PostgreSQL's failures as engine errors: a lock or serialization conflict is a retryable conflict; a statement
 * without a tenant a validation error; a row of another tenant forbidden; a statement past its deadline a conflict.
 */
export function pgFailure(error: unknown): unknown {
  if (error instanceof EngineError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '40001' || code === '40P01' || code === '55P03')
    return new BusyError('the database is busy with a conflicting change; try again');
  if (code === '42501') {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message.startsWith('no tenant is set'))
      return validationError('the database refused a statement made without a tenant');
    return new EngineError('forbidden', "the database refused a write to another tenant's rows (row-level security)");
  }
  if (code === '57014') return conflict('a database statement ran past its deadline and was cancelled');
  return error;
}

export class PgStore {
  private constructor(private readonly pool: pg.Pool) {}

  static async open(url: string, options: PgStoreOptions = {}): Promise<PgStore> {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      statement_timeout: options.statementTimeoutMs ?? 30_000,
      application_name: 'mpi-console',
    });
    // A broken idle connection must not crash the process: the next query gets a fresh one.
    pool.on('error', () => undefined);
    const store = new PgStore(pool);
    try {
      if (options.administration !== true) {
        const [role] = await store.query<{ bypasses: boolean }>(
          'SELECT rolsuper OR rolbypassrls AS bypasses FROM pg_roles WHERE rolname = current_user',
        );
        if (role?.bypasses !== false) {
          throw validationError(
            'the database role bypasses row-level security (SUPERUSER or BYPASSRLS): connect the registry as a role without them, so the database itself keeps tenants apart',
          );
        }
      }
      await store.migrate(options.administration === true ? [] : (options.migrations ?? loadPgMigrations()));
    } catch (error) {
      await pool.end();
      throw pgFailure(error);
    }
    return store;
  }

  private async migrate(migrations: readonly Migration[]): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migration (
        migration_id integer PRIMARY KEY, name text NOT NULL, sha256 text NOT NULL CHECK (length(sha256) = 64), applied_at timestamptz NOT NULL)`);
      const rows = (
        await client.query<{ migration_id: number; name: string; sha256: string }>(
          'SELECT migration_id, name, sha256 FROM schema_migration',
        )
      ).rows;
      const applied = new Map(rows.map((r) => [r.migration_id, { name: r.name, sha256: r.sha256 }]));
      for (const migration of pendingMigrations(applied, migrations)) {
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query(
            'INSERT INTO schema_migration (migration_id, name, sha256, applied_at) VALUES ($1, $2, $3, now())',
            [migration.id, migration.name, migration.sha256],
          );
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      client.release();
    }
  }

  /** Statements outside any tenant (the tenant list itself). */
  async query<R extends Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, [...params])).rows;
    } catch (error) {
      throw pgFailure(error);
    }
  }

  /** One transaction for one tenant (READ COMMITTED): committed when `work` resolves, rolled back when it throws. */
  async tenantTransaction<T>(tenantId: string, work: (tx: PgTx) => Promise<T>): Promise<T> {
    const client = await this.pool.connect().catch((error: unknown) => {
      throw pgFailure(error);
    });
    try {
      await client.query('BEGIN');
      await client.query("SELECT set_config('mpi.tenant_id', $1, true)", [tenantId]);
      const tx: PgTx = {
        query: async <R extends Record<string, unknown>>(sql: string, params: readonly unknown[] = []) =>
          (await client.query<R>(sql, [...params])).rows,
      };
      const result = await work(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw pgFailure(error);
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
