/**
 * Candidate discovery through blocking tags. Work per record is bounded whatever the population size: a
 * tag shared by more than MAX_BLOCK_SIZE identities is too common to discriminate and is skipped, and at
 * most MAX_CANDIDATES identities (those sharing the most tags) are compared.
 */
import type { Store } from '../store/db.ts';
import type { BlockingTag } from '../blocking/tags.ts';
import { identitiesWithTag } from '../store/tags.ts';

export const MAX_BLOCK_SIZE = 500;
export const MAX_CANDIDATES = 64;

export function candidateIdentities(store: Store, tenantId: string, tags: readonly BlockingTag[], exclude?: number): number[] {
  const shared = new Map<number, number>();
  for (const { tag } of tags) {
    const identities = identitiesWithTag(store, tenantId, tag, MAX_BLOCK_SIZE + 1);
    if (identities.length > MAX_BLOCK_SIZE) continue;
    for (const id of identities) if (id !== exclude) shared.set(id, (shared.get(id) ?? 0) + 1);
  }
  const ranked = [...shared.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return ranked.slice(0, MAX_CANDIDATES).map(([id]) => id);
}
