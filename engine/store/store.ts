/**
 * The store's interface: what the engine's query modules see of a registry database, whichever it is. A registry
 * is a SQLite file (db.ts: sandboxes, the console, CI) or a PostgreSQL database (pg/pg-store.ts: a registry
 * served by several replicas). `Store.open` chooses by the location: a `postgres://` URL or a file path.
 *
 * The interface is synchronous on both stores. The engine runs on its own threads (main/engine-host), never on
 * the thread that answers requests, so a statement that waits for PostgreSQL blocks only the engine thread that
 * made it, as a SQLite statement waiting for its disk does. One engine, one set of query modules: a statement
 * whose SQLite text PostgreSQL does not take is written in both dialects beside each other (`dialects`).
 */
import { isEngineError } from '../contract/errors.ts';
import { DEFAULT_BUSY_TIMEOUT_MS, SqliteStore, storeFailure as sqliteFailure, type StoreOptions } from './db.ts';
import { PgStore, pgFailure } from './pg/pg-store.ts';
import { isPostgresUrl } from './location.ts';
import { redactedUrl } from './pg/connection.ts';

export type Row = Record<string, unknown>;
export type StoreKind = 'sqlite' | 'postgres';

export interface RunResult {
  /** Rows the statement inserted, updated or deleted. */
  readonly changes: number;
}

/** One prepared statement; parameters are positional (`?` in the SQLite text). */
export interface Statement {
  run(...params: unknown[]): RunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  /** The same statement returning each row's first column only. */
  pluck(): Statement;
  /** The same statement returning each row as an array of its columns. */
  raw(): Statement;
}

export interface Store {
  readonly kind: StoreKind;
  /** The file path, or the database URL without its password: safe to show and to hand to another thread's open. */
  readonly path: string;
  /** A cached prepared statement for this SQL text (SQLite's dialect, or a pair from `dialects`). */
  statement(sql: string | Dialects): Statement;
  /** fn in a write transaction; nested calls become savepoints. */
  write<T>(fn: () => T): T;
  /** fn in a read transaction: one consistent snapshot for several queries. */
  read<T>(fn: () => T): T;
  readonly inTransaction: boolean;
  /** Executes trusted, parameterless SQL (tests and benches). */
  exec(sql: string): void;
  /** Folds the write-ahead log back into the database where the store has one. */
  checkpoint(): void;
  close(): void;
}

/**
 * A statement written for each store, where PostgreSQL does not take the SQLite text as `toPostgres` rewrites it. The
 * PostgreSQL text goes through the same rewrite: write its parameters as `?` too.
 */
export interface Dialects {
  readonly sqlite: string;
  readonly postgres: string;
}

export function dialects(sqlite: string, postgres: string): Dialects {
  return { sqlite, postgres };
}

export { DEFAULT_BUSY_TIMEOUT_MS, isPostgresUrl, type StoreOptions };

/** A registry's location as it may be shown: a file path as it is, a database URL without its password. */
export function describeLocation(location: string): string {
  return isPostgresUrl(location) ? redactedUrl(location) : location;
}

export const Store = {
  /** Opens the registry at a file path (SQLite) or a `postgres://` URL (PostgreSQL). */
  open(location: string, options: StoreOptions = {}): Store {
    return isPostgresUrl(location) ? PgStore.open(location, options) : SqliteStore.open(location, options);
  },
};

/**
 * Either store's failures as engine errors, for errors that escape a transaction or a statement: a lock wait past
 * its timeout is a BusyError; anything else is returned unchanged (the caller decides what it becomes).
 */
export function storeFailure(error: unknown): unknown {
  if (isEngineError(error)) return error;
  const mapped = pgFailure(error);
  return isEngineError(mapped) ? mapped : sqliteFailure(error);
}
