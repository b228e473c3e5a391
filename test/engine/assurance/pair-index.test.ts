import { describe, expect, it } from 'vitest';
import { PairIndex } from '../../../engine/assurance/pair-index.ts';
import { createRng } from '../../../engine/synthetic/prng.ts';

describe('PairIndex', () => {
  it('gives each distinct pair the next ID in the order first seen, as a Map of their text would', () => {
    const rng = createRng(5);
    const index = new PairIndex();
    const reference = new Map<string, number>();
    // Negative, zero and extreme 32-bit values, and pairs that differ only by order, so (a, b) is not (b, a).
    const values = [-1, 0, 1, 2, 2 ** 31 - 1, -(2 ** 31), 65_536];
    const value = (): number => (rng.next() < 0.3 ? (values[rng.int(values.length)] ?? 0) : rng.int(50_000));
    for (let i = 0; i < 150_000; i++) {
      const first = value();
      const second = value();
      const key = `${first},${second}`;
      const expected = reference.get(key) ?? reference.size;
      reference.set(key, expected);
      expect(index.intern(first, second)).toBe(expected);
    }
    expect(index.size).toBe(reference.size);
    for (const [key, id] of reference) {
      const [first, second] = key.split(',').map(Number) as [number, number];
      expect(index.find(first, second)).toBe(id);
      expect([index.first(id), index.second(id)]).toEqual([first, second]);
    }
    expect(index.find(7, 50_001)).toBe(-1);
  });

  it('tells (a, b) from (b, a)', () => {
    const index = new PairIndex();
    expect(index.intern(3, 4)).toBe(0);
    expect(index.find(4, 3)).toBe(-1);
    expect(index.intern(4, 3)).toBe(1);
    expect(index.intern(3, 4)).toBe(0);
  });
});
