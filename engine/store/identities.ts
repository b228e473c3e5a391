import type { Store } from './store.ts';
import { conflict, notFound } from '../contract/errors.ts';
import type { CanonicalRecord } from '../contract/fields.ts';

export interface Identity {
  readonly identityId: number;
  readonly enterpriseId: string;
  readonly version: number;
  readonly canonical: CanonicalRecord;
  readonly status: 'active' | 'retired';
}

interface IdentityRow {
  identity_id: number;
  enterprise_id: string;
  logical_version: number;
  canonical_json: string;
  status: 'active' | 'retired';
}

function fromRow(row: IdentityRow): Identity {
  return {
    identityId: row.identity_id,
    enterpriseId: row.enterprise_id,
    version: row.logical_version,
    canonical: JSON.parse(row.canonical_json) as CanonicalRecord,
    status: row.status,
  };
}

export function getIdentity(store: Store, tenantId: string, identityId: number): Identity {
  const row = store
    .statement(
      'SELECT identity_id, enterprise_id, logical_version, canonical_json, status FROM identity WHERE tenant_id = ? AND identity_id = ?',
    )
    .get(tenantId, identityId) as IdentityRow | undefined;
  if (row === undefined) throw notFound(`identity ${String(identityId)} does not exist in this tenant`);
  return fromRow(row);
}

export function identityVersions(
  store: Store,
  tenantId: string,
  identityId: number,
): { version: number; enterpriseId: string } {
  const row = store
    .statement('SELECT logical_version, enterprise_id FROM identity WHERE tenant_id = ? AND identity_id = ?')
    .get(tenantId, identityId) as { logical_version: number; enterprise_id: string } | undefined;
  if (row === undefined) throw notFound(`identity ${String(identityId)} does not exist in this tenant`);
  return { version: row.logical_version, enterpriseId: row.enterprise_id };
}

/** The identity's version and whether it is active; undefined when the tenant has no such identity. */
export function identityState(
  store: Store,
  tenantId: string,
  identityId: number,
): { version: number; active: boolean } | undefined {
  const row = store
    .statement('SELECT logical_version, status FROM identity WHERE tenant_id = ? AND identity_id = ?')
    .raw()
    .get(tenantId, identityId) as [number, string] | undefined;
  return row === undefined ? undefined : { version: row[0], active: row[1] === 'active' };
}

export function insertIdentity(
  store: Store,
  tenantId: string,
  enterpriseId: string,
  canonical: CanonicalRecord,
  at: string,
): number {
  return store
    .statement(
      `INSERT INTO identity (tenant_id, enterprise_id, logical_version, canonical_json, status, created_at, updated_at)
       VALUES (?, ?, 1, ?, 'active', ?, ?) RETURNING identity_id`,
    )
    .pluck()
    .get(tenantId, enterpriseId, JSON.stringify(canonical), at, at) as number;
}

/**
 * Writes the rebuilt canonical record, given as JSON (a caller that compared it with the stored one has made it), and
 * returns the identity's new version: only if the identity is still at expectedVersion, or, given null, over whatever
 * version it is at. Null is for a caller whose reads of the identity were made in the same write transaction, so no
 * other writer can have come between them and this write: one statement where reading the version and writing
 * against it took two. Every caller writes an identity event in the same transaction: reconciliation's matching phase
 * knows an identity unchanged by the events since its tag scan (jobs/later-tags.ts unchangedSinceScan;
 * test/engine/jobs/version-events.test.ts holds every writer to it).
 */
export function updateCanonical(
  store: Store,
  tenantId: string,
  identityId: number,
  expectedVersion: number | null,
  canonicalJson: string,
  at: string,
): number {
  const version = store
    .statement(
      `UPDATE identity SET canonical_json = ?, updated_at = ?, logical_version = logical_version + 1
       WHERE tenant_id = ? AND identity_id = ? AND logical_version = COALESCE(?, logical_version)
       RETURNING logical_version`,
    )
    .pluck()
    .get(canonicalJson, at, tenantId, identityId, expectedVersion) as number | undefined;
  if (version !== undefined) return version;
  if (expectedVersion === null) throw notFound(`identity ${String(identityId)} does not exist in this tenant`);
  throw conflict(
    `identity ${String(identityId)} changed since version ${String(expectedVersion)} was read; nothing was written`,
  );
}

