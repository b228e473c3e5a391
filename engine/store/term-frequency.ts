/**
 * The tenant's term frequencies (migration 0007): counts of normalised family and given names over its source
 * records, changed by insertRecord / updateRecord in the same transaction as the record, read when the scorer
 * prepares a record (scoring/term-frequency.ts). Every statement names the tenant.
 */
import type { Store } from './store.ts';
import type { MatchFields } from '../contract/fields.ts';
import {
  TERM_FREQUENCY_FIELDS,
  type TermCount,
  type TermFrequencyField,
  type TermFrequencyReader,
} from '../scoring/term-frequency.ts';

function change(store: Store, tenantId: string, field: TermFrequencyField, value: string | null, delta: 1 | -1): void {
  if (value === null || value === '') return;
  let after: number;
  if (delta === 1) {
    // One statement: the count after, from which the count before follows.
    after = store
      .statement(
        `INSERT INTO term_frequency (tenant_id, field, value, count) VALUES (?, ?, ?, 1)
         ON CONFLICT (tenant_id, field, value) DO UPDATE SET count = term_frequency.count + 1 RETURNING count`,
      )
      .pluck()
      .get(tenantId, field, value) as number;
  } else {
    const before = store
      .statement('SELECT count FROM term_frequency WHERE tenant_id = ? AND field = ? AND value = ?')
      .pluck()
      .get(tenantId, field, value) as number | undefined;
    if (before === undefined) return;
    after = before - 1;
    if (after === 0)
      store
        .statement('DELETE FROM term_frequency WHERE tenant_id = ? AND field = ? AND value = ?')
        .run(tenantId, field, value);
    else
      store
        .statement('UPDATE term_frequency SET count = ? WHERE tenant_id = ? AND field = ? AND value = ?')
        .run(after, tenantId, field, value);
  }
  const before = after - delta;
  // (c ± 1)² − c² = ±2c + 1. A decrement follows an increment, so its totals row exists (and the CHECKs on an
  // upsert's inserted values would refuse negative ones).
  if (delta === 1) {
    store
      .statement(
        `INSERT INTO term_frequency_total (tenant_id, field, total, sum_squares) VALUES (?, ?, 1, ?)
         ON CONFLICT (tenant_id, field) DO UPDATE SET total = term_frequency_total.total + 1,
           sum_squares = term_frequency_total.sum_squares + excluded.sum_squares`,
      )
      .run(tenantId, field, after * after - before * before);
  } else {
    store
      .statement(
        'UPDATE term_frequency_total SET total = total - 1, sum_squares = sum_squares + ? WHERE tenant_id = ? AND field = ?',
      )
      .run(after * after - before * before, tenantId, field);
  }
}

/** Counts a written record's names: `before` is the record's previous fields (null for a new record). */
export function countRecordTerms(store: Store, tenantId: string, before: MatchFields | null, after: MatchFields): void {
  for (const field of TERM_FREQUENCY_FIELDS) {
    const old = before?.[field] ?? null;
    const now = after[field];
    if (old === now) continue;
    change(store, tenantId, field, old, -1);
    change(store, tenantId, field, now, 1);
  }
}

/** The tenant's counts as the scorer reads them: one statement per value (its count and the field's totals). */
export function storedTermFrequencies(store: Store, tenantId: string): TermFrequencyReader {
  return {
    count(field: TermFrequencyField, value: string): TermCount {
      // One statement for the value's count and the field's totals.
      const row = store
        .statement(
          `SELECT (SELECT count FROM term_frequency WHERE tenant_id = t.tenant_id AND field = t.field AND value = ?), total, sum_squares
           FROM term_frequency_total t WHERE t.tenant_id = ? AND t.field = ?`,
        )
        .raw()
        .get(value, tenantId, field) as [number | null, number, number] | undefined;
      return { count: row?.[0] ?? 0, total: row?.[1] ?? 0, sumSquares: row?.[2] ?? 0 };
    },
  };
}

/**
 * The tenant's counts read once into memory, for an operation that prepares every record of the tenant inside one
 * read transaction (the unsupervised estimate): the same answers as storedTermFrequencies there, without two
 * lookups per name.
 */
export function termFrequencySnapshot(store: Store, tenantId: string): TermFrequencyReader {
  const counts = new Map<string, number>();
  const rows = store.statement('SELECT field, value, count FROM term_frequency WHERE tenant_id = ?').all(tenantId) as {
    field: string;
    value: string;
    count: number;
  }[];
  for (const row of rows) counts.set(`${row.field}\u0000${row.value}`, row.count);
  const totals = new Map<string, { total: number; sumSquares: number }>();
  const totalRows = store
    .statement('SELECT field, total, sum_squares AS sumSquares FROM term_frequency_total WHERE tenant_id = ?')
    .all(tenantId) as { field: string; total: number; sumSquares: number }[];
  for (const row of totalRows) totals.set(row.field, { total: row.total, sumSquares: row.sumSquares });
  return {
    count(field: TermFrequencyField, value: string): TermCount {
      const total = totals.get(field);
      return {
        count: counts.get(`${field}\u0000${value}`) ?? 0,
        total: total?.total ?? 0,
        sumSquares: total?.sumSquares ?? 0,
      };
    },
  };
}
