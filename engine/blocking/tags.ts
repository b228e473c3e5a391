/**
 * Blocking tags: HMAC-SHA256 of a rule's key material under a versioned secret, truncated to 128 bits.
 * Stored tags reveal no demographics; without the secret nobody can test a guess against them. The key
 * version is part of the MAC input, so tags made under two keys never collide by construction.
 */
import type { MatchFields } from '../contract/fields.ts';
import type { BlockingConfig } from '../contract/profile.ts';
import { HmacSha256 } from './hmac-sha256.ts';
import { ruleKeyMaterial } from './key-material.ts';

export const TAG_BYTES = 16;

export interface BlockingKey {
  readonly version: string;
  readonly secret: Buffer;
}

/** The keys a profile uses: the active one, then the inactive previous one during a staged key change. */
export interface KeyRing {
  readonly keys: readonly BlockingKey[];
}

export interface BlockingTag {
  readonly tag: Buffer;
  readonly ruleName: string;
  readonly ruleSetVersion: number;
  readonly keyVersion: string;
}

export function tagHex(tag: Buffer): string {
  return tag.toString('hex');
}

/** Each key's HMAC, its padded key blocks hashed once (a key ring lives as long as its profile). */
const hmacs = new WeakMap<BlockingKey, HmacSha256>();

/** The tag of one rule key material (see key-material.ts) under one key. */
export function materialTag(key: BlockingKey, material: string): Buffer {
  let hmac = hmacs.get(key);
  if (hmac === undefined) {
    hmac = new HmacSha256(key.secret);
    hmacs.set(key, hmac);
  }
  return hmac.digest(`${key.version}\u001e${material}`, TAG_BYTES);
}

/** Every tag a record yields under every rule and every key of the ring, de-duplicated. */
export function blockingTags(fields: MatchFields, blocking: BlockingConfig, ring: KeyRing): BlockingTag[] {
  return blockingTagsOfAll([fields], blocking, ring);
}

/**
 * The union of several records' tags (an identity's), de-duplicated. The key material is de-duplicated before it
 * is hashed: an identity's records share most of it, and the HMAC is the costly step. A key material names its
 * rule, so two rules never share a tag.
 */
export function blockingTagsOfAll(
  records: readonly MatchFields[],
  blocking: BlockingConfig,
  ring: KeyRing,
): BlockingTag[] {
  const out: BlockingTag[] = [];
  for (const rule of blocking.Rules) {
    const materials = new Set<string>();
    for (const fields of records) for (const material of ruleKeyMaterial(fields, rule)) materials.add(material);
    for (const key of ring.keys) {
      for (const material of materials) {
        out.push({
          tag: materialTag(key, material),
          ruleName: rule.Name,
          ruleSetVersion: blocking.Version,
          keyVersion: key.version,
        });
      }
    }
  }
  return out;
}
