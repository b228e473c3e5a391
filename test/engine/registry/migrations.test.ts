import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { Store } from '../../../engine/store/db.ts';
import { loadMigrations } from '../../../engine/store/migrate.ts';

describe('migrations', () => {
  it('records each migration with its content hash and refuses an edited one', () => {
    const path = join(tempDir(), 'm.db');
    const store = Store.open(path);
    const recorded = store.statement('SELECT migration_id, name, sha256 FROM schema_migration ORDER BY migration_id').all() as { sha256: string }[];
    expect(recorded.map((r) => r.sha256)).toEqual(loadMigrations().map((m) => m.sha256));
    store.close();

    // Reopening with the same files is fine; with an edited file it is refused.
    Store.open(path).close();
    const edited = loadMigrations().map((m, i) => (i === 0 ? { ...m, sha256: 'e'.repeat(64), sql: m.sql + '\n-- edited' } : m));
    expect(() => Store.open(path, { migrations: edited })).toThrow(/differs from the one applied/);
  });

  it('enables WAL, foreign keys and the schema constraints', () => {
    const store = Store.open(join(tempDir(), 'c.db'));
    expect(store.statement('PRAGMA journal_mode').pluck().get()).toBe('wal');
    expect(store.statement('PRAGMA foreign_keys').pluck().get()).toBe(1);
    // A link to an identity that does not exist violates the foreign key.
    store.exec("INSERT INTO tenant (tenant_id, created_at) VALUES ('t', 'now')");
    expect(() => {
      store.exec("INSERT INTO identity_link (tenant_id, record_id, identity_id, link_kind, created_at) VALUES ('t', 1, 1, 'auto', 'now')");
    }).toThrow(/FOREIGN KEY/);
    expect(() => {
      store.exec("INSERT INTO tenant (tenant_id, created_at) VALUES ('bad tenant', 'now')");
    }).toThrow(/CHECK/);
    store.close();
  });
});

