/**
 * The registry's schema on PostgreSQL kept in step with SQLite's (engine/store/pg/migrations beside
 * engine/store/migrations): every table and column of one store is in the other (the PostgreSQL-only lease epoch
 * apart), every tenant-scoped table refuses what row-level security must refuse, and the registry's own checks (a
 * tag is 16 bytes, JSON is JSON) hold there too. Real PostgreSQL: the run's throwaway cluster.
 */
import { describe, expect, it } from 'vitest';
import { PgStore } from '../../../engine/store/pg/db.ts';
import { ensureTenant } from '../../../engine/store/pg/jobs.ts';
import { Store } from '../../../engine/store/store.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';

/** Columns only one store has, and why. */
const ONLY_POSTGRES: Readonly<Record<string, readonly string[]>> = {
  // Every claim increments it; a batch commits only under the epoch it claimed with (engine/store/pg/jobs.ts).
  maintenance_job: ['lease_epoch'],
};

function sqliteColumns(): Map<string, Set<string>> {
  const store = Store.open(':memory:');
  try {
    const tables = store
      .statement("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .pluck()
      .all() as string[];
    return new Map(
      tables.map((table) => [
        table,
        new Set(
          (store.statement(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]).map(String),
        ),
      ]),
    );
  } finally {
    store.close();
  }
}

async function postgresColumns(store: PgStore): Promise<Map<string, Set<string>>> {
  const rows = await store.query<{ table_name: string; column_name: string }>(
    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
  );
  const out = new Map<string, Set<string>>();
  for (const { table_name: table, column_name: column } of rows) {
    const columns = out.get(table) ?? new Set<string>();
    columns.add(column);
    out.set(table, columns);
  }
  return out;
}

describe('the registry schema on PostgreSQL', () => {
  it('has every table and column SQLite has, and no other (but the lease epoch)', async () => {
    const store = await PgStore.open(await freshDatabase());
    const sqlite = sqliteColumns();
    const postgres = await postgresColumns(store);
    expect([...postgres.keys()].sort()).toEqual([...sqlite.keys()].sort());
    for (const [table, columns] of sqlite) {
      const expected = [...columns, ...(ONLY_POSTGRES[table] ?? [])].sort();
      expect([...(postgres.get(table) ?? [])].sort(), table).toEqual(expected);
    }
    await store.close();
  });

  it('forces row-level security with a tenant policy on every table that holds a tenant, for its owner too', async () => {
    const store = await PgStore.open(await freshDatabase());
    const tables = await store.query<{ table: string; enabled: boolean; forced: boolean; policies: string }>(
      `SELECT c.relname AS table, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
              (SELECT count(*) FROM pg_policy p WHERE p.polrelid = c.oid)::text AS policies
         FROM pg_class c JOIN information_schema.columns col ON col.table_name = c.relname AND col.column_name = 'tenant_id'
        WHERE c.relkind = 'r' AND col.table_schema = 'public' AND c.relname <> 'tenant'`,
    );
    expect(tables.length).toBeGreaterThanOrEqual(20);
    for (const t of tables)
      expect({ ...t }, t.table).toEqual({ table: t.table, enabled: true, forced: true, policies: '1' });
    await store.close();
  });

  it("hides one tenant's identities, tags and review cases from another and refuses a write across, or without a tenant", async () => {
    const store = await PgStore.open(await freshDatabase());
    await ensureTenant(store, 'north');
    await ensureTenant(store, 'south');
    const tag = Buffer.alloc(16, 7);
    await store.tenantTransaction('north', async (tx) => {
      const [identity] = await tx.query<{ identity_id: string }>(
        `INSERT INTO identity (tenant_id, enterprise_id, logical_version, canonical_json, status, created_at, updated_at)
         VALUES ('north', 'E-north-1', 1, '{"name":"north"}', 'active', now(), now()) RETURNING identity_id`,
      );
      await tx.query(
        "INSERT INTO blocking_tag (tenant_id, tag, identity_id, rule_name, rule_set_version, key_version) VALUES ('north', $1, $2, 'birth-date', 1, 'k1')",
        [tag, identity?.identity_id],
      );
    });
    expect(await store.tenantTransaction('south', (tx) => tx.query('SELECT * FROM identity'))).toEqual([]);
    expect(await store.tenantTransaction('south', (tx) => tx.query('SELECT * FROM blocking_tag'))).toEqual([]);
    expect(
      await store.tenantTransaction('north', (tx) =>
        tx.query<{ enterprise_id: string }>('SELECT enterprise_id FROM identity'),
      ),
    ).toEqual([{ enterprise_id: 'E-north-1' }]);
    await expect(
      store.tenantTransaction('south', (tx) =>
        tx.query(
          "INSERT INTO identity (tenant_id, enterprise_id, logical_version, canonical_json, status, created_at, updated_at) VALUES ('north', 'E-smuggled', 1, '{}', 'active', now(), now())",
        ),
      ),
    ).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(store.query('SELECT count(*) FROM blocking_tag')).rejects.toMatchObject({ kind: 'validation' });
    await store.close();
  });

  it("keeps the registry's own checks: a tag is 16 bytes, stored JSON is JSON", async () => {
    const store = await PgStore.open(await freshDatabase());
    await ensureTenant(store, 'north');
    await expect(
      store.tenantTransaction('north', (tx) =>
        tx.query(
          "INSERT INTO identity (tenant_id, enterprise_id, logical_version, canonical_json, status, created_at, updated_at) VALUES ('north', 'E-1', 1, 'not json', 'active', now(), now())",
        ),
      ),
    ).rejects.toBeDefined();
    await expect(
      store.tenantTransaction('north', async (tx) => {
        const [identity] = await tx.query<{ identity_id: string }>(
          "INSERT INTO identity (tenant_id, enterprise_id, logical_version, canonical_json, status, created_at, updated_at) VALUES ('north', 'E-2', 1, '{}', 'active', now(), now()) RETURNING identity_id",
        );
        await tx.query(
          "INSERT INTO blocking_tag (tenant_id, tag, identity_id, rule_name, rule_set_version, key_version) VALUES ('north', $1, $2, 'birth-date', 1, 'k1')",
          [Buffer.alloc(8), identity?.identity_id],
        );
      }),
    ).rejects.toBeDefined();
    // Neither write left anything behind.
    expect(await store.tenantTransaction('north', (tx) => tx.query('SELECT * FROM identity'))).toEqual([]);
    await store.close();
  });
});
