import { closeSync, openSync, writeSync } from 'node:fs';
import { expect } from 'vitest';
import { SqliteStore } from '../../engine/store/db.ts';

/**
 * Damages a closed SQLite registry as a failing disk would: the first page of the table and of each of its indexes
 * overwritten, so reading the table fails (SQLITE_CORRUPT) while the rest of the file still opens.
 */
export function damageTable(path: string, table: string): void {
  const store = SqliteStore.open(path, { readonly: true });
  const pageSize = store.statement('PRAGMA page_size').pluck().get() as number;
  const roots = store
    .statement('SELECT rootpage FROM sqlite_master WHERE tbl_name = ? AND rootpage > 0')
    .pluck()
    .all(table) as number[];
  store.close();
  expect(roots.length).toBeGreaterThan(1);
  const fd = openSync(path, 'r+');
  try {
    for (const root of roots) writeSync(fd, Buffer.alloc(pageSize, 0xff), 0, pageSize, (root - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}
