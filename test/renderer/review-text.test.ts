import { describe, expect, it } from 'vitest';
import { ageText, pageText, shortCaseId, staleText } from '../../renderer/pages/reviews/review-text.ts';

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
  it('says how many waiting cases are out of date, with the agreement English needs', () => {
    expect(staleText(0, 10)).toBeNull();
    expect(staleText(3, 0)).toBeNull();
    expect(staleText(1, 10)).toMatch(
      /^1 of these 10 waiting cases is out of date: an identity changed since it was opened/,
    );
    expect(staleText(1_164, 2_267)).toMatch(
      new RegExp(
        `^${(1164).toLocaleString()} of these ${(2267).toLocaleString()} waiting cases are out of date: .* since they were`,
      ),
    );
    expect(staleText(4, 4)).toMatch(/^All 4 waiting cases are out of date/);
    expect(staleText(1, 1)).toMatch(/^The waiting case is out of date: an identity changed since it was opened/);
    expect(staleText(2, 10)).toMatch(
      /A reconciliation \(Maintenance, Start a job\) asks again about the pairs that still need a person, as new cases at .* supersedes the out-of-date ones/,
    );
  });
});
