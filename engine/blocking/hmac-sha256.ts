/**
 * HMAC-SHA256 (RFC 2104) with the key's padded states computed once: HMAC(K, m) = H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ m)).
 * Node's createHmac re-derives both pad blocks on every call; blocking makes a dozen tags per record, so
 * hashing the two 64-byte pad blocks once per key and copying the hash state per message halves the cost.
 * Tests check it against createHmac on random keys and messages.
 */
import { createHash, type Hash } from 'node:crypto';

const BLOCK_BYTES = 64;

export interface HmacKey {
  readonly inner: Hash;
  readonly outer: Hash;
}

export function hmacKey(secret: Buffer): HmacKey {
  const key = secret.length > BLOCK_BYTES ? createHash('sha256').update(secret).digest() : secret;
  const ipad = Buffer.alloc(BLOCK_BYTES, 0x36);
  const opad = Buffer.alloc(BLOCK_BYTES, 0x5c);
  for (let i = 0; i < key.length; i++) {
    ipad[i] = (ipad[i] ?? 0) ^ (key[i] ?? 0);
    opad[i] = (opad[i] ?? 0) ^ (key[i] ?? 0);
  }
  return { inner: createHash('sha256').update(ipad), outer: createHash('sha256').update(opad) };
}

export function hmacSha256(key: HmacKey, ...parts: readonly string[]): Buffer {
  const inner = key.inner.copy();
  for (const part of parts) inner.update(part);
  return key.outer.copy().update(inner.digest()).digest();
}
