import type { Store } from './store.ts';
import type { MatchFields } from '../contract/fields.ts';
import { conflict } from '../contract/errors.ts';
import type { RecordRef } from '../contract/matching.ts';
import { countRecordTerms } from './term-frequency.ts';
import { unionAllTexts } from './union-all.ts';
import { forIdChunks } from './id-chunks.ts';
import { insertRow, type DeferredRows, type DeferredTable } from './deferred-rows.ts';

const RESOURCE: DeferredTable = {
  insert: 'INSERT INTO source_resource (record_id, tenant_id, resource_json)',
  width: 3,
};
const RECEIPT: DeferredTable = {
  insert:
    'INSERT INTO ingestion_receipt (tenant_id, source_system, local_id, payload_digest, source_last_updated, outcome, received_at)',
  width: 7,
};

export interface SourceRecord {
  readonly recordId: number;
  readonly sourceSystem: string;
  readonly localId: string;
  readonly fields: MatchFields;
  readonly payloadDigest: string;
  readonly version: number;
  readonly sourceLastUpdated: string | null;
}

interface RecordRow {
  record_id: number;
  source_system: string;
  local_id: string;
  fields_json: string;
  payload_digest: string;
  logical_version: number;
  source_last_updated: string | null;
}

const COLUMNS = 'record_id, source_system, local_id, fields_json, payload_digest, logical_version, source_last_updated';

export function recordFromRow(row: RecordRow): SourceRecord {
  return {
    recordId: row.record_id,
    sourceSystem: row.source_system,
    localId: row.local_id,
    fields: JSON.parse(row.fields_json) as MatchFields,
    payloadDigest: row.payload_digest,
    version: row.logical_version,
    sourceLastUpdated: row.source_last_updated,
  };
}

export function findRecord(
  store: Store,
  tenantId: string,
  sourceSystem: string,
  localId: string,
): SourceRecord | undefined {
  const row = store
    .statement(`SELECT ${COLUMNS} FROM source_record WHERE tenant_id = ? AND source_system = ? AND local_id = ?`)
    .get(tenantId, sourceSystem, localId) as RecordRow | undefined;
  return row === undefined ? undefined : recordFromRow(row);
}

/**
 * The source_record rows of many references at once, by source system then local identifier (absent ones left out):
 * one statement per 500 local identifiers of a source system instead of one per reference, which on PostgreSQL is a
 * round trip each. `columns` name what each row holds, local_id among them.
 */
export function recordRowsOf<Row extends { readonly local_id: string }>(
  store: Store,
  tenantId: string,
  refs: readonly RecordRef[],
  columns: string,
): Map<string, Map<string, Row>> {
  const bySource = new Map<string, Set<string>>();
  for (const { sourceSystem, localId } of refs) {
    let ids = bySource.get(sourceSystem);
    if (ids === undefined) {
      ids = new Set();
      bySource.set(sourceSystem, ids);
    }
    ids.add(localId);
  }
  const found = new Map<string, Map<string, Row>>();
  for (const [sourceSystem, ids] of bySource) {
    const rows = new Map<string, Row>();
    found.set(sourceSystem, rows);
    forIdChunks([...ids], 500, (part, placeholders) => {
      for (const row of store
        .statement(
          `SELECT ${columns} FROM source_record WHERE tenant_id = ? AND source_system = ? AND local_id IN (${placeholders})`,
        )
        .all(tenantId, sourceSystem, ...part) as Row[])
        rows.set(row.local_id, row);
    });
  }
  return found;
}

/** Many records at once (recordRowsOf), by source system then local identifier. */
export function findRecords(
  store: Store,
  tenantId: string,
  refs: readonly RecordRef[],
): Map<string, Map<string, SourceRecord>> {
  const rows = recordRowsOf<RecordRow>(store, tenantId, refs, COLUMNS);
  return new Map(
    [...rows].map(([sourceSystem, byLocal]) => [
      sourceSystem,
      new Map([...byLocal].map(([localId, row]) => [localId, recordFromRow(row)])),
    ]),
  );
}

