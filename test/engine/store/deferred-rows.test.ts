/**
 * Deferred rows (store/deferred-rows.ts) on SQLite and on a fresh PostgreSQL database: every row added is written
 * once at the flush, in the order added, whatever the count (statements of 64, 32, … 1 rows), tables kept apart; a
 * row of the wrong width is refused when added; a flushed buffer writes nothing twice; insertRow without a buffer
 * writes at once; and a table that passes over rows already there passes over nothing else.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { join } from 'node:path';
import { Store } from '../../../engine/store/store.ts';
import { DeferredRows, insertRow, type DeferredTable } from '../../../engine/store/deferred-rows.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';
import { scratchDir } from '../../helpers/temp.ts';

const WIDE: DeferredTable = { insert: 'INSERT INTO deferred_wide (n, label, weight)', width: 3 };
const NARROW: DeferredTable = { insert: 'INSERT INTO deferred_narrow (n)', width: 1 };
const COUNTS = [0, 1, 2, 3, 63, 64, 65, 127, 128, 130, 1_000];

async function check(postgres: boolean): Promise<void> {
  const { dir, cleanup } = scratchDir();
  onTestFinished(cleanup);
  const store = Store.open(postgres ? await freshDatabase() : join(dir, 'deferred.db'));
  onTestFinished(() => {
    store.close();
  });
  store.exec(
    `CREATE TABLE deferred_wide (id ${postgres ? 'bigserial' : 'INTEGER'} PRIMARY KEY, n integer NOT NULL, label text, weight double precision);
     CREATE TABLE deferred_narrow (id ${postgres ? 'bigserial' : 'INTEGER'} PRIMARY KEY, n integer NOT NULL)`,
  );
  const rowsOf = (table: string): unknown[][] =>
    store.statement(`SELECT * FROM ${table} ORDER BY id`).raw().all() as unknown[][];

  for (const count of COUNTS) {
    store.exec('DELETE FROM deferred_wide; DELETE FROM deferred_narrow');
    const expected: unknown[][] = [];
    store.write(() => {
      const deferred = new DeferredRows(store);
      for (let n = 0; n < count; n += 1) {
        // Values of each kind, a null among them, interleaved with another table's rows.
        const row = [n, n % 7 === 0 ? null : `row ${String(n)}`, n / 4];
        deferred.add(WIDE, row);
        deferred.add(NARROW, [count - n]);
        expected.push(row);
      }
      expect(rowsOf('deferred_wide')).toEqual([]);
      deferred.flush();
      deferred.flush();
    });
    const wide = rowsOf('deferred_wide');
    expect(wide.map(([, ...values]) => values)).toEqual(expected);
    // Keys were generated in the order the rows were added.
    const ids = wide.map(([id]) => id as number);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(rowsOf('deferred_narrow').map(([, n]) => n)).toEqual(expected.map((_, n) => count - n));
  }

  store.exec('DELETE FROM deferred_wide');
  const deferred = new DeferredRows(store);
  expect(() => {
    deferred.add(WIDE, [1, 'two']);
  }).toThrow(/a row of 3 values/);
  store.write(() => {
    insertRow(store, WIDE, [7, 'now', 1.5]);
    insertRow(store, WIDE, [8, 'later', 2.5], deferred);
    expect(rowsOf('deferred_wide').map(([, ...values]) => values)).toEqual([[7, 'now', 1.5]]);
    deferred.flush();
  });
  expect(rowsOf('deferred_wide').map(([, ...values]) => values)).toEqual([
    [7, 'now', 1.5],
    [8, 'later', 2.5],
  ]);

  // A table whose rows may be there already passes over those, and only those: a row its CHECK refuses still fails.
  store.exec(`CREATE TABLE deferred_keyed (k integer PRIMARY KEY, n integer NOT NULL CHECK (n >= 0))`);
  const KEYED: DeferredTable = { insert: 'INSERT INTO deferred_keyed (k, n)', width: 2, onConflict: 'DO NOTHING' };
  const keyedRows = (): unknown[][] =>
    store.statement('SELECT k, n FROM deferred_keyed ORDER BY k').raw().all() as unknown[][];
  store.write(() => {
    const keyed = new DeferredRows(store);
    for (const row of [
      [1, 10],
      [2, 20],
      [1, 99],
    ])
      keyed.add(KEYED, row);
    keyed.flush();
  });
  expect(keyedRows()).toEqual([
    [1, 10],
    [2, 20],
  ]);
  expect(() => {
    store.write(() => {
      insertRow(store, KEYED, [3, -1]);
    });
  }).toThrow(/check/i);
  expect(keyedRows()).toHaveLength(2);
}

describe('rows deferred to the end of a chunk', () => {
  it('are each written once, in the order added, in statements of any size (SQLite)', async () => {
    await check(false);
  });

  it('are each written once, in the order added, in statements of any size (PostgreSQL)', async () => {
    await check(true);
  }, 60_000);
});
