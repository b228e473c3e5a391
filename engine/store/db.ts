/**
 * The one owner of SQLite. Nothing else in the project imports better-sqlite3 (a lint rule enforces it):
 * this module opens the connection, sets its pragmas, applies the hashed migrations, caches prepared
 * statements and runs transactions. Query modules ask it for statements by SQL text.
 *
 * It is also the one place where SQLite's failures become engine errors: a lock wait longer than the busy
 * timeout is a BusyError ("the database is busy … try again"), a path that is a folder, a missing folder or a
 * file that is not a database is a validation error naming the path, and a failure of the open file itself
 * (damaged, disk full, read or write failed, read-only) a StorageError that says what to do. A new database file is
 * created 0600 (SQLite gives its -wal and -shm files the database file's mode), whatever the umask.
 */
import Database from 'better-sqlite3';
import type { Database as Connection, Statement as SqliteStatement, Transaction } from 'better-sqlite3';
import { closeSync, fchmodSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { BusyError, DATABASE_BUSY, EngineError, notFound, StorageError, validationError } from '../contract/errors.ts';
import { applyMigrations, loadMigrations, type Migration } from './migrate.ts';
import type { Dialects, Store } from './store.ts';

export const DEFAULT_BUSY_TIMEOUT_MS = 15_000;

export interface StoreOptions {
  /** Milliseconds a writer waits for another process's write lock before giving up. */
  readonly busyTimeoutMs?: number;
  readonly readonly?: boolean;
  /** The migrations to apply (default: the files in migrations/); tests pass an edited list. */
  readonly migrations?: readonly Migration[];
  /** False: a database that does not exist is not created (a not_found error instead). Default true. */
  readonly create?: boolean;
}

const BUSY_CODES = new Set([
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_RECOVERY',
  'SQLITE_BUSY_TIMEOUT',
  'SQLITE_LOCKED',
  'SQLITE_LOCKED_SHAREDCACHE',
]);

function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True for SQLite's "database is locked" family of failures. */
export function isSqliteBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && BUSY_CODES.has(code);
}

/**
 * A failure of the database file itself rather than of a statement, in words a person can act on: trying again
 * does not mend a damaged file or a full disk, and "failed unexpectedly" would send them to support for either. The
 * file is not named: the registry server's answer goes to clients that have no business knowing its paths.
 */
function fileFailure(code: string): StorageError | undefined {
  if (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB'))
    return new StorageError(
      `the registry's database file is damaged (${code}); trying again will not mend it: stop using it and restore it from a backup (a sandbox can be created again)`,
    );
  if (code.startsWith('SQLITE_FULL'))
    return new StorageError(
      `the disk that holds the registry's database is full (${code}); free some space on it, then try again`,
    );
  if (code.startsWith('SQLITE_IOERR'))
    return new StorageError(
      `the registry's database file could not be read or written (${code}); check the disk or network share it is on, then try again`,
    );
  if (code.startsWith('SQLITE_READONLY'))
    return new StorageError(
      `the registry's database file cannot be written (${code}); check that the file and its folder may be written, then try again`,
    );
  return undefined;
}

/**
 * SQLite's failures as engine errors, for errors that escape a transaction or a statement: busy becomes a
 * BusyError, a failure of the file itself (damaged, disk full, read or write failed, read-only) a StorageError
 * that says what to do; anything else is returned unchanged (the caller decides what an unexpected error becomes).
 */
export function storeFailure(error: unknown): unknown {
  if (isSqliteBusy(error)) return new BusyError(DATABASE_BUSY);
  const code = sqliteCode(error);
  return (code === undefined ? undefined : fileFailure(code)) ?? error;
}

function openFailure(error: unknown, path: string): unknown {
  if (error instanceof EngineError) return error;
  const code = sqliteCode(error);
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
    return validationError(`${path} is not a SQLite database (or it is damaged); give the path of a sandbox database`);
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY' || code === 'SQLITE_PERM' || code === 'SQLITE_IOERR') {
    return validationError(
      `cannot open the database ${path} (${code}); check that it is a file you may read and write`,
    );
  }
  return storeFailure(error);
}

const isFileDatabase = (path: string): boolean => path !== '' && path !== ':memory:';

/** Checks the path before SQLite sees it, and creates a new database file with mode 0600. */
function prepareFile(path: string, create: boolean): void {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    stat = undefined;
  }
  if (stat?.isDirectory() === true) throw validationError(`${path} is a directory; give the path of a database file`);
  if (stat !== undefined) return;
  if (!create) throw notFound(`no database at ${path}`);
  const folder = dirname(path);
  let folderStat;
  try {
    folderStat = statSync(folder);
  } catch {
    folderStat = undefined;
  }
  if (folderStat?.isDirectory() !== true)
    throw validationError(`the folder ${folder} for the database ${path} does not exist`);
  try {
    const fd = openSync(path, 'wx', 0o600);
    try {
      // The umask can only remove bits; fchmod makes the mode exactly 0600 whatever it is.
      fchmodSync(fd, 0o600);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    // Another process created it first: it is theirs to have made 0600.
    if ((error as { code?: unknown }).code !== 'EEXIST') throw validationError(`cannot create the database ${path}`);
  }
}

export class SqliteStore implements Store {
  readonly kind = 'sqlite';
  readonly path: string;
  private readonly connection: Connection;
  private readonly statements = new Map<string, SqliteStatement>();
  /**
   * One transaction function for every read and write: better-sqlite3 builds a wrapper (and its deferred,
   * immediate and exclusive variants) per transaction() call, which cost as much as the queries of a small
   * read such as a job poll.
   */
  private readonly transaction: Transaction<(fn: () => unknown) => unknown>;

