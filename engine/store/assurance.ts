/**
 * Queries of the matching-assurance operations: labelled records by reference, the cross-tenant check
 * (used only to word a rejection), block sizes of blocking tags, and the ground truth of a synthetic
 * sandbox. All reads; the only write is the ground truth a benchmark loader records.
 */
import type { RecordRef } from '../contract/matching.ts';
import { recordRowsOf } from './records.ts';
import type { Store } from './store.ts';
import { forIdChunks } from './id-chunks.ts';

/** A labelled record's identity and version: enough to tell whether a prepared copy is still current. */
export interface LabelledRecordRow {
  readonly recordId: number;
  readonly version: number;
  readonly payloadDigest: string;
  /** The normalised matching fields as JSON, when asked for. */
  readonly fieldsJson?: string;
}

/**
 * The rows of many references at once (in their order; undefined where the tenant has no such record), with their
 * fields when asked, read in bulk (records.ts recordRowsOf; a first evaluation of 10,000 pairs looks up about 8,800
 * records). On SQLite the index seeks cost the same either way; on PostgreSQL each statement is a round trip, and a
 * first evaluation of 10,000 pairs took 2.9 s instead of 0.3 s.
 */
export function findLabelledRecords(
  store: Store,
  tenantId: string,
  refs: readonly RecordRef[],
  withFields: boolean,
): (LabelledRecordRow | undefined)[] {
  const columns = `local_id, record_id AS recordId, logical_version AS version, payload_digest AS payloadDigest${withFields ? ', fields_json AS fieldsJson' : ''}`;
  const found = recordRowsOf<LabelledRecordRow & { readonly local_id: string }>(store, tenantId, refs, columns);
  return refs.map((ref) => {
    const row = found.get(ref.sourceSystem)?.get(ref.localId);
    if (row === undefined) return undefined;
    const { recordId, version, payloadDigest, fieldsJson } = row;
    return fieldsJson === undefined
      ? { recordId, version, payloadDigest }
      : { recordId, version, payloadDigest, fieldsJson };
  });
}

/** The normalised matching fields (JSON) of a record read in the same transaction as its row. */
export function labelledRecordFields(store: Store, tenantId: string, recordId: number): string {
  const json = store
    .statement('SELECT fields_json FROM source_record WHERE tenant_id = ? AND record_id = ?')
    .pluck()
    .get(tenantId, recordId) as string | undefined;
  if (json === undefined) throw new Error('unreachable: the record was read in this transaction');
  return json;
}

const TAG_BATCH = 128;
const TAG_BATCH_SQL = `SELECT tag FROM blocking_tag WHERE tenant_id = ? AND tag IN (${new Array(TAG_BATCH).fill('?').join(', ')}) GROUP BY tag HAVING COUNT(*) > ?`;

/**
 * The tags (as hex) among `tags` that more than `limit` identities hold, one statement per 128 tags. Only
 * the too-common tags come back, so the usual answer is empty.
 */
export function tagsHeldByMoreThan(
  store: Store,
  tenantId: string,
  tags: readonly Buffer[],
  limit: number,
): Set<string> {
  const common = new Set<string>();
  const statement = store.statement(TAG_BATCH_SQL).pluck();
  for (let start = 0; start < tags.length; start += TAG_BATCH) {
    const batch = tags.slice(start, start + TAG_BATCH);
    // A short last batch repeats its first tag: the statement keeps one shape and IN ignores repeats.
    const first = batch[0];
    if (first === undefined) break;
    while (batch.length < TAG_BATCH) batch.push(first);
    for (const tag of statement.all(tenantId, ...batch, limit) as Buffer[]) common.add(tag.toString('hex'));
  }
  return common;
}

export interface TruthRecordRow {
  readonly recordId: number;
  readonly sourceSystem: string;
  readonly localId: string;
  readonly personId: string;
}

