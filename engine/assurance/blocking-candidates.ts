/**
 * The blocking-candidate population of a set of records: the distinct record pairs that share at least one
 * usable blocking key (the same key material under the same rule, whose tag at most MAX_BLOCK_SIZE
 * identities hold; blocking-recall.ts), i.e. the pairs candidate discovery brings to the scorer. Keys are
 * grouped as text and only a key shared by two or more records needs its tag's block size.
 *
 * A pair (a, b) with a < b (indexes into the records) is the number a * n + b. Enumeration stops at `cap`
 * distinct pairs (a memory bound on very large registries), and says so.
 */
import type { MatchFields } from '../contract/fields.ts';
import type { BlockingKeyOverlap } from './blocking-recall.ts';

export function blockingCandidatePairs(overlap: BlockingKeyOverlap, fields: readonly MatchFields[], cap: number): { pairs: Set<number>; truncated: boolean } {
  const n = fields.length;
  const groups = new Map<string, number[]>();
  fields.forEach((f, i) => {
    for (const material of overlap.allMaterialsOf(f)) {
      const group = groups.get(material);
      if (group === undefined) groups.set(material, [i]);
      else if (group.at(-1) !== i) group.push(i);
    }
  });
  overlap.prefetch([...groups].filter(([, members]) => members.length > 1).map(([material]) => material));
  const pairs = new Set<number>();
  for (const [material, members] of groups) {
    if (members.length < 2 || !overlap.isUsable(material)) continue;
    for (let x = 0; x < members.length; x++) {
      for (let y = x + 1; y < members.length; y++) {
        pairs.add((members[x] ?? 0) * n + (members[y] ?? 0));
        if (pairs.size >= cap) return { pairs, truncated: true };
      }
    }
  }
  return { pairs, truncated: false };
}
