import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../../main/net/json-depth.ts';

describe('nestedDeeperThan', () => {
  it('counts each array or object as one level, scalars as none', () => {
    expect(nestedDeeperThan(null, 0)).toBe(false);
    expect(nestedDeeperThan('x', 0)).toBe(false);
    expect(nestedDeeperThan({}, 0)).toBe(true);
    expect(nestedDeeperThan({}, 1)).toBe(false);
    expect(nestedDeeperThan({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(nestedDeeperThan({ a: [1, { b: 2 }] }, 2)).toBe(true);
    // The deepest branch counts, wherever it is.
    expect(nestedDeeperThan([1, 2, [3, [4, [5]]], 6], 3)).toBe(true);
  });

  it('walks a body nested far beyond the stack without overflowing', () => {
    const text = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    expect(nestedDeeperThan(JSON.parse(text))).toBe(true);
    expect(nestedDeeperThan(JSON.parse('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH)))).toBe(false);
  });
});
