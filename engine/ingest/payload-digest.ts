import { createHash } from 'node:crypto';

/** Serialises JSON with object keys sorted, so equal resources give equal digests whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return out + ']';
  }
  const record = value as Record<string, unknown>;
  // Default sort compares UTF-16 code units, the same order as the < comparison used before.
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    out += (first ? '' : ',') + JSON.stringify(key) + ':' + canonicalJson(item);
    first = false;
  }
  return out + '}';
}

/** SHA-256 of the canonical JSON of a resource as received. */
export function payloadDigest(resource: unknown): string {
  return createHash('sha256').update(canonicalJson(resource)).digest('hex');
}
