/**
 * The tenant's term frequencies (migration 0007): counts of normalised family and given names over its source
 * records, changed by insertRecord / updateRecord in the same transaction as the record, read when the scorer
 * prepares a record (scoring/term-frequency.ts). Every statement names the tenant.
 */
import type { Store } from './store.ts';
import { forIdChunks } from './id-chunks.ts';
import type { MatchFields } from '../contract/fields.ts';
import {
  TERM_FREQUENCY_FIELDS,
  type TermCount,
  type TermFrequencyField,
  type TermFrequencyReader,
} from '../scoring/term-frequency.ts';

/** A name's count less one (a record's name changed), its totals with it. */
function decrement(store: Store, tenantId: string, field: TermFrequencyField, value: string): void {
  const before = store
    .statement('SELECT count FROM term_frequency WHERE tenant_id = ? AND field = ? AND value = ?')
    .pluck()
    .get(tenantId, field, value) as number | undefined;
  if (before === undefined) return;
  const after = before - 1;
  if (after === 0)
    store
      .statement('DELETE FROM term_frequency WHERE tenant_id = ? AND field = ? AND value = ?')
      .run(tenantId, field, value);
  else
    store
      .statement('UPDATE term_frequency SET count = ? WHERE tenant_id = ? AND field = ? AND value = ?')
      .run(after, tenantId, field, value);
  // (c − 1)² − c² = −2c + 1. A decrement follows an increment, so the totals row exists.
  store
    .statement(
      'UPDATE term_frequency_total SET total = total - 1, sum_squares = sum_squares + ? WHERE tenant_id = ? AND field = ?',
    )
    .run(after * after - before * before, tenantId, field);
}

/** The statements of `increment` for 1 or 2 names (one per field at most), by count (texts built once). */
const INCREMENT_SQL = [1, 2].map((names) => ({
  counts:
    'INSERT INTO term_frequency (tenant_id, field, value, count) VALUES ' +
    Array.from({ length: names }, () => '(?, ?, ?, 1)').join(', ') +
    ' ON CONFLICT (tenant_id, field, value) DO UPDATE SET count = term_frequency.count + 1 RETURNING field, count',
  totals:
    'INSERT INTO term_frequency_total (tenant_id, field, total, sum_squares) VALUES ' +
    Array.from({ length: names }, () => '(?, ?, 1, ?)').join(', ') +
    ` ON CONFLICT (tenant_id, field) DO UPDATE SET total = term_frequency_total.total + 1,
      sum_squares = term_frequency_total.sum_squares + excluded.sum_squares`,
}));

/**
 * Counts names once more, at most one per field, in two statements whatever their number (a new record's family
 * and given name were four): the counts after, from which the counts before follow, then the fields' totals.
 */
function increment(store: Store, tenantId: string, names: readonly [TermFrequencyField, string][]): void {
  const sql = INCREMENT_SQL[names.length - 1];
  if (sql === undefined) throw new RangeError('increment takes one or two names, one per field');
  const args: string[] = [];
  for (const [field, value] of names) args.push(tenantId, field, value);
  const rows = store
    .statement(sql.counts)
    .raw()
    .all(...args) as [TermFrequencyField, number][];
  const totals: (string | number)[] = [];
  // (c + 1)² − c² = 2c + 1, from the count after: 2·after − 1.
  for (const [field, after] of rows) totals.push(tenantId, field, 2 * after - 1);
  store.statement(sql.totals).run(...totals);
}

/** Counts a written record's names: `before` is the record's previous fields (null for a new record). */
export function countRecordTerms(store: Store, tenantId: string, before: MatchFields | null, after: MatchFields): void {
  const added: [TermFrequencyField, string][] = [];
  for (const field of TERM_FREQUENCY_FIELDS) {
    const old = before?.[field] ?? null;
    const now = after[field];
    if (old === now) continue;
    if (old !== null && old !== '') decrement(store, tenantId, field, old);
    if (now !== null && now !== '') added.push([field, now]);
  }
  if (added.length > 0) increment(store, tenantId, added);
}

/**
 * The tenant's counts as the scorer reads them: one statement per value (its count and the field's totals), or for
 * a family and a given name together.
 */
