import { describe, expect, it } from 'vitest';
import { PairTable } from '../../../engine/assurance/pair-table.ts';
import { createRng } from '../../../engine/synthetic/prng.ts';

describe('PairTable', () => {
  it('holds what a Map keyed by a * n + b holds, in the same order, through many growths', () => {
    // Past 2^31 for the pair numbers (n = 100,000), a few records in many pairs and many in few, so pairs recur.
    const n = 100_000;
    const rng = createRng(11);
    const table = new PairTable(n);
    const reference = new Map<number, number>();
    for (let i = 0; i < 200_000; i++) {
      const x = rng.next() < 0.5 ? rng.int(300) : rng.int(n);
      let y = rng.next() < 0.5 ? rng.int(300) : rng.int(n);
      if (y === x) y = (x + 1) % n;
      const [a, b] = x < y ? [x, y] : [y, x];
      const flags = rng.next() < 0.01 ? 1 << 31 : 1 << rng.int(31);
      table.add(a, b, flags);
      reference.set(a * n + b, ((reference.get(a * n + b) ?? 0) | flags) >>> 0);
    }
    expect(table.size).toBe(reference.size);
    expect(reference.size).toBeLessThan(200_000);
    expect(table.keys()).toEqual([...reference.keys()]);
    expect(table.values()).toEqual([...reference.values()]);
    expect([...table]).toEqual([...reference]);
    for (const [pair, flags] of reference) expect(table.get(pair)).toBe(flags);
  });

  it('answers undefined for a pair never added, and for numbers that are no pair', () => {
    const table = new PairTable(10);
    table.add(2, 7, 4);
    expect(table.get(2 * 10 + 7)).toBe(4);
    expect(table.get(7 * 10 + 2)).toBeUndefined();
    expect(table.get(3 * 10 + 7)).toBeUndefined();
    expect(table.get(-1)).toBeUndefined();
    expect(table.get(10 * 10)).toBeUndefined();
    expect(table.get(2.5)).toBeUndefined();
  });

  it('refuses a pair out of order or outside the records', () => {
    const table = new PairTable(10);
    expect(() => {
      table.add(7, 2, 1);
    }).toThrow();
    expect(() => {
      table.add(3, 3, 1);
    }).toThrow();
    expect(() => {
      table.add(3, 10, 1);
    }).toThrow();
    expect(() => {
      table.add(-1, 3, 1);
    }).toThrow();
    expect(table.size).toBe(0);
  });
});
