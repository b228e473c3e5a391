/**
 * A fresh, empty database in the run's throwaway cluster (global-setup.ts), for one test file or test, owned by the
 * registry's role (no SUPERUSER, no BYPASSRLS): the URL connects as that role, as a deployment would.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { PgStore } from '../../../engine/store/pg/pg-store.ts';

/** Runs one administration statement (CREATE DATABASE) as the cluster's superuser. */
function administer(sql: string): void {
  const admin = PgStore.open(inject('postgresUrl'), { administration: true });
  try {
    admin.exec(sql);
  } finally {
    admin.close();
  }
}

function urlOf(name: string): string {
  const url = new URL(inject('postgresUrl'));
  url.pathname = `/${name}`;
  url.username = inject('postgresAppRole');
  return url.toString();
}

export function freshDatabase(): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  administer(`CREATE DATABASE ${name} OWNER ${inject('postgresAppRole')}`);
  return Promise.resolve(urlOf(name));
}

/** A copy of a database no one is connected to (CREATE DATABASE … TEMPLATE), owned by the registry's role. */
export function copyOfDatabase(url: string): Promise<string> {
  const from = new URL(url).pathname.slice(1);
  if (!/^t_[0-9a-f]{12}$/.test(from)) throw new Error('not a database freshDatabase made');
  const name = `t_${randomBytes(6).toString('hex')}`;
  administer(`CREATE DATABASE ${name} TEMPLATE ${from} OWNER ${inject('postgresAppRole')}`);
  return Promise.resolve(urlOf(name));
}
