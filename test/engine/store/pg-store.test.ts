/**
 * The PostgreSQL store behind the engine's synchronous store interface, on a real PostgreSQL (a fresh database in
 * the run's throwaway cluster): SQLite's texts rewritten for PostgreSQL; values back as the SQLite store gives them;
 * the database's row-level security refusing a statement made outside a tenant's call and another tenant's rows;
 * transactions, savepoints and snapshots; writers of one tenant taking turns while another tenant writes; a
 * connection that cannot be made, said without its password.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { isEngineError } from '../../../engine/contract/errors.ts';
import { Store } from '../../../engine/store/store.ts';
import { toPostgres } from '../../../engine/store/pg/dialect.ts';
import { PgStore, loadPgMigrations } from '../../../engine/store/pg/pg-store.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';

const OPEN_REGISTRY = fileURLToPath(new URL('./open-registry.ts', import.meta.url));

const kindOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return isEngineError(error) ? `${error.kind}: ${error.message}` : `other: ${String(error)}`;
  }
  return 'no error';
};

describe('SQLite texts for PostgreSQL', () => {
  it('numbers placeholders outside quotes, drops planner hints, turns INSERT OR IGNORE into ON CONFLICT', () => {
    expect(toPostgres("SELECT a AS sourceSystem, '?' AS q FROM t INDEXED BY t_by_x WHERE x = ? AND y = ?")).toBe(
      `SELECT a AS "sourceSystem", '?' AS q FROM t  WHERE x = $1 AND y = $2`,
    );
    expect(toPostgres('INSERT OR IGNORE INTO t (a, b) VALUES (?, ?)')).toBe(
      'INSERT INTO t (a, b) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    );
    expect(toPostgres(`SELECT "it's ?" FROM t WHERE a = 'don''t ?' AND b = ?`)).toBe(
      `SELECT "it's ?" FROM t WHERE a = 'don''t ?' AND b = $1`,
    );
    expect(() => toPostgres('INSERT OR IGNORE INTO t (a) VALUES (?) RETURNING a')).toThrow(/write the PostgreSQL text/);
  });
});

describe('the PostgreSQL store', () => {
  it('keeps tenants apart in the database itself', async () => {
    const store = Store.open(await freshDatabase());
    try {
      store.exec("INSERT INTO tenant (tenant_id, created_at) VALUES ('north', now()), ('south', now())");
      const insert =
        "INSERT INTO audit_record (tenant_id, at, actor, action, subject, detail_json) VALUES (?, ?, 'a', 'b', 'c', '{}')";
      withTenant('north', () => store.statement(insert).run('north', '2026-01-01T00:00:00.000Z'));
      withTenant('south', () => store.statement(insert).run('south', '2026-01-02T00:00:00.000Z'));
      // A query that forgets its tenant filter sees only the call's tenant.
      const all = 'SELECT tenant_id, at FROM audit_record ORDER BY at';
      expect(withTenant('north', () => store.statement(all).all())).toEqual([
        { tenant_id: 'north', at: '2026-01-01T00:00:00.000Z' },
      ]);
      // Outside any tenant's call the database refuses it.
      expect(kindOf(() => store.statement(all).all())).toBe(
        'validation: the database refused a statement made without a tenant',
      );
      // A write of another tenant's row is refused, and nothing is written.
      expect(
        kindOf(() => withTenant('north', () => store.statement(insert).run('south', '2026-01-03T00:00:00Z'))),
      ).toMatch(/^forbidden: .*row-level security/);
      expect(withTenant('south', () => store.statement('SELECT count(*) FROM audit_record').pluck().get())).toBe(1);
    } finally {
      store.close();
    }
  });

  it('gives values back as the SQLite store does', async () => {
    const store = Store.open(await freshDatabase());
    try {
      const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const row = store
        .statement(
          "SELECT 9007199254740991::bigint AS big, 2.5::float8 AS f, ?::bytea AS b, true AS yes, NULL AS nothing, '2026-11-26 10:00:00.123+02'::timestamptz AS at, count(*) AS n FROM (VALUES (1), (2)) AS v(x)",
        )
        .get(every) as Record<string, unknown>;
      expect(row).toEqual({
        big: 9007199254740991,
        f: 2.5,
        b: every,
        yes: 1,
        nothing: null,
        at: '2026-11-26T08:00:00.123Z',
        n: 2,
      });
      expect(Buffer.isBuffer(row.b)).toBe(true);
      expect(store.statement('SELECT ?::int AS x, ?::text AS y').raw().all(7, 'seven')).toEqual([[7, 'seven']]);
    } finally {
      store.close();
    }
  });

  it('rolls back a failed transaction, and only the inner savepoint of a nested one', async () => {
    const store = Store.open(await freshDatabase());
    try {
      store.exec("INSERT INTO tenant (tenant_id, created_at) VALUES ('t', now())");
      withTenant('t', () => {
        const add = store.statement(
          "INSERT INTO audit_record (tenant_id, at, actor, action, subject, detail_json) VALUES ('t', now(), 'a', ?, 'c', '{}')",
        );
        const count = (): unknown => store.statement('SELECT count(*) FROM audit_record').pluck().get();
        expect(() =>
          store.write(() => {
            add.run('first');
            throw new Error('stop');
          }),
        ).toThrow('stop');
        expect(count()).toBe(0);
        store.write(() => {
          add.run('kept');
          expect(() =>
            store.write(() => {
              add.run('inner');
              throw new Error('inner');
            }),
          ).toThrow('inner');
          add.run('kept too');
        });
        expect(store.statement('SELECT action FROM audit_record ORDER BY audit_id').pluck().all()).toEqual([
          'kept',
          'kept too',
        ]);
        expect(store.inTransaction).toBe(false);
      });
    } finally {
      store.close();
    }
  });

  it("makes one tenant's writers take turns, and lets another tenant write meanwhile", async () => {
    const url = await freshDatabase();
    const first = Store.open(url);
    const second = Store.open(url, { busyTimeoutMs: 300 });
    try {
      first.exec("INSERT INTO tenant (tenant_id, created_at) VALUES ('t', now()), ('u', now())");
      withTenant('t', () => {
        first.write(() => {
          // The same tenant's writer waits for this transaction, which cannot end while it waits: busy.
          expect(
            kindOf(() => {
              second.write(() => undefined);
            }),
          ).toMatch(/^conflict: .*busy/);
          // Another tenant's writer does not wait.
          expect(withTenant('u', () => second.write(() => 'written'))).toBe('written');
        });
      });
    } finally {
      first.close();
      second.close();
    }
  });

  it('applies the hashed migrations once when replicas start together, and refuses an edited one', async () => {
    const url = await freshDatabase();
    const replicas = Array.from({ length: 3 }, () =>
      spawn(process.execPath, ['--import', 'tsx', OPEN_REGISTRY, url], { stdio: ['ignore', 'ignore', 'pipe'] }),
    );
    const codes = await Promise.all(
      replicas.map((child) => new Promise<number | null>((resolve) => child.once('exit', resolve))),
    );
    expect(codes).toEqual([0, 0, 0]);
    const store = Store.open(url);
    try {
      expect(
        store.statement('SELECT migration_id, sha256 FROM schema_migration ORDER BY migration_id').raw().all(),
      ).toEqual(loadPgMigrations().map((m) => [m.id, m.sha256]));
    } finally {
      store.close();
    }
    const edited = loadPgMigrations().map((m) => (m.id === 1 ? { ...m, sha256: 'f'.repeat(64) } : m));
    expect(
      kindOf(() => {
        PgStore.open(url, { migrations: edited }).close();
      }),
    ).toMatch(/differs from the one applied to this database/);
  });

  it('opens a new connection after losing one, outside a transaction', async () => {
    const url = await freshDatabase();
    const store = Store.open(url);
    const admin = PgStore.open(inject('postgresUrl'), { administration: true });
    try {
      const pid = store.statement('SELECT pg_backend_pid()').pluck().get();
      admin.statement('SELECT pg_terminate_backend(?::int)').run(pid);
      // The statement that meets the closed connection fails, saying what to check; the next one reconnects.
      expect(kindOf(() => store.statement('SELECT 1').get())).toMatch(/^conflict: .*check that the database server/);
      expect(store.statement('SELECT 2 AS n').pluck().get()).toBe(2);
      expect(store.statement('SELECT pg_backend_pid()').pluck().get()).not.toBe(pid);
    } finally {
      store.close();
      admin.close();
    }
  });

  it('says it cannot connect, without the password of the URL', () => {
    const message = kindOf(() => Store.open('postgres://mpi_app:s3cret-word@127.0.0.1:1/none'));
    expect(message).toMatch(/cannot connect to the PostgreSQL registry/);
    expect(message).not.toContain('s3cret-word');
  });
});
