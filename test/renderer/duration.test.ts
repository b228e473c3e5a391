/** formatDuration and formatRemaining (renderer/format.ts): how the job pages say how long something took or takes. */
import { describe, expect, it } from 'vitest';
import { formatDuration, formatRemaining } from '../../renderer/format.ts';

describe('formatDuration', () => {
  it('says "under a second" for a job that took less than half a second, never "0 s"', () => {
    expect(formatDuration(0)).toBe('under a second');
    expect(formatDuration(420)).toBe('under a second');
    expect(formatDuration(500)).toBe('1 s');
  });

  it('gives seconds, then minutes and seconds, then hours and minutes', () => {
    expect(formatDuration(42_400)).toBe('42 s');
    expect(formatDuration(184_000)).toBe('3 min 4 s');
    expect(formatDuration(3_725_000)).toBe('1 h 2 min');
  });

  it('says a time left as about so long, or under a second', () => {
    expect(formatRemaining(800)).toBe('under a second');
    expect(formatRemaining(184_000)).toBe('about 3 min 4 s');
  });
});
