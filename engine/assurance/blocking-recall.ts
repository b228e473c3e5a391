/**
 * Blocking recall of a labelled dataset: the share of true pairs that candidate discovery could have
 * brought together. A true pair is found when its two records share at least one blocking key (the same
 * key material under the same rule, hence the same tag) whose tag is held by at most MAX_BLOCK_SIZE
 * identities in the registry; candidate discovery skips commoner tags (engine/ingest/candidates.ts). A
 * true pair with no shared key, or sharing only too-common keys (a record with too few keys), is a missed
 * candidate (spec "Evaluation report").
 *
 * Speed: rules are tried most-often-shared first and a pair stops at the first rule under which its
 * records share a key; whether they do is decided from the rule's part values (two records share a key
 * exactly when every part's values intersect), so only that one key string is built; a tag (an HMAC) is
 * computed only for such a key, and block sizes are read in batches of 128 tags. The rare pair whose key
 * is too common is then checked exactly, key by key and rule by rule.
 */
import type { MatchFields } from '../contract/fields.ts';
import type { BlockingConfig } from '../contract/profile.ts';
import { MAX_KEYS_PER_RULE, ruleKey, ruleKeyMaterial, rulePartValues } from '../blocking/key-material.ts';
import { createHash } from 'node:crypto';
import { materialTag, type BlockingKey, type KeyRing } from '../blocking/tags.ts';
import { MAX_BLOCK_SIZE } from '../ingest/candidates.ts';
import { tagsHeldByMoreThan } from '../store/assurance.ts';
import type { Store } from '../store/store.ts';
import { BLOCKING_RECALL_RULE } from './report-text.ts';

export interface BlockingRecall {
  readonly rule: string;
  readonly maximumBlockSize: number;
  readonly truePairs: number;
  readonly found: number;
  readonly missed: number;
  readonly recall: number | null;
}

/**
 * Tags of key material by blocking key (identified by a SHA-256 fingerprint of version and secret, so no
 * secret is kept as a map key). A tag is a pure function of key and material, so it can be kept between
 * calls; block sizes, which change with ingestion, are read afresh on every call. Bounded.
 */
const MAX_CACHED_TAGS = 200_000;
const tagCache = new Map<string, Map<string, Buffer>>();
let cachedTagCount = 0;

/** Forgets every remembered tag (benches measure a first call with it; nothing else needs it). */
export function forgetCachedTags(): void {
  tagCache.clear();
  cachedTagCount = 0;
}

/** The tag function of one key, remembering tags between calls. */
function cachedTags(key: BlockingKey): (material: string) => Buffer {
  const fingerprint = createHash('sha256').update(key.version).update('\u0000').update(key.secret).digest('hex');
  return (material) => {
    let byMaterial = tagCache.get(fingerprint);
    if (byMaterial === undefined || cachedTagCount >= MAX_CACHED_TAGS) {
      if (cachedTagCount >= MAX_CACHED_TAGS) {
        tagCache.clear();
        cachedTagCount = 0;
      }
      byMaterial = new Map();
      tagCache.set(fingerprint, byMaterial);
    }
    let tag = byMaterial.get(material);
    if (tag === undefined) {
      tag = materialTag(key, material);
      byMaterial.set(material, tag);
      cachedTagCount++;
    }
    return tag;
  };
}

/** Shared blocking keys of record pairs, and the usability of keys (cached per key). */
export class BlockingKeyOverlap {
  private readonly usable = new Map<string, boolean>();

  constructor(
    private readonly store: Store,
    private readonly tenantId: string,
    private readonly blocking: BlockingConfig,
    private readonly ring: KeyRing,
  ) {}

  get ruleCount(): number {
    return this.blocking.Rules.length;
  }

  /** The rules, in the profile's order (a rule's index is its place here). */
  get rules(): BlockingConfig['Rules'] {
    return this.blocking.Rules;
  }

  /** A record's key materials under one rule (index into the rule list). */
  materialsOf(fields: MatchFields, rule: number): string[] {
    const definition = this.blocking.Rules[rule];
    return definition === undefined ? [] : ruleKeyMaterial(fields, definition);
  }

  /** One key the two records share under the rule (index into the rule list), or undefined when none. */
  oneSharedKey(a: MatchFields, b: MatchFields, rule: number): string | undefined {
    const definition = this.blocking.Rules[rule];
    if (definition === undefined) return undefined;
    // Values shared part by part say nothing of an Unordered rule, whose parts may meet crosswise.
    if (definition.Unordered === true) return this.allSharedKeys(a, b, rule)[0];
    const values: string[] = [];
    let aKeys = 1;
    let bKeys = 1;
    for (const part of definition.Parts) {
      const left = rulePartValues(a, part);
      if (left.length === 0) return undefined;
      const right = rulePartValues(b, part);
      const common = right.find((value) => left.includes(value));
      if (common === undefined) return undefined;
      values.push(common);
      aKeys *= left.length;
      bKeys *= right.length;
    }
    // Beyond the per-rule cap some combinations are never keyed: compare the actual keys instead.
    if (aKeys > MAX_KEYS_PER_RULE || bKeys > MAX_KEYS_PER_RULE) return this.allSharedKeys(a, b, rule)[0];
    return ruleKey(definition.Name, values);
  }

  /** Every key the two records share under the rule. */
  allSharedKeys(a: MatchFields, b: MatchFields, rule: number): string[] {
    const left = this.materialsOf(a, rule);
    return left.length === 0 ? [] : this.materialsOf(b, rule).filter((key) => left.includes(key));
  }

