/** Whether a registry's location names a PostgreSQL database (a postgres:// URL) rather than a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}
