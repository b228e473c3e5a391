/**
 * Population reads for jobs: active identities in ascending identity_id after a cursor (the unique
 * (tenant_id, identity_id) index makes each batch a short range scan, whatever the population size), and
 * the version checks a batch makes before it writes.
 */
import { dialects, type Store } from '../store/store.ts';
import type { MatchFields } from '../contract/fields.ts';
import { conflict } from '../contract/errors.ts';
import { recordFromRow, type SourceRecord } from '../store/records.ts';
import { forIdChunks } from '../store/id-chunks.ts';

/** An identity's keys and version: what a batch needs to name it and to check its version at write time. */
export interface IdentityKey {
  readonly identityId: number;
  readonly enterpriseId: string;
  readonly version: number;
}

export interface IdentityHead extends IdentityKey {
  readonly canonicalJson: string;
}

export function activeIdentitiesAfter(store: Store, tenantId: string, cursor: number, limit: number): IdentityHead[] {
  return store
    .statement(
      `SELECT identity_id AS identityId, enterprise_id AS enterpriseId, logical_version AS version, canonical_json AS canonicalJson
       FROM identity WHERE tenant_id = ? AND identity_id > ? AND status = 'active' ORDER BY identity_id LIMIT ?`,
    )
    .all(tenantId, cursor, limit) as IdentityHead[];
}

/** activeIdentitiesAfter without the canonical record, for the jobs that do not read it (re-index). */
export function activeIdentityKeysAfter(store: Store, tenantId: string, cursor: number, limit: number): IdentityKey[] {
  return store
    .statement(
      `SELECT identity_id AS identityId, enterprise_id AS enterpriseId, logical_version AS version
       FROM identity WHERE tenant_id = ? AND identity_id > ? AND status = 'active' ORDER BY identity_id LIMIT ?`,
    )
    .all(tenantId, cursor, limit) as IdentityKey[];
}

/** The active ones of the given identities (ascending IDs in), ascending, in one statement per 64 identities. */
export function activeIdentitiesIn(store: Store, tenantId: string, identityIds: readonly number[]): IdentityHead[] {
  const out: IdentityHead[] = [];
  forIdChunks(identityIds, 64, (part, placeholders) => {
    const rows = store
      .statement(
        `SELECT identity_id AS identityId, enterprise_id AS enterpriseId, logical_version AS version, canonical_json AS canonicalJson
         FROM identity WHERE tenant_id = ? AND status = 'active' AND identity_id IN (${placeholders}) ORDER BY identity_id`,
      )
      .all(tenantId, ...part) as IdentityHead[];
    out.push(...rows);
  });
  return out;
}

/** The IDs of the tenant's active identities, ascending. */
export function activeIdentityIds(store: Store, tenantId: string): number[] {
  return store
    .statement("SELECT identity_id FROM identity WHERE tenant_id = ? AND status = 'active' ORDER BY identity_id")
    .pluck()
    .all(tenantId) as number[];
}

/** identityKeys' statement for one chunk of IDs: answered from the identity_keys index alone, no identity row read. */
export const identityKeysSql = (placeholders: string): string =>
  `SELECT identity_id, enterprise_id, logical_version, status FROM identity WHERE tenant_id = ? AND identity_id IN (${placeholders})`;

/** The keys of many identities (active or not), by identity ID, in one statement per 64 identities. */
export function identityKeys(
  store: Store,
  tenantId: string,
  identityIds: readonly number[],
): Map<number, IdentityKey & { readonly active: boolean }> {
  const out = new Map<number, IdentityKey & { readonly active: boolean }>();
  forIdChunks(identityIds, 64, (part, placeholders) => {
    const rows = store
      .statement(identityKeysSql(placeholders))
      .raw()
      .all(tenantId, ...part) as [number, string, number, string][];
    for (const [identityId, enterpriseId, version, status] of rows)
      out.set(identityId, { identityId, enterpriseId, version, active: status === 'active' });
  });
  return out;
}

/**
 * Refuses the write when an identity is no longer active at the version the batch read. Every change to an
 * identity's records or links rebuilds its canonical record and so raises its logical version: one check covers
 * them all. Many identities are checked in one statement per 64 (on PostgreSQL each statement is a round trip).
 */
export function expectIdentityVersions(
  store: Store,
  tenantId: string,
  identities: readonly Pick<IdentityKey, 'identityId' | 'version'>[],
): void {
  if (identities.length === 0) return;
  const keys = identityKeys(
    store,
    tenantId,
    identities.map((identity) => identity.identityId),
  );
  for (const { identityId, version } of identities) {
    const key = keys.get(identityId);
    if (key?.version !== version || !key.active) {
      throw conflict(
        `identity ${String(identityId)} changed since version ${String(version)} was read; the batch is retried on fresh data`,
      );
    }
  }
}

export function deleteTag(store: Store, tenantId: string, identityId: number, tag: Buffer): void {
  store
    .statement('DELETE FROM blocking_tag WHERE tenant_id = ? AND tag = ? AND identity_id = ?')
    .run(tenantId, tag, identityId);
}

/** Groups rows by identity_id, keeping only the identities asked for. */
function byIdentity<T>(
  rows: readonly { identity_id: number }[],
  wanted: ReadonlySet<number>,
  value: (row: never) => T,
): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const id of wanted) out.set(id, []);
  for (const row of rows) out.get(row.identity_id)?.push(value(row as never));
  return out;
}

