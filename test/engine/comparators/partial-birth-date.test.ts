import { describe, expect, it } from 'vitest';
import { partialDateLevel } from '../../../engine/comparators/partial-birth-date.ts';

describe('partialDateLevel', () => {
  it('compares at the coarser precision: the year, or the year and month', () => {
    expect(partialDateLevel('1962', '19620304')).toBe('partial-date-agrees');
    expect(partialDateLevel('196203', '19620304')).toBe('partial-date-agrees');
    expect(partialDateLevel('196203', '1962')).toBe('partial-date-agrees');
    expect(partialDateLevel('1962', '19920304')).toBe('partial-date-differs');
    expect(partialDateLevel('196203', '19620404')).toBe('partial-date-differs');
    expect(partialDateLevel('19920304', '1962')).toBe('partial-date-differs');
  });
});