  /**
   * Where the file opened is (its absolute path, device and inode), to tell at each write whether the path still
   * leads to it: undefined for a database in memory.
   */
  private readonly file: { readonly path: string; readonly dev: number; readonly ino: number } | undefined;

  private constructor(path: string, connection: Connection) {
    this.path = path;
    this.connection = connection;
    this.transaction = connection.transaction((fn: () => unknown) => fn());
    const absolute = resolve(path);
    const stat = isFileDatabase(path) ? statSync(absolute, { throwIfNoEntry: false }) : undefined;
    this.file = stat === undefined ? undefined : { path: absolute, dev: stat.dev, ino: stat.ino };
  }

  /**
   * Refuses a write when the file's path no longer leads to the file opened: moved, deleted, or replaced (a backup
   * copied over it). In WAL mode SQLite would go on writing to the file it has open, and after a delete or a
   * replacement those writes would vanish when the connection closes. A stat of the path, a few microseconds, at each
   * outermost write.
   */
  private checkFile(): void {
    if (this.file === undefined || this.connection.inTransaction) return;
    const now = statSync(this.file.path, { throwIfNoEntry: false });
    if (now?.dev === this.file.dev && now.ino === this.file.ino) return;
    throw new StorageError(
      "the registry's database file was moved, deleted or replaced while it was open; nothing was written: open it again where it is now (the console's Sandboxes page, or a restart of the registry server)",
    );
  }

  static open(path: string, options: StoreOptions = {}): SqliteStore {
    const readonly = options.readonly ?? false;
    if (isFileDatabase(path)) prepareFile(path, !readonly && (options.create ?? true));
    let connection: Connection;
    try {
      connection = new Database(path, { readonly, fileMustExist: isFileDatabase(path) });
    } catch (error) {
      throw openFailure(error, path);
    }
    try {
      connection.pragma(`busy_timeout = ${String(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS)}`);
      if (!readonly) {
        connection.pragma('journal_mode = WAL');
        // NORMAL in WAL mode stays durable across application crashes; only power loss can lose the last commits.
        connection.pragma('synchronous = NORMAL');
      }
      connection.pragma('foreign_keys = ON');
      connection.pragma('temp_store = MEMORY');
      // A page cache of up to 256 MiB (filled only as pages are read): a job's batches look up blocking tags and
      // members all over a registry of 100k identities (about 100 MiB of tag index), and from 64 MiB the misses
      // cost reconciliation 12% more time (jobs bench worker, 29.5 s → 26 s).
      connection.pragma('cache_size = -262144');
      // Checkpoint every 32k pages (128 MiB) rather than 1k: batched writers touch many pages, and each
      // checkpoint copies them back and syncs the database file.
      connection.pragma('wal_autocheckpoint = 32768');
      if (!readonly) applyMigrations(connection, options.migrations ?? loadMigrations());
      else connection.prepare('SELECT count(*) FROM sqlite_master').get();
    } catch (error) {
      connection.close();
      throw openFailure(error, path);
    }
    return new SqliteStore(path, connection);
  }

  /** A cached prepared statement for this SQL text. */
  statement(sql: string | Dialects): SqliteStatement {
    const text = typeof sql === 'string' ? sql : sql.sqlite;
    let prepared = this.statements.get(text);
    if (prepared === undefined) {
      prepared = this.connection.prepare(text);
      this.statements.set(text, prepared);
    }
    return prepared;
  }

  /**
   * Runs fn in a write transaction taken immediately (BEGIN IMMEDIATE), so two processes never deadlock
   * upgrading a read lock. Nested calls become savepoints: an inner failure rolls back only its own writes.
   */
  write<T>(fn: () => T): T {
    this.checkFile();
    try {
      return this.transaction.immediate(fn) as T;
    } catch (error) {
      throw storeFailure(error);
    }
  }

  /** Runs fn in a read transaction: one consistent snapshot for several queries. */
  read<T>(fn: () => T): T {
    try {
      return this.transaction.deferred(fn) as T;
    } catch (error) {
      throw storeFailure(error);
    }
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

const heldLocks = new Map<string, number>();

/**
 * An exclusive lock between processes, held as a write transaction on a lock file (an empty SQLite database
 * that never holds a table). SQLite takes it with a POSIX advisory lock, which the kernel releases when the
 * holder exits, however it exits (kill -9 included): a crashed holder never leaves a stale lock, so no
 * process ID or age heuristics are needed. A waiter waits up to busyTimeoutMs, then gets a BusyError with
 * busyMessage. Re-entrant within one process. The lock file is created 0600 and must never be deleted
 * while it may be in use.
 */
export function withFileLock<T>(lockPath: string, busyTimeoutMs: number, busyMessage: string, fn: () => T): T {
  const depth = heldLocks.get(lockPath) ?? 0;
  if (depth > 0) {
    heldLocks.set(lockPath, depth + 1);
    try {
      return fn();
    } finally {
      heldLocks.set(lockPath, depth);
    }
  }
  prepareFile(lockPath, true);
  let connection: Connection;
  try {
    connection = new Database(lockPath, { fileMustExist: true });
  } catch (error) {
    throw openFailure(error, lockPath);
  }
  try {
    connection.pragma(`busy_timeout = ${String(busyTimeoutMs)}`);
    try {
      connection.exec('BEGIN IMMEDIATE');
    } catch (error) {
      if (isSqliteBusy(error)) throw new BusyError(busyMessage);
      throw openFailure(error, lockPath);
    }
    heldLocks.set(lockPath, 1);
    try {
      return fn();
    } finally {
      heldLocks.delete(lockPath);
      connection.exec('ROLLBACK');
    }
  } finally {
    connection.close();
  }
}
