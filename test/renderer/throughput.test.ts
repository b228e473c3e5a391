import { describe, expect, it } from 'vitest';
import { rateAxisTop } from '../../renderer/hooks/throughput.ts';

describe('the throughput chart axis', () => {
  it('follows the steady rate, not one burst', () => {
    const steady = Array.from({ length: 30 }, (_, i) => 100 + (i % 5));
    expect(rateAxisTop([2000, ...steady])).toBeCloseTo(104 * 1.5, 6);
    // Without a burst the peak is the top.
    expect(rateAxisTop(steady)).toBe(104);
    expect(rateAxisTop([])).toBe(1);
    expect(rateAxisTop([0, 0])).toBe(1);
  });
});
