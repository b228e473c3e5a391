/**
 * The blocking-candidate population of a set of records: the distinct record pairs that share at least one
 * usable blocking key (the same key material under the same rule, whose tag at most MAX_BLOCK_SIZE
 * identities hold; blocking-recall.ts), i.e. the pairs candidate discovery brings to the scorer. Keys are
 * grouped one rule at a time (shared-key-groups.ts; test/engine/assurance/blocking-candidates.test.ts checks the
 * result against every rule's key strings grouped at once); a key shared by more than MAX_BLOCK_SIZE records is the
 * only kind whose block size is read.
 *
 * A pair (a, b) with a < b (indexes into the records) is the number a * n + b; its value is the set of rules (bit r
 * for the rule at index r; a profile has at most 32) under which the two records share a usable key, so a caller
 * that asks this of every pair (the estimate's per-rule sessions) need not work the keys out again. Enumeration
 * stops at `cap` distinct pairs (a memory bound on very large registries), and says so; the rule sets are then
 * those of the keys enumerated before the cap. On a sample of the tenant's records, the pairs are those among the
 * sample, and every shared key's block size is read from the stored tags.
 */
import type { MatchFields } from '../contract/fields.ts';
import type { BlockingKeyOverlap } from './blocking-recall.ts';
import { NO_CONTROL, type RunControl } from '../run-control.ts';
import { PartValueIds, sharedKeyGroups } from './shared-key-groups.ts';

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
): { pairs: Map<number, number>; truncated: boolean } {
  const n = fields.length;
  const rules = overlap.ruleCount;
  // Keys are grouped rule by rule, so that only one rule's keys are held at a time (a million records' keys of every
  // rule took GiBs); only the groups of two or more records whose key is usable are kept.
  const shared: SharedKey[] = [];
  const parts = new PartValueIds(fields);
  for (let rule = 0; rule < rules; rule++) {
    const definition = overlap.rules[rule];
    if (definition === undefined) continue;
    const multiple = sharedKeyGroups(
      definition,
      fields,
      parts,
      (f) => overlap.materialsOf(f, rule),
      (i) => {
        if ((i & 4095) === 0) control.step(PHASE, Math.floor((rule * n + i) / rules), n);
      },
    );
    // A key shared by at most MAX_BLOCK_SIZE of the tenant's records is usable as it is; only larger groups are looked
    // up. Among a sample of the records, every key shared by two or more is looked up.
    if (options.sampled !== true)
      for (const group of multiple) overlap.knownGroup(group.material, group.members.length);
    overlap.prefetch(multiple.map((group) => group.material));
    for (const group of multiple)
      if (overlap.isUsable(group.material))
        shared.push({ first: group.members[0] ?? 0, rule, position: group.position, members: group.members });
  }
  // Pairs are enumerated in the order the keys first appear over the records (record, then rule, then the key's place
  // among the record's keys of the rule), as when every rule's keys were grouped at once: the same pairs are kept
  // when the cap cuts the enumeration short, and callers that sample them draw the same ones.
  shared.sort((a, b) => a.first - b.first || a.rule - b.rule || a.position - b.position);
  const pairs = new Map<number, number>();
  for (let g = 0; g < shared.length; g++) {
    if (((g + 1) & 4095) === 0) control.step(PHASE, n, n);
    const { members, rule } = shared[g] as SharedKey;
    const bit = 1 << rule;
    for (let x = 0; x < members.length; x++) {
      for (let y = x + 1; y < members.length; y++) {
        const pair = (members[x] ?? 0) * n + (members[y] ?? 0);
        pairs.set(pair, (pairs.get(pair) ?? 0) | bit);
        if (pairs.size >= cap) return { pairs, truncated: true };
      }
    }
  }
  return { pairs, truncated: false };
}