export function recordsOfIdentity(store: Store, tenantId: string, identityId: number): SourceRecord[] {
  const rows = store
    .statement(
      `SELECT r.record_id, r.source_system, r.local_id, r.fields_json, r.payload_digest, r.logical_version, r.source_last_updated
       FROM identity_link l JOIN source_record r ON r.tenant_id = l.tenant_id AND r.record_id = l.record_id
       WHERE l.tenant_id = ? AND l.identity_id = ? ORDER BY l.record_id`,
    )
    .all(tenantId, identityId) as RecordRow[];
  return rows.map(recordFromRow);
}

/** A linked record as candidate matching reads it: fields stay as JSON until a cache miss needs them. */
export interface CandidateRecordRow {
  readonly recordId: number;
  readonly version: number;
  readonly sourceSystem: string;
  readonly localId: string;
  readonly sourceLastUpdated: string | null;
  readonly fieldsJson: string;
}

/** A candidate identity's member record, with its stored fields (parsed only when the prepared cache misses it). */
export interface CandidateMember extends CandidateRecordRow {
  readonly identityId: number;
}

const IDENTITIES_PER_STATEMENT = 32;

/** candidateMembers' statements. */
const membersSql = unionAllTexts(
  (_, limit) =>
    'SELECT * FROM (SELECT l.identity_id, r.record_id, r.logical_version, r.source_system, r.local_id, ' +
    'r.source_last_updated, r.fields_json FROM identity_link l JOIN source_record r ' +
    'ON r.tenant_id = l.tenant_id AND r.record_id = l.record_id ' +
    `WHERE l.tenant_id = ? AND l.identity_id = ? ORDER BY l.record_id LIMIT ${String(limit)}) AS members`,
);

/**
 * The first `limit` member records (oldest first) of each identity, in one statement per 32 identities (a UNION ALL
 * of per-identity lookups, each with its own inline LIMIT: an identity a source floods with one placeholder is never
 * read whole). The fields come along: the row is read anyway, and on a registry larger than the prepared caches most
 * candidates miss them; a second lookup of the missed rows' fields cost nearly as much as the first (2026-11-29).
 */
export function candidateMembers(
  store: Store,
  tenantId: string,
  identityIds: readonly number[],
  limit: number,
): Map<number, CandidateMember[]> {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  const out = new Map<number, CandidateMember[]>(identityIds.map((id) => [id, []]));
  for (let start = 0; start < identityIds.length; start += IDENTITIES_PER_STATEMENT) {
    const part = identityIds.slice(start, start + IDENTITIES_PER_STATEMENT);
    const args: (string | number)[] = [];
    for (const id of part) args.push(tenantId, id);
    for (const [identityId, recordId, version, sourceSystem, localId, sourceLastUpdated, fieldsJson] of store
      .statement(membersSql(part.length, limit))
      .raw()
      .all(...args) as [number, number, number, string, string, string | null, string][]) {
      out
        .get(identityId)
        ?.push({ identityId, recordId, version, sourceSystem, localId, sourceLastUpdated, fieldsJson });
    }
  }
  return out;
}

/** The identity's first `limit` records by record ID (oldest first). */
export function candidateRowsOfIdentity(
  store: Store,
  tenantId: string,
  identityId: number,
  limit: number,
): CandidateRecordRow[] {
  return store
    .statement(
      `SELECT r.record_id AS recordId, r.logical_version AS version, r.source_system AS sourceSystem, r.local_id AS localId,
              r.source_last_updated AS sourceLastUpdated, r.fields_json AS fieldsJson
       FROM identity_link l JOIN source_record r ON r.tenant_id = l.tenant_id AND r.record_id = l.record_id
       WHERE l.tenant_id = ? AND l.identity_id = ? ORDER BY l.record_id LIMIT ?`,
    )
    .all(tenantId, identityId, limit) as CandidateRecordRow[];
}

export interface RecordWrite {
  readonly sourceSystem: string;
  readonly localId: string;
  readonly resourceJson: string;
  readonly fields: MatchFields;
  readonly payloadDigest: string;
  readonly sourceLastUpdated: string | null;
}

