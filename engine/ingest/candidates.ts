/**
 * Candidate discovery through blocking tags. Work per record is bounded whatever the population size: a
 * tag shared by more than MAX_BLOCK_SIZE identities is too common to discriminate and is skipped, at
 * most MAX_CANDIDATES identities (those sharing the most tags) are compared, and of each identity at most
 * MAX_COMPARED_RECORDS_PER_IDENTITY records (its oldest): a real identity has a few records, one a source
 * keeps reusing for a placeholder identifier can have thousands.
 */
import type { Store } from '../store/db.ts';
import type { BlockingTag } from '../blocking/tags.ts';
import { identitiesWithTag } from '../store/tags.ts';

export const MAX_BLOCK_SIZE = 500;
export const MAX_CANDIDATES = 64;
export const MAX_COMPARED_RECORDS_PER_IDENTITY = 100;

export interface Candidates {
  /** Candidate identities, those sharing the most tags first. */
  readonly identities: number[];
  /** For each candidate, the indexes (into the record's tags) of the tags it already holds. */
  readonly held: ReadonlyMap<number, readonly number[]>;
}

export function findCandidates(store: Store, tenantId: string, tags: readonly BlockingTag[], exclude?: number): Candidates {
  const held = new Map<number, number[]>();
  tags.forEach(({ tag }, index) => {
    const identities = identitiesWithTag(store, tenantId, tag, MAX_BLOCK_SIZE + 1);
    if (identities.length > MAX_BLOCK_SIZE) return;
    for (const id of identities) {
      if (id === exclude) continue;
      const list = held.get(id);
      if (list === undefined) held.set(id, [index]);
      else list.push(index);
    }
  });
  const ranked = [...held.entries()].sort((a, b) => b[1].length - a[1].length || a[0] - b[0]);
  return { identities: ranked.slice(0, MAX_CANDIDATES).map(([id]) => id), held };
}
