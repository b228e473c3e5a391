/**
 * The blocking-candidate population of a set of records: the distinct record pairs that share at least one
 * usable blocking key (the same key material under the same rule, whose tag at most MAX_BLOCK_SIZE
 * identities hold; blocking-recall.ts), i.e. the pairs candidate discovery brings to the scorer. Keys are
 * grouped as text; a key shared by more than MAX_BLOCK_SIZE records is the only kind whose block size is read.
 *
 * A pair (a, b) with a < b (indexes into the records) is the number a * n + b. Enumeration stops at `cap`
 * distinct pairs (a memory bound on very large registries), and says so. On a sample of the tenant's records, the
 * pairs are those among the sample, and every shared key's block size is read from the stored tags.
 */
import type { MatchFields } from '../contract/fields.ts';
import type { BlockingKeyOverlap } from './blocking-recall.ts';
import { NO_CONTROL, type RunControl } from '../run-control.ts';

const PHASE = 'finding blocking candidates';

export function blockingCandidatePairs(
  overlap: BlockingKeyOverlap,
  fields: readonly MatchFields[],
  cap: number,
  control: RunControl = NO_CONTROL,
  /** The records are a sample of the tenant's: a key's count among them says nothing of its block size. */
  options: { readonly sampled?: boolean } = {},
): { pairs: Set<number>; truncated: boolean } {
  const n = fields.length;
  const groups = new Map<string, number[]>();
  fields.forEach((f, i) => {
    if ((i & 4095) === 0) control.step(PHASE, i, n);
    for (const material of overlap.allMaterialsOf(f)) {
      const group = groups.get(material);
      if (group === undefined) groups.set(material, [i]);
      else if (group.at(-1) !== i) group.push(i);
    }
  });
  // A key shared by at most MAX_BLOCK_SIZE of the tenant's records is usable as it is; only larger groups are looked
  // up. Among a sample of the records, every key shared by two or more is looked up.
  if (options.sampled !== true) for (const [material, members] of groups) overlap.knownGroup(material, members.length);
  overlap.prefetch([...groups].filter(([, members]) => members.length > 1).map(([material]) => material));
  const pairs = new Set<number>();
  let group = 0;
  for (const [material, members] of groups) {
    if ((++group & 4095) === 0) control.step(PHASE, n, n);
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
