/**
 * Candidate discovery through blocking tags. Work per record does not grow with the population: a tag shared by
 * more than MAX_BLOCK_SIZE identities is too common to discriminate and is skipped, at most MAX_CANDIDATES
 * identities are compared, and of each identity at most MAX_COMPARED_RECORDS_PER_IDENTITY records (its oldest): a
 * real identity has a few records, one a source keeps reusing for a placeholder identifier can have thousands.
 *
 * Which candidates: those whose shared tags are rarest. Each shared tag weighs 1 / (the identities holding it),
 * so sharing a phone or a birth date with a postcode (held by one or two identities) outweighs sharing a birth
 * year with a given-name prefix (held by dozens in a million people). Blocks of the broad rules grow with the
 * population, so "the identities sharing the most tags" grew too: 6.6 candidates a record at 100,000 records,
 * about 20 at 300,000, the cap at a million, and the matching cost per record with them. Ranked by rarity, the
 * candidates kept are the ones that could be the same person; the others share only a common fact with it.
 */
import type { Store } from '../store/store.ts';
import type { BlockingTag } from '../blocking/tags.ts';
import { identitiesWithTags } from '../store/tags.ts';

export const MAX_BLOCK_SIZE = 500;
export const MAX_CANDIDATES = 8;
export const MAX_COMPARED_RECORDS_PER_IDENTITY = 100;

export interface Candidates {
  /** Candidate identities, those whose shared tags are rarest first. */
  readonly identities: number[];
  /** For each candidate, the indexes (into the record's tags) of the tags it already holds. */
  readonly held: ReadonlyMap<number, readonly number[]>;
  /** Each tag's block size as read (at most MAX_BLOCK_SIZE + 1: more is "too common"), for the health figures. */
  readonly blockSizes: readonly number[];
  /** Identities found in the usable blocks, before the cap of MAX_CANDIDATES. */
  readonly found: number;
}

/**
 * The candidates among blocks (blocks[i]: the identities holding tag i): every identity in a usable block that
 * `keep` accepts, ranked by the rarity of the tags it shares, at most MAX_CANDIDATES. `held` gets, for each
 * identity, the indexes of the tags it holds.
 */
export function rankCandidates(
  blocks: readonly (readonly number[] | Int32Array)[],
  keep: (identityId: number) => boolean,
  held?: Map<number, number[]>,
): number[] {
  const weight = new Map<number, number>();
  blocks.forEach((identities, index) => {
    if (identities.length > MAX_BLOCK_SIZE) return;
    const rarity = 1 / Math.max(1, identities.length);
    for (const id of identities) {
      if (!keep(id)) continue;
      weight.set(id, (weight.get(id) ?? 0) + rarity);
      if (held === undefined) continue;
      const list = held.get(id);
      if (list === undefined) held.set(id, [index]);
      else list.push(index);
    }
  });
  return [...weight.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, MAX_CANDIDATES)
    .map(([id]) => id);
}

export function findCandidates(
  store: Store,
  tenantId: string,
  tags: readonly BlockingTag[],
  exclude?: number,
): Candidates {
  const held = new Map<number, number[]>();
  const blocks = identitiesWithTags(
    store,
    tenantId,
    tags.map((t) => t.tag),
    MAX_BLOCK_SIZE + 1,
  );
  const identities = rankCandidates(blocks, (id) => id !== exclude, held);
  return { identities, held, blockSizes: blocks.map((b) => b.length), found: held.size };
}
