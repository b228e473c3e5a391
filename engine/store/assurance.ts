/**
 * Queries of the matching-assurance operations: labelled records by reference, the cross-tenant check
 * (used only to word a rejection), block sizes of blocking tags, and the ground truth of a synthetic
 * sandbox. All reads; the only write is the ground truth a benchmark loader records.
 */
import type { Store } from './db.ts';

export interface LabelledRecordRow {
  readonly recordId: number;
  readonly version: number;
  readonly fieldsJson: string;
}

export function findLabelledRecord(store: Store, tenantId: string, sourceSystem: string, localId: string): LabelledRecordRow | undefined {
  return store
    .statement(
      'SELECT record_id AS recordId, logical_version AS version, fields_json AS fieldsJson FROM source_record WHERE tenant_id = ? AND source_system = ? AND local_id = ?',
    )
    .get(tenantId, sourceSystem, localId) as LabelledRecordRow | undefined;
}

/**
 * Whether a tenant other than tenantId holds the record. One point look-up per other tenant (the unique
 * key starts with the tenant), so it stays cheap however large the registry.
 */
export function recordInOtherTenant(store: Store, tenantId: string, sourceSystem: string, localId: string): boolean {
  const others = store.statement('SELECT tenant_id FROM tenant WHERE tenant_id <> ? ORDER BY tenant_id LIMIT 1000').pluck().all(tenantId) as string[];
  const lookUp = store.statement('SELECT 1 FROM source_record WHERE tenant_id = ? AND source_system = ? AND local_id = ?');
  return others.some((other) => lookUp.get(other, sourceSystem, localId) !== undefined);
}

/** How many identities hold the tag, counting no further than limit. */
export function identitiesHoldingTag(store: Store, tenantId: string, tag: Buffer, limit: number): number {
  return store
    .statement('SELECT COUNT(*) FROM (SELECT 1 FROM blocking_tag WHERE tenant_id = ? AND tag = ? LIMIT ?)')
    .pluck()
    .get(tenantId, tag, limit) as number;
}

const TAG_BATCH = 128;
const TAG_BATCH_SQL = `SELECT tag, COUNT(*) AS n FROM blocking_tag WHERE tenant_id = ? AND tag IN (${new Array(TAG_BATCH).fill('?').join(', ')}) GROUP BY tag`;

/** How many identities hold each tag (0 for a tag nobody holds), in batches of one statement per 128 tags. */
export function identitiesHoldingTags(store: Store, tenantId: string, tags: readonly Buffer[]): number[] {
  const counts = new Map<string, number>();
  const statement = store.statement(TAG_BATCH_SQL);
  for (let start = 0; start < tags.length; start += TAG_BATCH) {
    const batch = tags.slice(start, start + TAG_BATCH);
    // A short last batch repeats its first tag: the statement keeps one shape and IN ignores repeats.
    const first = batch[0];
    if (first === undefined) break;
    while (batch.length < TAG_BATCH) batch.push(first);
    for (const row of statement.all(tenantId, ...batch) as { tag: Buffer; n: number }[]) counts.set(row.tag.toString('hex'), row.n);
  }
  return tags.map((tag) => counts.get(tag.toString('hex')) ?? 0);
}

export interface TruthRecordRow {
  readonly recordId: number;
  readonly sourceSystem: string;
  readonly localId: string;
  readonly personId: string;
  readonly fieldsJson: string;
}

/** The tenant's ground-truth records that are in the registry (rejected records are not), by record ID. */
export function truthRecords(store: Store, tenantId: string): TruthRecordRow[] {
  return store
    .statement(
      `SELECT r.record_id AS recordId, r.source_system AS sourceSystem, r.local_id AS localId, t.person_id AS personId, r.fields_json AS fieldsJson
       FROM synthetic_truth t
       JOIN source_record r ON r.tenant_id = t.tenant_id AND r.source_system = t.source_system AND r.local_id = t.local_id
       WHERE t.tenant_id = ? ORDER BY r.record_id`,
    )
    .all(tenantId) as TruthRecordRow[];
}

export function hasTruth(store: Store, tenantId: string): boolean {
  return store.statement('SELECT 1 FROM synthetic_truth WHERE tenant_id = ? LIMIT 1').get(tenantId) !== undefined;
}

/** Records the ground truth of a benchmark or synthetic load (which person each record belongs to). Call inside a write. */
export function insertTruth(store: Store, tenantId: string, rows: Iterable<{ sourceSystem: string; localId: string; personId: string }>): void {
  const insert = store.statement('INSERT OR IGNORE INTO synthetic_truth (tenant_id, source_system, local_id, person_id) VALUES (?, ?, ?, ?)');
  for (const row of rows) insert.run(tenantId, row.sourceSystem, row.localId, row.personId);
}
