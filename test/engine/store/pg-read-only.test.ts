/**
 * A registry pointed at a PostgreSQL database that accepts no writes (a standby server, or a database set read-only
 * as here) says so and what to do, at opening and on a write, rather than "failed unexpectedly (PgError)".
 */
import { describe, expect, it } from 'vitest';
import { isStorageError } from '../../../engine/contract/errors.ts';
import { Store } from '../../../engine/store/store.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';

const READ_ONLY =
  'the database accepts no writes (SQLSTATE 25006: a standby server, or a database or role set read-only); give the registry the URL of its primary server';

const failureOf = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return 'no error';
};

describe('a PostgreSQL database that accepts no writes', () => {
  it('is said in plain words when the registry opens, and on a write', async () => {
    const url = await freshDatabase();
    const store = Store.open(url);
    try {
      store.exec("INSERT INTO tenant (tenant_id, created_at) VALUES ('north', now())");
      // This session turned read-only, as a standby's are: a write fails with what to do.
      store.exec('SET default_transaction_read_only = on');
      const refused = failureOf(() =>
        withTenant('north', () =>
          store.write(() =>
            store
              .statement(
                "INSERT INTO audit_record (tenant_id, at, actor, action, subject, detail_json) VALUES ('north', '2026-01-01T00:00:00.000Z', 'a', 'b', 'c', '{}')",
              )
              .run(),
          ),
        ),
      );
      expect(isStorageError(refused)).toBe(true);
      expect(refused).toMatchObject({ kind: 'internal', message: READ_ONLY });
      // The whole database read-only: a registry cannot even be opened on it (its migrations check in writing).
      store.exec('SET default_transaction_read_only = off');
      store.exec(`ALTER DATABASE ${new URL(url).pathname.slice(1)} SET default_transaction_read_only = on`);
    } finally {
      store.close();
    }
    expect(
      failureOf(() => {
        Store.open(url).close();
      }),
    ).toMatchObject({ kind: 'internal', message: READ_ONLY });
  });
});
