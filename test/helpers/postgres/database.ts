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

/** A copy of a database no one is connected to (CREATE DATABASE … TEMPLATE), owned by the registry's role. */
export async function copyOfDatabase(url: string): Promise<string> {
  const admin = inject('postgresUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const from = new URL(url).pathname.slice(1);
  if (!/^t_[0-9a-f]{12}$/.test(from)) throw new Error('not a database freshDatabase made');
  const store = await PgStore.open(admin, { migrations: [], maxConnections: 1, administration: true });
  try {
    await store.query(`CREATE DATABASE ${name} TEMPLATE ${from} OWNER ${inject('postgresAppRole')}`);
  } finally {
    await store.close();
  }
  const copy = new URL(url);
  copy.pathname = `/${name}`;
  return copy.toString();
}
