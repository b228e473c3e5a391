/**
 * The blocking-candidate population of a set of records: the distinct record pairs that share at least one
 * usable blocking key (the same key material under the same rule, whose tag at most MAX_BLOCK_SIZE
 * identities hold; blocking-recall.ts), i.e. the pairs candidate discovery brings to the scorer. Keys are
 * grouped one rule at a time (shared-key-groups.ts; test/engine/assurance/blocking-candidates.test.ts checks the
 * result against every rule's key strings grouped at once); a key shared by more than MAX_BLOCK_SIZE records is the
 * only kind whose block size is read.
 *
 * A pair (a, b) with a < b (indexes into the records) is the number a * n + b; its flags are the set of rules (bit r
 * for the rule at index r; a profile has at most 32) under which the two records share a usable key, held in a
 * PairTable (pair-table.ts), so a caller that asks this of every pair (the estimate's per-rule sessions) need not
 * work the keys out again. Enumeration stops at `cap` distinct pairs (a memory bound on very large registries), and
 * says so; the rule sets are then those of the keys enumerated before the cap. On a sample of the tenant's records,
 * the pairs are those among the sample, and every shared key's block size is read from the stored tags.
 */
import type { MatchFields } from '../contract/fields.ts';
import type { BlockingKeyOverlap } from './blocking-recall.ts';
import { MAX_BLOCK_SIZE } from '../ingest/candidates.ts';
import { NO_CONTROL, type RunControl } from '../run-control.ts';
import { PartValueIds, sharedKeyGroups, type KeyGroup } from './shared-key-groups.ts';
import { PairTable } from './pair-table.ts';

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
): { pairs: PairTable; truncated: boolean } {
  const n = fields.length;
  const rules = overlap.ruleCount;
  // Keys are grouped rule by rule, so that only one rule's keys are held at a time (a million records' keys of every
  // rule took GiBs); only the groups of two or more records whose key is usable are kept.
  const shared: SharedKey[] = [];
  const small: KeyGroup[] = [];
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
    // up. Among a sample of the records, every key shared by two or more is.
    const known = (group: KeyGroup): boolean => options.sampled !== true && group.members.length <= MAX_BLOCK_SIZE;
    overlap.prefetch(multiple.filter((group) => !known(group)).map((group) => group.material));
    for (const group of multiple) {
      if (known(group)) small.push(group);
      else if (!overlap.isUsable(group.material)) continue;
      shared.push({ first: group.members[0] ?? 0, rule, position: group.position, members: group.members });
    }
  }
  // When the cap cuts the enumeration short, a caller asks the overlap about pairs past it (estimate.ts): it is told
  // the keys found usable here, so it need not read their block sizes again. A whole enumeration spares the work.
  const pairs = new PairTable(n);
  const truncated = (): { pairs: PairTable; truncated: boolean } => {
    for (const group of small) overlap.knownGroup(group.material, group.members.length);
    return { pairs, truncated: true };
  };
  // Pairs are enumerated in the order the keys first appear over the records (record, then rule, then the key's place
  // among the record's keys of the rule), as when every rule's keys were grouped at once: the same pairs are kept
  // when the cap cuts the enumeration short, and callers that sample them draw the same ones.
  shared.sort((a, b) => a.first - b.first || a.rule - b.rule || a.position - b.position);
  for (let g = 0; g < shared.length; g++) {
    if (((g + 1) & 4095) === 0) control.step(PHASE, n, n);
    const { members, rule } = shared[g] as SharedKey;
    const bit = 1 << rule;
    for (let x = 0; x < members.length; x++) {
      for (let y = x + 1; y < members.length; y++) {
        pairs.add(members[x] ?? 0, members[y] ?? 0, bit);
        if (pairs.size >= cap) return truncated();
      }
    }
  }
  return { pairs, truncated: false };
}
