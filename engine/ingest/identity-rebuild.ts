/**
 * Rebuilding an identity from its source records: the canonical record by survivorship (a version-checked
 * write) and the blocking tags (the union of its records' tags under the current rules and keys). Shared by
 * ingestion, reconciliation and re-indexing.
 */
import type { Store } from '../store/store.ts';
import type { BlockingConfig } from '../contract/profile.ts';
import { blockingTagsOfAll, type BlockingTag, type KeyRing } from '../blocking/tags.ts';
import { updateCanonical } from '../store/identities.ts';
import { recordsOfIdentity, type SourceRecord } from '../store/records.ts';
import { addTags, deleteTags } from '../store/tags.ts';
import { buildCanonical, type SurvivorInput } from './survivorship.ts';

/**
 * Rebuilds and writes an identity's canonical record, in the caller's write transaction, from its records as read
 * in it. The caller may pass the identity's records when it has just read them (ingestion's auto-link does).
 */
export function rebuildCanonical(
  store: Store,
  tenantId: string,
  identityId: number,
  trustOrder: readonly string[],
  at: string,
  records: readonly SurvivorInput[] = recordsOfIdentity(store, tenantId, identityId),
): number {
  return updateCanonical(store, tenantId, identityId, null, JSON.stringify(buildCanonical(records, trustOrder)), at);
}

/** The target tag set of an identity: every tag of every linked record under the given rules and keys. */
export function identityTags(records: readonly SourceRecord[], blocking: BlockingConfig, ring: KeyRing): BlockingTag[] {
  return blockingTagsOfAll(
    records.map((r) => r.fields),
    blocking,
    ring,
  );
}

/** Replaces an identity's stored tags with its target tag set. */
export function retagIdentity(
  store: Store,
  tenantId: string,
  identityId: number,
  blocking: BlockingConfig,
  ring: KeyRing,
): void {
  const tags = identityTags(recordsOfIdentity(store, tenantId, identityId), blocking, ring);
  deleteTags(store, tenantId, identityId);
  addTags(store, tenantId, identityId, tags);
}
