/**
 * Ordered migrations recorded with SHA-256 content hashes. A migration that was applied and later edited is
 * refused (the database would no longer match its recorded history). Each migration runs in one transaction.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Database as Connection } from 'better-sqlite3';
import { EngineError } from '../contract/errors.ts';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

export interface Migration {
  readonly id: number;
  readonly name: string;
  readonly sql: string;
  readonly sha256: string;
}

export function loadMigrations(dir: URL = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((name) => /^\d{4}-[a-z0-9-]+\.sql$/.test(name))
    .sort()
    .map((name) => {
      const sql = readFileSync(new URL(name, dir), 'utf8');
      return { id: Number(name.slice(0, 4)), name, sql, sha256: createHash('sha256').update(sql).digest('hex') };
    });
}

/**
 * The migrations still to apply, given those a database recorded: refused when the database knows a migration this
 * version does not (a newer program wrote it), or when an applied one was edited since. The rule for every store.
 */
export function pendingMigrations(
  applied: ReadonlyMap<number, { readonly name: string; readonly sha256: string }>,
  migrations: readonly Migration[],
): Migration[] {
  const known = new Set(migrations.map((m) => m.id));
  for (const id of applied.keys()) {
    if (!known.has(id)) {
      throw new EngineError(
        'internal',
        `the database has migration ${String(id)} which this version does not know; use a newer version of the program`,
      );
    }
  }
  const pending: Migration[] = [];
  for (const migration of migrations) {
    const recorded = applied.get(migration.id);
    if (recorded === undefined) {
      pending.push(migration);
      continue;
    }
    if (recorded.sha256 !== migration.sha256 || recorded.name !== migration.name) {
      throw new EngineError(
        'internal',
        `migration ${migration.name} differs from the one applied to this database (recorded sha256 ${recorded.sha256.slice(0, 12)}…, file ${migration.sha256.slice(0, 12)}…); applied migrations must never be edited`,
      );
    }
  }
  return pending;
}

export function applyMigrations(connection: Connection, migrations: readonly Migration[] = loadMigrations()): void {
  connection.exec(`CREATE TABLE IF NOT EXISTS schema_migration (
    migration_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
    applied_at TEXT NOT NULL
  ) STRICT`);
  const applied = new Map<number, { name: string; sha256: string }>();
  for (const row of connection.prepare('SELECT migration_id, name, sha256 FROM schema_migration').all() as {
    migration_id: number;
    name: string;
    sha256: string;
  }[]) {
    applied.set(row.migration_id, { name: row.name, sha256: row.sha256 });
  }
  for (const migration of pendingMigrations(applied, migrations)) {
    const run = connection.transaction(() => {
      // Another process opening the same new database may have applied it since the read above.
      const now = connection
        .prepare('SELECT sha256 FROM schema_migration WHERE migration_id = ?')
        .pluck()
        .get(migration.id) as string | undefined;
      if (now === migration.sha256) return;
      connection.exec(migration.sql);
      connection
        .prepare('INSERT INTO schema_migration (migration_id, name, sha256, applied_at) VALUES (?, ?, ?, ?)')
        .run(migration.id, migration.name, migration.sha256, new Date().toISOString());
    });
    run.immediate();
  }
}
