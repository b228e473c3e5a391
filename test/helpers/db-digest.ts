import { createHash } from 'node:crypto';
import type { Store } from '../../engine/store/store.ts';

/**
 * A digest of every row of every table (all tenants): equal digests before and after a request mean the
 * request changed nothing in the database.
 */
export function databaseDigest(store: Store): string {
  const hash = createHash('sha256');
  const tables = store
    .statement("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string }[];
  for (const { name } of tables) {
    const rows = store
      .statement(`SELECT * FROM "${name}"`)
      .all()
      .map((row) => JSON.stringify(row, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : v)))
      .sort();
    hash.update(`${name}\n${rows.join('\n')}\n`);
  }
  return hash.digest('hex');
}
