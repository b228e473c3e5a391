import type { Store } from './db.ts';
import type { BlockingTag } from '../blocking/tags.ts';

export function addTags(store: Store, tenantId: string, identityId: number, tags: readonly BlockingTag[]): void {
  const insert = store.statement(
    'INSERT OR IGNORE INTO blocking_tag (tenant_id, tag, identity_id, rule_name, rule_set_version, key_version) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const t of tags) insert.run(tenantId, t.tag, identityId, t.ruleName, t.ruleSetVersion, t.keyVersion);
}

export function deleteTags(store: Store, tenantId: string, identityId: number): void {
  store.statement('DELETE FROM blocking_tag WHERE tenant_id = ? AND identity_id = ?').run(tenantId, identityId);
}

/** Identities holding a tag, at most limit of them (the caller treats a full block as too common). */
export function identitiesWithTag(store: Store, tenantId: string, tag: Buffer, limit: number): number[] {
  return (store.statement('SELECT identity_id FROM blocking_tag WHERE tenant_id = ? AND tag = ? LIMIT ?').pluck().all(tenantId, tag, limit) as number[]);
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
      'SELECT tag, rule_name AS ruleName, rule_set_version AS ruleSetVersion, key_version AS keyVersion FROM blocking_tag WHERE tenant_id = ? AND identity_id = ?',
    )
    .all(tenantId, identityId) as StoredTag[];
}