/** Inserts a new record; its resource goes with the chunk's others when `deferred` is given (deferred-rows.ts). */
export function insertRecord(
  store: Store,
  tenantId: string,
  write: RecordWrite,
  at: string,
  deferred?: DeferredRows,
): number {
  const result = store
    .statement(
      `INSERT INTO source_record (tenant_id, source_system, local_id, fields_json, payload_digest, logical_version, source_last_updated, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?) RETURNING record_id`,
    )
    .pluck()
    .get(
      tenantId,
      write.sourceSystem,
      write.localId,
      JSON.stringify(write.fields),
      write.payloadDigest,
      write.sourceLastUpdated,
      at,
      at,
    );
  const recordId = result as number;
  insertRow(store, RESOURCE, [recordId, tenantId, write.resourceJson], deferred);
  countRecordTerms(store, tenantId, null, write.fields);
  return recordId;
}

/** Writes a new version of a record only if it is still at expectedVersion; a stale write is refused. */
export function updateRecord(
  store: Store,
  tenantId: string,
  recordId: number,
  expectedVersion: number,
  write: RecordWrite,
  at: string,
): number {
  const before = store
    .statement('SELECT fields_json FROM source_record WHERE tenant_id = ? AND record_id = ? AND logical_version = ?')
    .get(tenantId, recordId, expectedVersion) as { fields_json: string } | undefined;
  const result = store
    .statement(
      `UPDATE source_record SET fields_json = ?, payload_digest = ?, source_last_updated = ?, updated_at = ?,
         logical_version = logical_version + 1
       WHERE tenant_id = ? AND record_id = ? AND logical_version = ?`,
    )
    .run(
      JSON.stringify(write.fields),
      write.payloadDigest,
      write.sourceLastUpdated,
      at,
      tenantId,
      recordId,
      expectedVersion,
    );
  if (result.changes !== 1) {
    throw conflict(
      `source record ${write.sourceSystem}/${write.localId} changed since version ${String(expectedVersion)} was read; nothing was written`,
    );
  }
  store
    .statement('UPDATE source_resource SET resource_json = ? WHERE tenant_id = ? AND record_id = ?')
    .run(write.resourceJson, tenantId, recordId);
  // The row was at expectedVersion (the update above succeeded), so `before` was read.
  if (before !== undefined)
    countRecordTerms(store, tenantId, JSON.parse(before.fields_json) as MatchFields, write.fields);
  return expectedVersion + 1;
}

export function hasReceipt(
  store: Store,
  tenantId: string,
  sourceSystem: string,
  localId: string,
  payloadDigest: string,
): boolean {
  return (
    store
      .statement(
        'SELECT 1 FROM ingestion_receipt WHERE tenant_id = ? AND source_system = ? AND local_id = ? AND payload_digest = ?',
      )
      .get(tenantId, sourceSystem, localId, payloadDigest) !== undefined
  );
}

/** Records a receipt; with the chunk's others when `deferred` is given (deferred-rows.ts). */
export function insertReceipt(
  store: Store,
  tenantId: string,
  write: RecordWrite,
  outcome: 'created' | 'updated',
  at: string,
  deferred?: DeferredRows,
): void {
  insertRow(
    store,
    RECEIPT,
    [tenantId, write.sourceSystem, write.localId, write.payloadDigest, write.sourceLastUpdated, outcome, at],
    deferred,
  );
}

/** The records one source has stored (UNIQUE (tenant_id, source_system, local_id) answers it from its index). */
export function countRecordsOfSource(store: Store, tenantId: string, sourceSystem: string): number {
  return (
    store
      .statement('SELECT COUNT(*) AS n FROM source_record WHERE tenant_id = ? AND source_system = ?')
      .get(tenantId, sourceSystem) as { n: number }
  ).n;
}

export function countRecords(store: Store, tenantId: string): number {
  return (store.statement('SELECT COUNT(*) AS n FROM source_record WHERE tenant_id = ?').get(tenantId) as { n: number })
    .n;
}
