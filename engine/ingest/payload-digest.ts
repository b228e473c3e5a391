import { createHash } from 'node:crypto';

/** Serialises JSON with object keys sorted, so equal resources give equal digests whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return '[' + value.map(canonicalJson).join(',') + ']';
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return '{' + entries.map(([k, v]) => JSON.stringify(k) + ':' + canonicalJson(v)).join(',') + '}';
}

/** SHA-256 of the canonical JSON of a resource as received. */
export function payloadDigest(resource: unknown): string {
  return createHash('sha256').update(canonicalJson(resource)).digest('hex');
}
