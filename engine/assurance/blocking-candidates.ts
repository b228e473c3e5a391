/**
 * The blocking-candidate population of a set of records: the distinct record pairs that share at least one
 * usable blocking key (the same key material under the same rule, whose tag at most MAX_BLOCK_SIZE
 * identities hold; blocking-recall.ts), i.e. the pairs candidate discovery brings to the scorer. Keys are
 * grouped as text, one rule at a time (test/engine/assurance/blocking-candidates.test.ts checks the result against
 * every rule grouped at once); a key shared by more than MAX_BLOCK_SIZE records is the only kind whose block size is
 * read.
 *
 * A pair (a, b) with a < b (indexes into the records) is the number a * n + b. Enumeration stops at `cap`
 * distinct pairs (a memory bound on very large registries), and says so. On a sample of the tenant's records, the
 * pairs are those among the sample, and every shared key's block size is read from the stored tags.
 */
import type { MatchFields } from '../contract/fields.ts';
import type { BlockingKeyOverlap } from './blocking-recall.ts';
import { NO_CONTROL, type RunControl } from '../run-control.ts';

const PHASE = 'finding blocking candidates';

/** Records sharing one usable key, and where that key first appeared: its first record, rule and place among the record's keys. */
interface SharedKey {
  readonly first: number;
  readonly rule: number;
  readonly position: number;
  readonly members: readonly number[];
}

export function blockingCandidatePairs(
  overlap: BlockingKeyOverlap,
  fields: readonly MatchFields[],
  cap: number,
  control: RunControl = NO_CONTROL,
  /** The records are a sample of the tenant's: a key's count among them says nothing of its block size. */
  options: { readonly sampled?: boolean } = {},
): { pairs: Set<number>; truncated: boolean } {
  const n = fields.length;
  const rules = overlap.ruleCount;
  // Keys are grouped rule by rule, so that only one rule's keys are held at a time (a million records' keys of every
  // rule took GiBs); only the groups of two or more records whose key is usable are kept.
  const shared: SharedKey[] = [];
  for (let rule = 0; rule < rules; rule++) {
    const groups = new Map<string, { position: number; members: number[] }>();
    for (let i = 0; i < n; i++) {
      if ((i & 4095) === 0) control.step(PHASE, Math.floor((rule * n + i) / rules), n);
      overlap.materialsOf(fields[i] as MatchFields, rule).forEach((material, position) => {
        const group = groups.get(material);
        if (group === undefined) groups.set(material, { position, members: [i] });
        else if (group.members.at(-1) !== i) group.members.push(i);
      });
    }
    const multiple = [...groups].filter(([, group]) => group.members.length > 1);
    // A key shared by at most MAX_BLOCK_SIZE of the tenant's records is usable as it is; only larger groups are looked
    // up. Among a sample of the records, every key shared by two or more is looked up.
    if (options.sampled !== true)
      for (const [material, group] of multiple) overlap.knownGroup(material, group.members.length);
    overlap.prefetch(multiple.map(([material]) => material));
    for (const [material, group] of multiple)
      if (overlap.isUsable(material))
        shared.push({ first: group.members[0] ?? 0, rule, position: group.position, members: group.members });
  }
  // Pairs are enumerated in the order the keys first appear over the records (record, then rule, then the key's place
  // among the record's keys of the rule), as when every rule's keys were grouped at once: the same pairs are kept
  // when the cap cuts the enumeration short, and callers that sample them draw the same ones.
  shared.sort((a, b) => a.first - b.first || a.rule - b.rule || a.position - b.position);
  const pairs = new Set<number>();
  for (let g = 0; g < shared.length; g++) {
    if (((g + 1) & 4095) === 0) control.step(PHASE, n, n);
    const members = (shared[g] as SharedKey).members;
    for (let x = 0; x < members.length; x++) {
      for (let y = x + 1; y < members.length; y++) {
        pairs.add((members[x] ?? 0) * n + (members[y] ?? 0));
        if (pairs.size >= cap) return { pairs, truncated: true };
      }
    }
  }
  return { pairs, truncated: false };
}