/** The tenant's ground-truth records that are in the registry (rejected records are not), by record ID; no fields. */
export function truthRecords(store: Store, tenantId: string): TruthRecordRow[] {
  return store
    .statement(
      `SELECT r.record_id AS recordId, r.source_system AS sourceSystem, r.local_id AS localId, t.person_id AS personId
       FROM synthetic_truth t
       JOIN source_record r ON r.tenant_id = t.tenant_id AND r.source_system = t.source_system AND r.local_id = t.local_id
       WHERE t.tenant_id = ? ORDER BY r.record_id`,
    )
    .all(tenantId) as TruthRecordRow[];
}

/**
 * The person of each ground-truth record in the registry: record IDs and person IDs as two lists in the same order,
 * by source and local ID (not by record). truthRecords without the source and local IDs, which a million records'
 * sampling never needs but for the pairs it draws. In that order SQLite walks the (tenant, source, local ID) index,
 * which holds the record ID, beside the ground truth's own key: neither the records' rows nor a sort are read. In
 * record order it read every record's row for its source and local ID (a million records: 5–7 s, where this takes
 * 2–3 s), and two lists of plain values cost less to build than a million [ID, person] rows. Both statements run
 * in the caller's read transaction, so they see the same rows; the order is total (a source and local ID is one
 * record), so they come in the same order on either store.
 */
export function truthPersons(store: Store, tenantId: string): { recordIds: number[]; personIds: string[] } {
  const from = `FROM synthetic_truth t
       JOIN source_record r ON r.tenant_id = t.tenant_id AND r.source_system = t.source_system AND r.local_id = t.local_id
       WHERE t.tenant_id = ? ORDER BY r.source_system, r.local_id`;
  return {
    recordIds: store.statement(`SELECT r.record_id ${from}`).pluck().all(tenantId) as number[],
    personIds: store.statement(`SELECT t.person_id ${from}`).pluck().all(tenantId) as string[],
  };
}

/**
 * Source and local IDs of records by ID, in one statement per 500 IDs. The tenant is compared as an expression
 * (`tenant_id || ''`, the same text in both dialects) so that SQLite looks each ID up by its primary key: given the
 * column, it chose the (tenant, source, local ID) index, which covers the three columns, and read the tenant's whole
 * index for every statement (30 times slower at 220,000 records; 1.1 s of a 10,000-label sample).
 */
export function recordRefsByIds(store: Store, tenantId: string, recordIds: readonly number[]): Map<number, RecordRef> {
  const out = new Map<number, RecordRef>();
  forIdChunks(recordIds, 500, (part, placeholders) => {
    for (const [id, sourceSystem, localId] of store
      .statement(recordRefsSql(placeholders))
      .raw()
      .all(tenantId, ...part) as [number, string, string][])
      out.set(id, { sourceSystem, localId });
  });
  return out;
}

/** recordRefsByIds' statement for one chunk of IDs. */
export const recordRefsSql = (placeholders: string): string =>
  `SELECT record_id, source_system, local_id FROM source_record WHERE tenant_id || '' = ? AND record_id IN (${placeholders})`;

/** The person the ground truth gives a record, or undefined where it does not know the record. */
export function truthPersonOf(
  store: Store,
  tenantId: string,
  sourceSystem: string,
  localId: string,
): string | undefined {
  return store
    .statement('SELECT person_id FROM synthetic_truth WHERE tenant_id = ? AND source_system = ? AND local_id = ?')
    .pluck()
    .get(tenantId, sourceSystem, localId) as string | undefined;
}

export function hasTruth(store: Store, tenantId: string): boolean {
  return store.statement('SELECT 1 FROM synthetic_truth WHERE tenant_id = ? LIMIT 1').get(tenantId) !== undefined;
}

/** Records the ground truth of a benchmark or synthetic load (which person each record belongs to). Call inside a write. */
export function insertTruth(
  store: Store,
  tenantId: string,
  rows: Iterable<{ sourceSystem: string; localId: string; personId: string }>,
): void {
  const insert = store.statement(
    'INSERT INTO synthetic_truth (tenant_id, source_system, local_id, person_id) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  for (const row of rows) insert.run(tenantId, row.sourceSystem, row.localId, row.personId);
}
