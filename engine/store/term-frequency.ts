/**
 * The tenant's term frequencies (migration 0007): counts of normalised family and given names over its source
 * records, changed by insertRecord / updateRecord in the same transaction as the record, read when the scorer
 * prepares a record (scoring/term-frequency.ts). Every statement names the tenant.
 */
import type { Store } from './db.ts';
import type { MatchFields } from '../contract/fields.ts';
import { TERM_FREQUENCY_FIELDS, type TermCount, type TermFrequencyField, type TermFrequencyReader } from '../scoring/term-frequency.ts';

function change(store: Store, tenantId: string, field: TermFrequencyField, value: string | null, delta: 1 | -1): void {
  if (value === null || value === '') return;
  if (delta === 1) {
    store
      .statement(
        `INSERT INTO term_frequency (tenant_id, field, value, count) VALUES (?, ?, ?, 1)
         ON CONFLICT (tenant_id, field, value) DO UPDATE SET count = count + 1`,
      )
      .run(tenantId, field, value);
    store
      .statement(
        `INSERT INTO term_frequency_total (tenant_id, field, total) VALUES (?, ?, 1)
         ON CONFLICT (tenant_id, field) DO UPDATE SET total = total + 1`,
      )
      .run(tenantId, field);
    return;
  }
  store.statement('UPDATE term_frequency SET count = count - 1 WHERE tenant_id = ? AND field = ? AND value = ? AND count > 0').run(tenantId, field, value);
  store.statement('UPDATE term_frequency_total SET total = total - 1 WHERE tenant_id = ? AND field = ? AND total > 0').run(tenantId, field);
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

/** The tenant's counts as the scorer reads them: one indexed lookup per value, totals read once per call. */
export function storedTermFrequencies(store: Store, tenantId: string): TermFrequencyReader {
  return {
    count(field: TermFrequencyField, value: string): TermCount {
      const row = store.statement('SELECT count FROM term_frequency WHERE tenant_id = ? AND field = ? AND value = ?').get(tenantId, field, value) as
        | { count: number }
        | undefined;
      const total = store.statement('SELECT total FROM term_frequency_total WHERE tenant_id = ? AND field = ?').get(tenantId, field) as
        | { total: number }
        | undefined;
      return { count: row?.count ?? 0, total: total?.total ?? 0 };
    },
  };
}
