/** A long operation's running step: its time left from its own pace since the window first saw it. */
import { describe, expect, it } from 'vitest';
import { MIN_OBSERVED_MS, nextMark, stepRemainingMs } from '../../renderer/pages/assurance/step-estimate.ts';

describe("a long operation's time left in its running step", () => {
  const mark = { run: 'r1', phase: 'scoring', at: 10_000, done: 1_000 };

  it('extrapolates the pace since the mark over the items left', () => {
    // 4,000 items in 20 s since the mark: 5 ms an item, 95,000 items left.
    expect(stepRemainingMs(mark, 5_000, 100_000, 30_000)).toBe(475_000);
    expect(stepRemainingMs(mark, 100_000, 100_000, 30_000)).toBe(0);
  });

  it('says nothing before the pace is known', () => {
    expect(stepRemainingMs(mark, 5_000, null, 30_000)).toBeNull();
    expect(stepRemainingMs(mark, 1_000, 100_000, 30_000)).toBeNull();
    expect(stepRemainingMs(mark, 5_000, 100_000, 10_000 + MIN_OBSERVED_MS - 1)).toBeNull();
  });

  it('keeps its mark while the run and step stay, and takes a new one when either changes', () => {
    expect(nextMark(mark, 'r1', { phase: 'scoring', done: 9_000 }, 50_000)).toBe(mark);
    expect(nextMark(mark, 'r1', { phase: 'reading', done: 0 }, 50_000)).toEqual({
      run: 'r1',
      phase: 'reading',
      at: 50_000,
      done: 0,
    });
    expect(nextMark(mark, 'r2', { phase: 'scoring', done: 10 }, 50_000)).toEqual({
      run: 'r2',
      phase: 'scoring',
      at: 50_000,
      done: 10,
    });
    expect(nextMark(mark, 'r1', null, 50_000)).toBeNull();
    expect(nextMark(null, 'r1', { phase: 'scoring', done: 3 }, 7)).toEqual({
      run: 'r1',
      phase: 'scoring',
      at: 7,
      done: 3,
    });
  });
});
