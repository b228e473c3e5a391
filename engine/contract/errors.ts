/**
 * Errors are typed data: a closed set of kinds with a message a person can act on.
 * Messages name fields, lines and paths, never patient values.
 */
export type ErrorKind = 'validation' | 'not_found' | 'conflict' | 'forbidden' | 'remote_http' | 'internal';

export interface ErrorIssue {
  /** Where the problem is: a field path (`name[0].family`), `line 12`, `pairs[3]`, a profile path. */
  readonly path: string;
  readonly message: string;
}

/** The shape an error takes when it crosses a boundary (CLI JSON, IPC, HTTP). */
export interface ErrorData {
  readonly type: 'EngineError';
  readonly kind: ErrorKind;
  readonly message: string;
  readonly issues: readonly ErrorIssue[];
}

export class EngineError extends Error {
  readonly kind: ErrorKind;
  readonly issues: readonly ErrorIssue[];

  /**
   * `cause`, for an internal error made from an unexpected one, stays on this side of every boundary: toData leaves
   * it out, and the host that logs the failure reads where it happened from it (never its text).
   */
  constructor(kind: ErrorKind, message: string, issues: readonly ErrorIssue[] = [], options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngineError';
    this.kind = kind;
    this.issues = issues;
  }

  toData(): ErrorData {
    return { type: 'EngineError', kind: this.kind, message: this.message, issues: this.issues };
  }
}

export const validationError = (message: string, issues: readonly ErrorIssue[] = []): EngineError =>
  new EngineError('validation', message, issues);
export const notFound = (message: string): EngineError => new EngineError('not_found', message);
export const conflict = (message: string): EngineError => new EngineError('conflict', message);

/**
 * Another process holds a lock this call needed (the database's write lock, or the configuration file's)
 * for longer than the wait allowed. A `conflict` like any other contention, so the closed set of kinds
 * stays as it is; long-running callers (the worker) recognise it with isBusy and retry.
 */
export class BusyError extends EngineError {
  constructor(message: string) {
    super('conflict', message);
  }
}

export const DATABASE_BUSY = 'the database is busy (another process holds the write lock); try again';

export function isBusy(value: unknown): value is BusyError {
  return value instanceof BusyError;
}

/**
 * The database's storage itself failed (a damaged file or table, a full disk, a read or write that failed, a database
 * that accepts no writes): no later write can succeed until a person mends it, so work stops here rather than refusing
 * record after record. Internal, as any failure that is not the caller's; its message says what to do.
 */
export class StorageError extends EngineError {
  constructor(message: string) {
    super('internal', message);
  }
}

export function isStorageError(value: unknown): value is StorageError {
  return value instanceof StorageError;
}

export function isEngineError(value: unknown): value is EngineError {
  return value instanceof EngineError;
}
