import { describe, expect, it } from 'vitest';
import { ageText, pageText, shortCaseId } from '../../renderer/pages/reviews/review-text.ts';

describe('review case words', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  it('says a case’s age in its largest whole unit', () => {
    expect(ageText('2026-11-26T11:59:30Z', now)).toBe('just now');
    expect(ageText('2026-11-26T11:55:00Z', now)).toBe('5 min');
    expect(ageText('2026-11-26T09:00:00Z', now)).toBe('3 h');
    expect(ageText('2026-11-24T11:00:00Z', now)).toBe('2 days');
    expect(ageText('not a date', now)).toBe('—');
  });
  it('names a page of cases and shortens case IDs', () => {
    expect(pageText(50, 50, 263)).toBe(`Cases 51–100 of ${(263).toLocaleString()}`);
    expect(pageText(0, 0, 0)).toBe('No cases');
    expect(shortCaseId('rc-0123456789abcdef0123456789abcdef')).toBe('01234567');
  });
});
