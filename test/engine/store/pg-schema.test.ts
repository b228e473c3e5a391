/**
 * The registry's schema on PostgreSQL kept in step with SQLite's (engine/store/pg/migrations beside
 * engine/store/migrations): every table and column of one store is in the other, every tenant-scoped table refuses
 * what row-level security must refuse, and the registry's own checks (a tag is 16 bytes, JSON is JSON) hold there
 * too. Real PostgreSQL: the run's throwaway cluster.
 */
import { ScoreLimitSchema } from '../../../engine/contract/matching.ts';
import { describe, expect, it } from 'vitest';
import { isEngineError } from '../../../engine/contract/errors.ts';
import { Store } from '../../../engine/store/store.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';

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

function postgresColumns(store: Store): Map<string, Set<string>> {
  const rows = store
    .statement("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'")
    .all() as { table_name: string; column_name: string }[];
  const out = new Map<string, Set<string>>();
  for (const { table_name: table, column_name: column } of rows) {
    const columns = out.get(table) ?? new Set<string>();
    columns.add(column);
    out.set(table, columns);
  }
  return out;
}

/** The engine error kind a call fails with ('none' when it does not fail). */
function failure(fn: () => unknown): string {
  try {
    fn();
    return 'none';
  } catch (error) {
    return isEngineError(error) ? error.kind : 'database';
  }
}

const INSERT_IDENTITY = `INSERT INTO identity (tenant_id, enterprise_id, logical_version, canonical_json, status, created_at, updated_at)
  VALUES (?, ?, 1, ?, 'active', now(), now()) RETURNING identity_id`;
const INSERT_TAG =
  "INSERT INTO blocking_tag (tenant_id, tag, identity_id, rule_name, rule_set_version, key_version) VALUES (?, ?, ?, 'birth-date', 1, 'k1')";

async function registryWithTenants(): Promise<Store> {
  const store = Store.open(await freshDatabase());
  store.exec("INSERT INTO tenant (tenant_id, created_at) VALUES ('north', now()), ('south', now())");
  return store;
}

describe('the registry schema on PostgreSQL', () => {
  it('has every table and column SQLite has, and no other', async () => {
    const store = Store.open(await freshDatabase());
    try {
      const sqlite = sqliteColumns();
      const postgres = postgresColumns(store);
      expect([...postgres.keys()].sort()).toEqual([...sqlite.keys()].sort());
      for (const [table, columns] of sqlite)
        expect([...(postgres.get(table) ?? [])].sort(), table).toEqual([...columns].sort());
    } finally {
      store.close();
    }
  });

  it('forces row-level security with a tenant policy on every table that holds a tenant, for its owner too', async () => {
    const store = Store.open(await freshDatabase());
    try {
      const tables = store
        .statement(
          `SELECT c.relname AS "table", c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
                  (SELECT count(*) FROM pg_policy p WHERE p.polrelid = c.oid) AS policies
             FROM pg_class c JOIN information_schema.columns col ON col.table_name = c.relname AND col.column_name = 'tenant_id'
            WHERE c.relkind = 'r' AND col.table_schema = 'public' AND c.relname <> 'tenant'`,
        )
        .all() as { table: string; enabled: number; forced: number; policies: number }[];
      expect(tables.length).toBeGreaterThanOrEqual(20);
      for (const t of tables) expect({ ...t }, t.table).toEqual({ table: t.table, enabled: 1, forced: 1, policies: 1 });
    } finally {
      store.close();
    }
  });

  it("hides one tenant's identities and tags from another and refuses a write across, or without a tenant", async () => {
    const store = await registryWithTenants();
    try {
      const tag = Buffer.alloc(16, 7);
      withTenant('north', () => {
        store.write(() => {
          const id = store.statement(INSERT_IDENTITY).pluck().get('north', 'E-north-1', '{"name":"north"}');
          store.statement(INSERT_TAG).run('north', tag, id);
        });
      });
      withTenant('south', () => {
        expect(store.statement('SELECT * FROM identity').all()).toEqual([]);
        expect(store.statement('SELECT * FROM blocking_tag').all()).toEqual([]);
        expect(failure(() => store.statement(INSERT_IDENTITY).run('north', 'E-smuggled', '{}'))).toBe('forbidden');
      });
      expect(withTenant('north', () => store.statement('SELECT enterprise_id FROM identity').all())).toEqual([
        { enterprise_id: 'E-north-1' },
      ]);
      expect(failure(() => store.statement('SELECT count(*) FROM blocking_tag').get())).toBe('validation');
    } finally {
      store.close();
    }
  });

  it("keeps the registry's own checks: a tag is 16 bytes, stored JSON is JSON", async () => {
    const store = await registryWithTenants();
    try {
      withTenant('north', () => {
        expect(failure(() => store.statement(INSERT_IDENTITY).run('north', 'E-1', 'not json'))).toBe('database');
        expect(
          failure(() => {
            store.write(() => {
              const id = store.statement(INSERT_IDENTITY).pluck().get('north', 'E-2', '{}');
              store.statement(INSERT_TAG).run('north', Buffer.alloc(8), id);
            });
          }),
        ).toBe('database');
        // Neither write left anything behind.
        expect(store.statement('SELECT * FROM identity').all()).toEqual([]);
        // A review case takes every rule the scorer holds pairs by, as SQLite's does (migrations.test.ts).
        const limits = store
          .statement(
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'review_case_limited_by_check'",
          )
          .pluck()
          .get() as string;
        for (const limit of ScoreLimitSchema.options) expect(limits).toContain(`'${limit}'`);
      });
    } finally {
      store.close();
    }
  });
});
