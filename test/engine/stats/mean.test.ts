import { describe, expect, it } from 'vitest';
import { mean } from '../../../engine/stats/mean.ts';

describe('mean', () => {
  it('is the arithmetic mean', () => {
    // (1 + 2 + 3 + 4)/4 = 2.5
    expect(mean([1, 2, 3, 4])).toBe(2.5);
  });

  it('is null on empty input', () => {
    expect(mean([])).toBeNull();
  });

  it('does not lose small terms next to large ones (compensated summation)', () => {
    // Exact sum: 1e16 + 1 + 1 − 1e16 = 2, mean 0.5. Naive left-to-right double summation gives
    // (1e16 + 1) = 1e16, (+1) = 1e16, (−1e16) = 0 → 0; Python's math.fsum gives 2.0.
    expect(mean([1e16, 1, 1, -1e16])).toBe(0.5);
    // Ten copies of 0.1: naive summation gives 0.9999999999999999; math.fsum gives 1.0.
    expect(mean(Array.from({ length: 10 }, () => 0.1))).toBe(0.1);
  });
});
