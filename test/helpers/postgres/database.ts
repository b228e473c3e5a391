/**
 * A fresh, empty database in the run's throwaway cluster (global-setup.ts), for one test file or test, owned by the
 * registry's role (no SUPERUSER, no BYPASSRLS): the URL connects as that role, as a deployment would.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { PgStore } from '../../../engine/store/pg/db.ts';

export async function freshDatabase(): Promise<string> {
  const admin = inject('postgresUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const role = inject('postgresAppRole');
  const store = await PgStore.open(admin, { migrations: [], maxConnections: 1, administration: true });
  try {
    await store.query(`CREATE DATABASE ${name} OWNER ${role}`);
  } finally {
    await store.close();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  url.username = role;
  return url.toString();
}
