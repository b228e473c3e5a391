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


describe('migration 0003 (received resources in their own table)', () => {
  it('moves the resources of an existing registry and keeps every record', () => {
    const path = join(tempDir(), 'upgrade.db');
    const before = Store.open(path, { migrations: loadMigrations().filter((m) => m.id <= 2) });
    before.exec(`INSERT INTO tenant (tenant_id, created_at) VALUES ('t', 'now');
      INSERT INTO source_record (tenant_id, source_system, local_id, resource_json, fields_json, payload_digest, logical_version, created_at, updated_at)
      VALUES ('t', 's', 'a', '{"resourceType":"Patient","id":"a"}', '{}', '${'a'.repeat(64)}', 1, 'now', 'now'),
             ('t', 's', 'b', '{"resourceType":"Patient","id":"b"}', '{}', '${'b'.repeat(64)}', 1, 'now', 'now')`);
    before.close();
    const after = Store.open(path);
    expect(after.statement('SELECT r.local_id, x.resource_json FROM source_record r JOIN source_resource x ON x.record_id = r.record_id ORDER BY r.local_id').all()).toEqual([
      { local_id: 'a', resource_json: '{"resourceType":"Patient","id":"a"}' },
      { local_id: 'b', resource_json: '{"resourceType":"Patient","id":"b"}' },
    ]);
    expect(after.statement("SELECT COUNT(*) FROM pragma_table_info('source_record') WHERE name = 'resource_json'").pluck().get()).toBe(0);
    expect(after.statement('PRAGMA foreign_key_check').all()).toEqual([]);
    after.close();
  });
});