  /**
   * Records that a key is shared by `records` records of the tenant. Every identity holding its tag holds one of
   * those records, so a key shared by at most MAX_BLOCK_SIZE records is usable without reading its block size (no
   * tag is computed, no row read): only the few larger groups need the store (prefetch).
   */
  knownGroup(material: string, records: number): void {
    if (records <= MAX_BLOCK_SIZE && !this.usable.has(material)) this.usable.set(material, true);
  }

  /** Reads the block sizes of many keys at once; later isUsable calls for them are cache hits. */
  prefetch(materials: Iterable<string>): void {
    const pending = [...new Set(materials)].filter((m) => !this.usable.has(m));
    if (pending.length === 0) return;
    const tagOf = this.ring.keys.map(cachedTags);
    const tags = pending.map((material) => tagOf.map((tag) => tag(material)));
    const common = tagsHeldByMoreThan(this.store, this.tenantId, tags.flat(), MAX_BLOCK_SIZE);
    pending.forEach((material, m) => {
      this.usable.set(material, common.size === 0 || (tags[m] ?? []).some((tag) => !common.has(tag.toString('hex'))));
    });
  }

  /** A key is usable when, under some key of the ring, its tag's block is not too common. */
  isUsable(material: string): boolean {
    if (!this.usable.has(material)) this.prefetch([material]);
    return this.usable.get(material) === true;
  }
}

/** Pairs of each class whose every rule is checked to choose the order in which rules are tried for that class. */
const ORDER_SAMPLE = 64;

/**
 * Which labelled pairs candidate discovery could bring together (1) and which it never compares (0): one
 * shared key per pair from the first rule (in most-often-shared order, measured on the first 64 pairs of
 * its class) that gives one, their block sizes read in batches; then, for the few pairs whose key is too
 * common, every shared key of every rule from there on. Pairs for which include(i) is false are left 0
 * unchecked. The result does not depend on the rule order, only the work does.
 */
export function blockingCandidateMask(
  overlap: BlockingKeyOverlap,
  fields: readonly MatchFields[],
  left: Uint32Array,
  right: Uint32Array,
  isMatch: Uint8Array,
  include: (index: number) => boolean = () => true,
): Uint8Array {
  const recordsOf = (i: number): [MatchFields, MatchFields] => [
    fields[left[i] ?? 0] as MatchFields,
    fields[right[i] ?? 0] as MatchFields,
  ];
  // One rule order per class: true pairs and non-matches tend to share keys under different rules.
  const orders = [0, 1].map((klass) => {
    const shares = new Array<number>(overlap.ruleCount).fill(0);
    for (let i = 0, sampled = 0; i < isMatch.length && sampled < ORDER_SAMPLE; i++) {
      if ((isMatch[i] === 1 ? 1 : 0) !== klass || !include(i)) continue;
      sampled++;
      const [a, b] = recordsOf(i);
      for (let rule = 0; rule < overlap.ruleCount; rule++) {
        if (overlap.oneSharedKey(a, b, rule) !== undefined) shares[rule] = (shares[rule] ?? 0) + 1;
      }
    }
    return shares.map((_, rule) => rule).sort((x, y) => (shares[y] ?? 0) - (shares[x] ?? 0) || x - y);
  });
  const orderOf = (i: number): number[] => orders[isMatch[i] === 1 ? 1 : 0] ?? [];

  const firsts: { pair: number; position: number; key: string }[] = [];
  for (let i = 0; i < isMatch.length; i++) {
    if (!include(i)) continue;
    const [a, b] = recordsOf(i);
    const order = orderOf(i);
    for (let position = 0; position < order.length; position++) {
      const key = overlap.oneSharedKey(a, b, order[position] ?? 0);
      if (key === undefined) continue;
      firsts.push({ pair: i, position, key });
      break;
    }
  }
  overlap.prefetch(firsts.map((f) => f.key));
  const mask = new Uint8Array(isMatch.length);
  for (const first of firsts) {
    if (overlap.isUsable(first.key)) {
      mask[first.pair] = 1;
      continue;
    }
    const [a, b] = recordsOf(first.pair);
    if (
      orderOf(first.pair)
        .slice(first.position)
        .some((rule) => overlap.allSharedKeys(a, b, rule).some((key) => overlap.isUsable(key)))
    )
      mask[first.pair] = 1;
  }
  return mask;
}

/** Blocking recall from a candidate mask (blockingCandidateMask) over the pairs labelled as matches. */
export function blockingRecallOf(mask: Uint8Array, isMatch: Uint8Array): BlockingRecall {
  let truePairs = 0;
  let found = 0;
  for (let i = 0; i < isMatch.length; i++) {
    if (isMatch[i] !== 1) continue;
    truePairs++;
    found += mask[i] ?? 0;
  }
  return {
    rule: BLOCKING_RECALL_RULE,
    maximumBlockSize: MAX_BLOCK_SIZE,
    truePairs,
    found,
    missed: truePairs - found,
    recall: truePairs === 0 ? null : found / truePairs,
  };
}

/** Blocking recall over the pairs labelled as matches (only they are checked). */
export function blockingRecall(
  overlap: BlockingKeyOverlap,
  fields: readonly MatchFields[],
  left: Uint32Array,
  right: Uint32Array,
  isMatch: Uint8Array,
): BlockingRecall {
  return blockingRecallOf(
    blockingCandidateMask(overlap, fields, left, right, isMatch, (i) => isMatch[i] === 1),
    isMatch,
  );
}
