import { describe, it, expect } from 'vitest';
import { exact } from '../../../engine/comparators/exact.ts';

// Reference: the specification's "Comparator profile" section lists `Exact` as a comparator; on
// normalised values it is plain equality (similarity 1 when equal, 0 otherwise).
describe('exact', () => {
  it('is 1 for equal values and 0 otherwise', () => {
    expect(exact('smith', 'smith')).toBe(1);
    expect(exact('', '')).toBe(1);
    expect(exact('smith', 'smyth')).toBe(0);
    expect(exact('smith', 'smith ')).toBe(0);
    expect(exact('', 'a')).toBe(0);
  });
});