/**
 * The stored tags of a batch's identities in one covering range scan over (tenant_id, identity_id). INDEXED BY:
 * without statistics the planner would take the primary key's tenant prefix and scan every tag of the tenant.
 * A sparse batch (a sample of the identities, where the range would hold mostly others) is read by its IDs instead.
 */
export function storedTagsOf(
  store: Store,
  tenantId: string,
  batch: readonly Pick<IdentityKey, 'identityId'>[],
): Map<number, Buffer[]> {
  return tagsOf<Buffer>(store, tenantId, batch, { sqlite: 'tag', postgres: 'tag' });
}

/**
 * storedTagsOf as lower-case hex (tags.ts tagHex): for comparing with a target set. The database makes the text; a
 * Buffer per row, then its hex, cost nearly twice as much (re-index reads every tag of the registry, 2026-11-29).
 */
export function storedTagHexOf(
  store: Store,
  tenantId: string,
  batch: readonly Pick<IdentityKey, 'identityId'>[],
): Map<number, string[]> {
  return tagsOf<string>(store, tenantId, batch, { sqlite: 'lower(hex(tag))', postgres: "encode(tag, 'hex')" });
}

function tagsOf<T>(
  store: Store,
  tenantId: string,
  batch: readonly Pick<IdentityKey, 'identityId'>[],
  column: { readonly sqlite: string; readonly postgres: string },
): Map<number, T[]> {
  const first = batch[0];
  const last = batch.at(-1);
  const out = new Map<number, T[]>();
  if (first === undefined || last === undefined) return out;
  for (const identity of batch) out.set(identity.identityId, []);
  const inDialects = (text: (tag: string) => string) => dialects(text(column.sqlite), text(column.postgres));
  // Rows as [identity_id, tag] arrays, grouped as they come: a row object each cost more than the scan (reconcile reads
  // every tag of the registry through here).
  const add = (rows: [number, T][]): void => {
    for (const [identityId, tag] of rows) out.get(identityId)?.push(tag);
  };
  if (last.identityId - first.identityId + 1 > 2 * batch.length) {
    forIdChunks([...out.keys()], 64, (part, placeholders) => {
      add(
        store
          .statement(
            inDialects(
              (tag) => `SELECT identity_id, ${tag} FROM blocking_tag INDEXED BY blocking_tag_by_identity
                        WHERE tenant_id = ? AND identity_id IN (${placeholders})`,
            ),
          )
          .raw()
          .all(tenantId, ...part) as [number, T][],
      );
    });
    return out;
  }
  add(
    store
      .statement(
        inDialects(
          (tag) => `SELECT identity_id, ${tag} FROM blocking_tag INDEXED BY blocking_tag_by_identity
                    WHERE tenant_id = ? AND identity_id BETWEEN ? AND ?`,
        ),
      )
      .raw()
      .all(tenantId, first.identityId, last.identityId) as [number, T][],
  );
  return out;
}

/** The linked source records of a batch's identities (by record_id within an identity) in one range scan. */
export function recordsOf(store: Store, tenantId: string, batch: readonly IdentityHead[]): Map<number, SourceRecord[]> {
  const first = batch[0];
  const last = batch.at(-1);
  if (first === undefined || last === undefined) return new Map();
  const rows = store
    .statement(
      `SELECT l.identity_id, r.record_id, r.source_system, r.local_id, r.fields_json, r.payload_digest, r.logical_version, r.source_last_updated
       FROM identity_link l INDEXED BY identity_link_by_identity
       JOIN source_record r ON r.tenant_id = l.tenant_id AND r.record_id = l.record_id
       WHERE l.tenant_id = ? AND l.identity_id BETWEEN ? AND ? ORDER BY l.identity_id, l.record_id`,
    )
    .all(tenantId, first.identityId, last.identityId) as ({ identity_id: number } & Parameters<
    typeof recordFromRow
  >[0])[];
  return byIdentity(rows, new Set(batch.map((i) => i.identityId)), recordFromRow);
}

/** The match fields of a batch's identities' linked records, in one range scan: recordsOf for who needs only those. */
export function fieldsOf(
  store: Store,
  tenantId: string,
  batch: readonly Pick<IdentityKey, 'identityId'>[],
): Map<number, MatchFields[]> {
  const first = batch[0];
  const last = batch.at(-1);
  const out = new Map<number, MatchFields[]>();
  if (first === undefined || last === undefined) return out;
  for (const identity of batch) out.set(identity.identityId, []);
  const rows = store
    .statement(
      `SELECT l.identity_id, r.fields_json
       FROM identity_link l INDEXED BY identity_link_by_identity
       JOIN source_record r ON r.tenant_id = l.tenant_id AND r.record_id = l.record_id
       WHERE l.tenant_id = ? AND l.identity_id BETWEEN ? AND ? ORDER BY l.identity_id, l.record_id`,
    )
    .raw()
    .all(tenantId, first.identityId, last.identityId) as [number, string][];
  for (const [identityId, json] of rows) out.get(identityId)?.push(JSON.parse(json) as MatchFields);
  return out;
}