export function storedTermFrequencies(store: Store, tenantId: string): TermFrequencyReader {
  const count = (field: TermFrequencyField, value: string): TermCount => {
    const row = store
      .statement(
        `SELECT (SELECT count FROM term_frequency WHERE tenant_id = t.tenant_id AND field = t.field AND value = ?), total, sum_squares
         FROM term_frequency_total t WHERE t.tenant_id = ? AND t.field = ?`,
      )
      .raw()
      .get(value, tenantId, field) as [number | null, number, number] | undefined;
    return { count: row?.[0] ?? 0, total: row?.[1] ?? 0, sumSquares: row?.[2] ?? 0 };
  };
  return {
    count,
    countNames(familyName, givenName) {
      const rows = store
        .statement(
          `SELECT t.field, (SELECT count FROM term_frequency WHERE tenant_id = t.tenant_id AND field = t.field
             AND value = CASE t.field WHEN 'familyName' THEN ? ELSE ? END), total, sum_squares
           FROM term_frequency_total t WHERE t.tenant_id = ? AND t.field IN ('familyName', 'givenName')`,
        )
        .raw()
        .all(familyName, givenName, tenantId) as [TermFrequencyField, number | null, number, number][];
      const of = (field: TermFrequencyField): TermCount => {
        const row = rows.find((r) => r[0] === field);
        return { count: row?.[1] ?? 0, total: row?.[2] ?? 0, sumSquares: row?.[3] ?? 0 };
      };
      return [of('familyName'), of('givenName')];
    },
  };
}

/**
 * The counts of these names read in bulk, for preparing many records in one read transaction: the same answers as
 * storedTermFrequencies there, in a statement per 500 values of a field instead of one per record. A value not
 * among them is read as storedTermFrequencies reads it.
 */
export function termCountsOf(
  store: Store,
  tenantId: string,
  names: readonly Pick<MatchFields, TermFrequencyField>[],
): TermFrequencyReader {
  const totals = fieldTotals(store, tenantId);
  const counts = new Map<TermFrequencyField, Map<string, number>>();
  for (const field of TERM_FREQUENCY_FIELDS) {
    const values = [...new Set(names.map((name) => name[field]).filter((v): v is string => v !== null && v !== ''))];
    const known = new Map<string, number>(values.map((value) => [value, 0]));
    forIdChunks(values, 500, (part, placeholders) => {
      const rows = store
        .statement(
          `SELECT value, count FROM term_frequency WHERE tenant_id = ? AND field = ? AND value IN (${placeholders})`,
        )
        .raw()
        .all(tenantId, field, ...part) as [string, number][];
      for (const [value, count] of rows) known.set(value, count);
    });
    counts.set(field, known);
  }
  const stored = storedTermFrequencies(store, tenantId);
  return {
    count(field, value) {
      const count = counts.get(field)?.get(value);
      if (count === undefined) return stored.count(field, value);
      return termCount(count, totals.get(field));
    },
  };
}

/**
 * The registry's size as the scorer reads it from the counts (scorer.ts registryRecords): the most records carrying a
 * family or a given name.
 */
export function countedRecords(store: Store, tenantId: string): number {
  const totals = fieldTotals(store, tenantId);
  return Math.max(totals.get('familyName')?.total ?? 0, totals.get('givenName')?.total ?? 0);
}

/** A value's answer: its count beside its field's totals (zero when the field has none yet). */
function termCount(count: number, totals: { total: number; sumSquares: number } | undefined): TermCount {
  return { count, total: totals?.total ?? 0, sumSquares: totals?.sumSquares ?? 0 };
}

/** Each field's number of named records and Σ count², by field. */
function fieldTotals(store: Store, tenantId: string): Map<string, { total: number; sumSquares: number }> {
  const rows = store
    .statement('SELECT field, total, sum_squares AS sumSquares FROM term_frequency_total WHERE tenant_id = ?')
    .all(tenantId) as { field: string; total: number; sumSquares: number }[];
  return new Map(rows.map((row) => [row.field, { total: row.total, sumSquares: row.sumSquares }]));
}

/**
 * The tenant's counts read once into memory, for an operation that prepares every record of the tenant inside one
 * read transaction (the unsupervised estimate, the link-quality scan, the audit): the same answers as
 * storedTermFrequencies there, without two lookups per name. One map per field holding each value's answer, shared
 * by every record that names it: a lookup builds no key and no object (at a million records, keys joined from field
 * and value and an answer built per call were 1.4 s of the link-quality scan's 24 s).
 */
export function termFrequencySnapshot(store: Store, tenantId: string): TermFrequencyReader {
  const totals = fieldTotals(store, tenantId);
  const answers = new Map<string, { readonly none: TermCount; readonly counts: Map<string, TermCount> }>();
  for (const field of TERM_FREQUENCY_FIELDS) {
    const total = totals.get(field);
    const counts = new Map<string, TermCount>();
    for (const [value, count] of store
      .statement('SELECT value, count FROM term_frequency WHERE tenant_id = ? AND field = ?')
      .raw()
      .all(tenantId, field) as [string, number][])
      counts.set(value, termCount(count, total));
    answers.set(field, { none: termCount(0, total), counts });
  }
  return {
    count(field: TermFrequencyField, value: string): TermCount {
      const answer = answers.get(field);
      if (answer === undefined) return termCount(0, undefined);
      return answer.counts.get(value) ?? answer.none;
    },
  };
}
