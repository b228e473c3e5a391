/** Algorithm R per stratum: counts every item, keeps a uniform sample of each within its capacity, draws without replacement. */
import { describe, expect, it } from 'vitest';
import { StratifiedReservoir } from '../../../engine/stats/stratified-reservoir.ts';
import { createRng } from '../../../engine/synthetic/prng.ts';

describe('the stratified reservoir', () => {
  it('keeps every item while under capacity, counts all, and draws without replacement', () => {
    const r = new StratifiedReservoir<string, number>(10, createRng(1));
    for (let i = 0; i < 6; i++) r.offer('a', i);
    for (let i = 0; i < 1000; i++) r.offer('b', i);
    expect(r.size('a')).toBe(6);
    expect(r.size('b')).toBe(1000);
    expect(r.take('a', 6).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5]);
    const b = r.take('b', 10);
    expect(new Set(b).size).toBe(10);
    expect(() => r.take('b', 11)).toThrow(RangeError);
    expect(r.size('c')).toBe(0);
    expect(r.take('c', 0)).toEqual([]);
  });

  it('gives every item of a long stream the same chance: 20,000 draws of 5 from 50 kept of 200', () => {
    const hits = new Array<number>(200).fill(0);
    const rng = createRng(42);
    for (let run = 0; run < 20_000; run++) {
      const r = new StratifiedReservoir<string, number>(50, rng);
      for (let i = 0; i < 200; i++) r.offer('s', i);
      for (const item of r.take('s', 5)) hits[item] = (hits[item] ?? 0) + 1;
    }
    // Each item's expected count is 20,000 × 5 / 200 = 500 (sd about 22): every one within 6 sd, early and late alike.
    for (const count of hits) expect(Math.abs(count - 500)).toBeLessThan(135);
    const first = hits.slice(0, 100).reduce((a, b) => a + b, 0);
    const second = hits.slice(100).reduce((a, b) => a + b, 0);
    expect(Math.abs(first - second)).toBeLessThan(1000);
  });
});
