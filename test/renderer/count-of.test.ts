/** formatCountOf (renderer/format.ts): a count with its noun, as the pages' badges and sentences say it. */
import { describe, expect, it } from 'vitest';
import { formatCountOf } from '../../renderer/format.ts';

describe('formatCountOf', () => {
  it('says one in the singular and any other count in the plural', () => {
    expect(formatCountOf(1, 'match', 'matches')).toBe('1 match');
    expect(formatCountOf(0, 'match', 'matches')).toBe('0 matches');
    expect(formatCountOf(2, 'non-match', 'non-matches')).toBe('2 non-matches');
    expect(formatCountOf(1, 'row with errors', 'rows with errors')).toBe('1 row with errors');
    // A plain noun takes an s.
    expect(formatCountOf(12, 'label')).toBe('12 labels');
    expect(formatCountOf(1, 'label')).toBe('1 label');
  });
});
