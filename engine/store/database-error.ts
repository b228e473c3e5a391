/**
 * Recognises an error a database raised by its code, which names the kind of refusal: SQLite's result code
 * (better-sqlite3's SqliteError, e.g. SQLITE_CONSTRAINT_CHECK) or PostgreSQL's SQLSTATE (the PostgreSQL store's
 * PgError, e.g. P0001 for an exception a trigger raised), read without importing either driver, which only their
 * stores may do. The message is never reported because it can quote a value.
 */
export function databaseErrorCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || !('code' in error)) return undefined;
  const { code } = error;
  if (typeof code !== 'string') return undefined;
  if (code.startsWith('SQLITE_')) return code;
  if (error.name === 'PgError' && /^[0-9A-Z]{5}$/.test(code)) return `SQLSTATE ${code}`;
  return undefined;
}
