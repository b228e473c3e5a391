/**
 * Recognises an error raised by SQLite (better-sqlite3's SqliteError carries the result code, e.g.
 * SQLITE_CONSTRAINT_CHECK) without importing the driver, which only db.ts may do. The code names the kind
 * of refusal; the message is never reported because it can quote a value.
 */
export function sqliteErrorCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || !('code' in error)) return undefined;
  const { code } = error;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}
