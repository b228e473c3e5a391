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

  it('agrees with the plain recursive definition on random JSON values', () => {
    // The definition, recursive and obviously right on small values: a container is one more than its deepest child.
    const depthOf = (value: unknown): number =>
      value === null || typeof value !== 'object'
        ? 0
        : 1 + Math.max(0, ...(Array.isArray(value) ? value : Object.values(value)).map(depthOf));
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const make = (budget: number): unknown => {
      const pick = random();
      if (budget <= 0 || pick < 0.3) return pick < 0.1 ? null : pick < 0.2 ? 'x' : 1;
      const children = Array.from({ length: Math.floor(random() * 4) }, () =>
        make(budget - 1 - Math.floor(random() * 3)),
      );
      return pick < 0.65 ? children : Object.fromEntries(children.map((child, i) => [`k${String(i)}`, child]));
    };
    for (let i = 0; i < 500; i++) {
      const value = JSON.parse(JSON.stringify(make(12))) as unknown;
      const depth = depthOf(value);
      expect(nestedDeeperThan(value, depth)).toBe(false);
      if (depth > 0) expect(nestedDeeperThan(value, depth - 1)).toBe(true);
    }
  });

  it('walks a body nested far beyond the stack without overflowing', () => {
    const text = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    expect(nestedDeeperThan(JSON.parse(text))).toBe(true);
    expect(nestedDeeperThan(JSON.parse('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH)))).toBe(false);
  });
});
