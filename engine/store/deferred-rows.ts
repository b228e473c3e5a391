/**
 * Rows of append-only tables that nothing reads back while a chunk of records (or a job's batch) is written (a
 * record's resource, its ingestion receipt, an identity event), gathered during the chunk and written at its end in
 * multi-row inserts, inside the chunk's transaction. Each such row was a statement of its own, and on PostgreSQL a
 * statement is a round trip: three of a new record's thirteen.
 *
 * The writer that gathers them flushes before it reads one of these tables (an update of a record's resource, a
 * receipt looked up) and at the end of the chunk; a failure of the flush fails the chunk, which its caller then
 * replays record by record without deferring, as for any other failed write. Rows go out table by table, each table's
 * in the order they were added, so generated keys (an event's ID) follow that order.
 */
import type { Store } from './store.ts';

/**
 * An append-only table's insert: `INSERT INTO name (columns)`, how many values a row has, and what a row whose key
 * is there already does (`DO NOTHING`: passed over; absent, the insert fails).
 */
export interface DeferredTable {
  readonly insert: string;
  readonly width: number;
  readonly onConflict?: 'DO NOTHING';
}

/** Rows per statement at most; a remainder goes in statements of 32, 16, … 1 rows, so few texts are ever prepared. */
const MAX_ROWS_PER_STATEMENT = 64;

const texts = new Map<DeferredTable, string[]>();

/** The statement inserting `rows` rows into `table` (built once per table and size). */
function insertText(table: DeferredTable, rows: number): string {
  let bySize = texts.get(table);
  if (bySize === undefined) {
    bySize = [];
    texts.set(table, bySize);
  }
  let text = bySize[rows];
  if (text === undefined) {
    const row = `(${Array.from({ length: table.width }, () => '?').join(', ')})`;
    text = `${table.insert} VALUES ${Array.from({ length: rows }, () => row).join(', ')}`;
    if (table.onConflict !== undefined) text += ` ON CONFLICT ${table.onConflict}`;
    bySize[rows] = text;
  }
  return text;
}

/** A row now (a statement of its own) or, given `deferred`, with the chunk's other rows of its table. */
export function insertRow(
  store: Store,
  table: DeferredTable,
  values: readonly unknown[],
  deferred?: DeferredRows,
): void {
  if (deferred === undefined) store.statement(insertText(table, 1)).run(...values);
  else deferred.add(table, values);
}

export class DeferredRows {
  private readonly pending = new Map<DeferredTable, unknown[][]>();

  constructor(private readonly store: Store) {}

  /** A row to insert into `table` before the chunk commits. */
  add(table: DeferredTable, values: readonly unknown[]): void {
    if (values.length !== table.width) throw new RangeError(`a row of ${String(table.width)} values was expected`);
    let rows = this.pending.get(table);
    if (rows === undefined) {
      rows = [];
      this.pending.set(table, rows);
    }
    rows.push([...values]);
  }

  /** Writes every row gathered so far, in the caller's transaction. */
  flush(): void {
    for (const [table, rows] of this.pending) {
      let start = 0;
      while (start < rows.length) {
        let size = MAX_ROWS_PER_STATEMENT;
        while (size > rows.length - start) size >>= 1;
        const args: unknown[] = [];
        for (let i = start; i < start + size; i += 1) args.push(...(rows[i] as unknown[]));
        this.store.statement(insertText(table, size)).run(...args);
        start += size;
      }
    }
    this.pending.clear();
  }
}
