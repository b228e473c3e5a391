/**
 * The one owner of SQLite. Nothing else in the project imports better-sqlite3 (a lint rule enforces it):
 * this module opens the connection, sets its pragmas, applies the hashed migrations, caches prepared
 * statements and runs transactions. Query modules ask it for statements by SQL text.
 */
import Database from 'better-sqlite3';
import type { Database as Connection, Statement } from 'better-sqlite3';
import { applyMigrations, loadMigrations, type Migration } from './migrate.ts';

export type Row = Record<string, unknown>;
export type { Statement };

export interface StoreOptions {
  /** Milliseconds a writer waits for another process's write lock before giving up. */
  readonly busyTimeoutMs?: number;
  readonly readonly?: boolean;
  /** The migrations to apply (default: the files in migrations/); tests pass an edited list. */
  readonly migrations?: readonly Migration[];
}

export class Store {
  readonly path: string;
  private readonly connection: Connection;
  private readonly statements = new Map<string, Statement>();

  private constructor(path: string, connection: Connection) {
    this.path = path;
    this.connection = connection;
  }

  static open(path: string, options: StoreOptions = {}): Store {
    const connection = new Database(path, { readonly: options.readonly ?? false });
    connection.pragma(`busy_timeout = ${String(options.busyTimeoutMs ?? 15_000)}`);
    if (!(options.readonly ?? false)) {
      connection.pragma('journal_mode = WAL');
      // NORMAL in WAL mode stays durable across application crashes; only power loss can lose the last commits.
      connection.pragma('synchronous = NORMAL');
    }
    connection.pragma('foreign_keys = ON');
    connection.pragma('temp_store = MEMORY');
    connection.pragma('cache_size = -65536');
    // Checkpoint every 32k pages (128 MiB) rather than 1k: batched writers touch many pages, and each
    // checkpoint copies them back and syncs the database file.
    connection.pragma('wal_autocheckpoint = 32768');
    const store = new Store(path, connection);
    if (!(options.readonly ?? false)) {
      try {
        applyMigrations(connection, options.migrations ?? loadMigrations());
      } catch (error) {
        connection.close();
        throw error;
      }
    }
    return store;
  }

  /** A cached prepared statement for this SQL text. */
  statement(sql: string): Statement {
    let prepared = this.statements.get(sql);
    if (prepared === undefined) {
      prepared = this.connection.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  /**
   * Runs fn in a write transaction taken immediately (BEGIN IMMEDIATE), so two processes never deadlock
   * upgrading a read lock. Nested calls become savepoints: an inner failure rolls back only its own writes.
   */
  write<T>(fn: () => T): T {
    return this.connection.transaction(fn).immediate();
  }

  /** Runs fn in a read transaction: one consistent snapshot for several queries. */
  read<T>(fn: () => T): T {
    return this.connection.transaction(fn).deferred();
  }

  get inTransaction(): boolean {
    return this.connection.inTransaction;
  }

  /** Executes trusted, parameterless SQL (tests and benches use it to compare raw rates). */
  exec(sql: string): void {
    this.connection.exec(sql);
  }

  checkpoint(): void {
    this.connection.pragma('wal_checkpoint(TRUNCATE)');
  }

  close(): void {
    this.statements.clear();
    this.connection.close();
  }
}
