import { describe, expect, it } from 'vitest';
import { axisTicks, rateAxisTop, roundAxisTop, secondTicks } from '../../renderer/hooks/throughput.ts';

describe('the throughput chart axis', () => {
  it('follows the steady rate, not one burst', () => {
    const steady = Array.from({ length: 30 }, (_, i) => 100 + (i % 5));
    expect(rateAxisTop([2000, ...steady])).toBe(160); // 104 × 1.5 = 156, rounded up
    // Without a burst the peak is the top, rounded up.
    expect(rateAxisTop(steady)).toBe(120);
    expect(rateAxisTop([])).toBe(4);
    expect(rateAxisTop([0, 0])).toBe(4);
  });

  it('rounds up by at most a third above 12, to steps that are whole numbers', () => {
    for (let value = 1; value < 1e8; value *= 1.037) {
      const top = roundAxisTop(value);
      expect(top).toBeGreaterThanOrEqual(value);
      if (value > 12) expect(top / value).toBeLessThanOrEqual(4 / 3);
      for (const tick of axisTicks(top))
        expect(Number.isInteger(tick), `${String(tick)} for ${String(value)}`).toBe(true);
    }
  });

  it('reads in four round steps', () => {
    const tops = [1, 5, 9, 12, 13, 100, 101, 480, 481, 999, 23_832, 1_000_001].map(roundAxisTop);
    expect(tops).toEqual([4, 8, 12, 12, 16, 100, 120, 480, 600, 1000, 24_000, 1_200_000]);
    for (const [index, top] of tops.entries()) {
      const ticks = axisTicks(top);
      expect(ticks).toHaveLength(5);
      // Each step a whole number with at most two significant digits (600, 1,200, 6,000; never 5,958).
      for (const tick of ticks) {
        expect(Number.isInteger(tick), `${String(tick)} of ${String(index)}`).toBe(true);
        expect(Number(tick.toPrecision(2)), String(tick)).toBe(tick);
      }
    }
  });
});

describe('the throughput chart time axis', () => {
  it('ticks whole seconds at a round step, at most six, never beside the last second', () => {
    expect(secondTicks(0.4, 8.3)).toEqual([2, 4, 6, 8]);
    expect(secondTicks(0.4, 5.9)).toEqual([1, 2, 3, 4, 5]);
    expect(secondTicks(1.2, 64)).toEqual([10, 20, 30, 40, 50, 60]);
    expect(secondTicks(0.5, 1800)).toEqual([300, 600, 900, 1200, 1500, 1800]);
    for (let last = 1; last < 20_000; last = Math.ceil(last * 1.1)) {
      const ticks = secondTicks(0.5, last);
      expect(ticks.length).toBeLessThanOrEqual(6);
      expect(ticks.length, String(last)).toBeGreaterThan(0);
    }
  });
});