export function linkRecord(
  store: Store,
  tenantId: string,
  recordId: number,
  identityId: number,
  kind: 'auto' | 'review' | 'manual',
  score: number | null,
  at: string,
): void {
  store
    .statement(
      'INSERT INTO identity_link (tenant_id, record_id, identity_id, link_kind, score, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(tenantId, recordId, identityId, kind, score, at);
}

export function identityOfRecord(store: Store, tenantId: string, recordId: number): number | undefined {
  const row = store
    .statement('SELECT identity_id FROM identity_link WHERE tenant_id = ? AND record_id = ?')
    .get(tenantId, recordId) as { identity_id: number } | undefined;
  return row?.identity_id;
}

export interface IdentityListRow {
  readonly sourceSystem: string;
  readonly localId: string;
  readonly enterpriseId: string;
}

/** Each record with its identity's enterprise ID (the record list's rows). */
const RECORD_IDENTITIES = `SELECT r.source_system AS sourceSystem, r.local_id AS localId, i.enterprise_id AS enterpriseId
       FROM source_record r
       JOIN identity_link l ON l.tenant_id = r.tenant_id AND l.record_id = r.record_id
       JOIN identity i ON i.tenant_id = l.tenant_id AND i.identity_id = l.identity_id`;

export function listRecordIdentities(store: Store, tenantId: string, limit: number, offset: number): IdentityListRow[] {
  return store
    .statement(`${RECORD_IDENTITIES} WHERE r.tenant_id = ? ORDER BY r.source_system, r.local_id LIMIT ? OFFSET ?`)
    .all(tenantId, limit, offset) as IdentityListRow[];
}

/**
 * The next `limit` records after a record (by source system and local ID; from the first when `after` is null), each
 * with its enterprise ID: a whole registry read page by page in one snapshot, each page found through the
 * (tenant, source system, local ID) index rather than by walking past the pages before it, as an offset does.
 */
export function recordIdentitiesAfter(
  store: Store,
  tenantId: string,
  after: { readonly sourceSystem: string; readonly localId: string } | null,
  limit: number,
): IdentityListRow[] {
  return store
    .statement(
      `${RECORD_IDENTITIES} WHERE r.tenant_id = ? AND (r.source_system, r.local_id) > (?, ?)
       ORDER BY r.source_system, r.local_id LIMIT ?`,
    )
    .all(tenantId, after?.sourceSystem ?? '', after?.localId ?? '', limit) as IdentityListRow[];
}

export function countIdentities(store: Store, tenantId: string): number {
  return (
    store.statement("SELECT COUNT(*) AS n FROM identity WHERE tenant_id = ? AND status = 'active'").get(tenantId) as {
      n: number;
    }
  ).n;
}

/** The enterprise ID and status of the identity a record (by source system and local ID) is linked to. */
export function identityOfRecordRef(
  store: Store,
  tenantId: string,
  sourceSystem: string,
  localId: string,
): { enterpriseId: string; status: 'active' | 'retired' } | undefined {
  return store
    .statement(
      `SELECT i.enterprise_id AS enterpriseId, i.status FROM source_record r
         JOIN identity_link l ON l.tenant_id = r.tenant_id AND l.record_id = r.record_id
         JOIN identity i ON i.tenant_id = l.tenant_id AND i.identity_id = l.identity_id
       WHERE r.tenant_id = ? AND r.source_system = ? AND r.local_id = ?`,
    )
    .get(tenantId, sourceSystem, localId) as { enterpriseId: string; status: 'active' | 'retired' } | undefined;
}
