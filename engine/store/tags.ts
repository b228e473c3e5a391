import { dialects, type Store } from './store.ts';
import type { BlockingTag } from '../blocking/tags.ts';
import { unionAllTexts } from './union-all.ts';

/** Rows per statement of addTags: one statement for the tags of a typical record, a few for a large identity's. */
const TAG_ROWS_PER_STATEMENT = 32;

/** The statement of 1 … TAG_ROWS_PER_STATEMENT rows, by row count (texts built once, not per call). */
const ADD_TAGS_SQL = Array.from(
  { length: TAG_ROWS_PER_STATEMENT + 1 },
  (_, rows) =>
    'INSERT INTO blocking_tag (tenant_id, tag, identity_id, rule_name, rule_set_version, key_version) VALUES ' +
    Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?)').join(', ') +
    ' ON CONFLICT DO NOTHING',
);

/**
 * Adds tags to an identity (a tag it holds already is left as it is), up to TAG_ROWS_PER_STATEMENT rows per
 * statement: a new identity's tags were a statement each, the largest share of an ingested record's statements (and
 * of its round trips to PostgreSQL).
 */
export function addTags(store: Store, tenantId: string, identityId: number, tags: readonly BlockingTag[]): void {
  for (let start = 0; start < tags.length; start += TAG_ROWS_PER_STATEMENT) {
    const part = tags.slice(start, start + TAG_ROWS_PER_STATEMENT);
    const args: (string | number | Buffer)[] = [];
    for (const t of part) args.push(tenantId, t.tag, identityId, t.ruleName, t.ruleSetVersion, t.keyVersion);
    store.statement(ADD_TAGS_SQL[part.length] as string).run(...args);
  }
}

export function deleteTags(store: Store, tenantId: string, identityId: number): void {
  // INDEXED BY: without statistics the planner prefers the primary key's tenant prefix, a scan of the tenant's tags.
  store
    .statement('DELETE FROM blocking_tag INDEXED BY blocking_tag_by_identity WHERE tenant_id = ? AND identity_id = ?')
    .run(tenantId, identityId);
}

/** Identities holding a tag, at most limit of them (the caller treats a full block as too common). */
export function identitiesWithTag(store: Store, tenantId: string, tag: Buffer, limit: number): number[] {
  // The limit is written into the SQL: a bound LIMIT parameter costs several times the lookup itself here.
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  return store
    .statement(`SELECT identity_id FROM blocking_tag WHERE tenant_id = ? AND tag = ? LIMIT ${String(limit)}`)
    .pluck()
    .all(tenantId, tag) as number[];
}

/** Branches per statement of identitiesWithTags (SQLite allows 500 compound terms; a record has a few dozen tags). */
const TAGS_PER_STATEMENT = 32;

/** identitiesWithTags' statements; k is the tag's index within the statement. */
const tagLookupSql = unionAllTexts(
  (i, limit) =>
    `SELECT ${String(i)} AS k, identity_id FROM (SELECT identity_id FROM blocking_tag WHERE tenant_id = ? AND tag = ? LIMIT ${String(limit)}) AS block`,
);

/**
 * identitiesWithTag for several tags in one statement per TAGS_PER_STATEMENT tags (a UNION ALL of per-tag lookups,
 * each with its own inline LIMIT, so a huge block is never read whole): result[i] holds the identities of tags[i].
 * Per-statement overhead, not the lookups, dominated candidate discovery; one statement per record removes it.
 */
export function identitiesWithTags(store: Store, tenantId: string, tags: readonly Buffer[], limit: number): number[][] {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  const out: number[][] = tags.map(() => []);
  for (let start = 0; start < tags.length; start += TAGS_PER_STATEMENT) {
    const part = tags.slice(start, start + TAGS_PER_STATEMENT);
    const args: (string | Buffer)[] = [];
    for (const tag of part) args.push(tenantId, tag);
    for (const row of store
      .statement(tagLookupSql(part.length, limit))
      .raw()
      .all(...args) as [number, number][])
      out[start + row[0]]?.push(row[1]);
  }
  return out;
}

/** Probes per statement of identitiesHolding (a UNION ALL of primary-key lookups). */
const PROBES_PER_STATEMENT = 32;

/** identitiesHolding's statements (a primary-key lookup finds at most one row, so no branch needs a limit). */
const probeSql = unionAllTexts(
  () => 'SELECT identity_id FROM blocking_tag WHERE tenant_id = ? AND tag = ? AND identity_id = ?',
);

/**
 * Which of the given identities hold the tag paired with them: a primary-key lookup each, up to
 * PROBES_PER_STATEMENT per statement. Re-index validation asks this of each identity's first target tag, instead
 * of reading every stored tag of the batch.
 */
export function identitiesHolding(
  store: Store,
  tenantId: string,
  probes: readonly { readonly identityId: number; readonly tag: Buffer }[],
): Set<number> {
  const held = new Set<number>();
  for (let start = 0; start < probes.length; start += PROBES_PER_STATEMENT) {
    const part = probes.slice(start, start + PROBES_PER_STATEMENT);
    const args: (string | number | Buffer)[] = [];
    for (const probe of part) args.push(tenantId, probe.tag, probe.identityId);
    for (const id of store
      .statement(probeSql(part.length, 1))
      .pluck()
      .all(...args) as number[])
      held.add(id);
  }
  return held;
}

export interface StoredTag {
  readonly tag: Buffer;
  readonly ruleName: string;
  readonly ruleSetVersion: number;
  readonly keyVersion: string;
}

export function tagsOfIdentity(store: Store, tenantId: string, identityId: number): StoredTag[] {
  return store
    .statement(
      // INDEXED BY: see deleteTags (the primary key's tenant prefix would scan every tag of the tenant).
      `SELECT tag, rule_name AS ruleName, rule_set_version AS ruleSetVersion, key_version AS keyVersion
       FROM blocking_tag INDEXED BY blocking_tag_by_identity WHERE tenant_id = ? AND identity_id = ?`,
    )
    .all(tenantId, identityId) as StoredTag[];
}

/** Whether the tenant holds any stored blocking tag. */
export function hasAnyTag(store: Store, tenantId: string): boolean {
  return store.statement('SELECT 1 FROM blocking_tag WHERE tenant_id = ? LIMIT 1').get(tenantId) !== undefined;
}

/**
 * One page, in tag order after `after` (null: from the first), of the tags held by two or more of the tenant's
 * identities, each with its holders: their identity IDs, comma-separated (ascending in practice; the caller checks).
 * One ordered range scan of the primary key.
 */
export function sharedTagHoldersAfter(
  store: Store,
  tenantId: string,
  after: Buffer | null,
  limit: number,
): [tag: Buffer, holders: string][] {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  const page = (holders: string): string =>
    `SELECT tag, ${holders} FROM blocking_tag WHERE tenant_id = ? AND tag > ?
     GROUP BY tag HAVING COUNT(*) > 1 ORDER BY tag LIMIT ${String(limit)}`;
  return store
    .statement(
      // SQLite reads a group in the primary key's order, so its holders come ascending; an ORDER BY within the
      // aggregate cost more than the rest of the scan. PostgreSQL may aggregate in any order.
      dialects(page("group_concat(identity_id, ',')"), page("string_agg(identity_id::text, ',' ORDER BY identity_id)")),
    )
    .raw()
    .all(tenantId, after ?? Buffer.alloc(0)) as [Buffer, string][];
}
