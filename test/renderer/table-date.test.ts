/** formatTableDateTime, tableDateTimeParts and formatTimeSpan (renderer/format.ts): a table's dates leave out this year's year, and keep any other's. */
import { describe, expect, it } from 'vitest';
import { formatDateTime, formatTableDateTime, formatTimeSpan, tableDateTimeParts } from '../../renderer/format.ts';

describe('formatTableDateTime', () => {
  const now = new Date('2026-07-01T12:00:00Z');

  it('leaves out the year of a moment in this year, and keeps the time to the second', () => {
    const text = formatTableDateTime('2026-06-15T09:08:07Z', now);
    expect(text).not.toMatch(/2026/);
    expect(text).toMatch(/\d{1,2}:\d{2}:\d{2}/);
    expect(text.length).toBeLessThan(formatDateTime('2026-06-15T09:08:07Z').length);
  });

  it('keeps the year of a moment in another year, and says a missing one as a dash', () => {
    expect(formatTableDateTime('2025-06-15T09:08:07Z', now)).toBe(formatDateTime('2025-06-15T09:08:07Z'));
    expect(formatTableDateTime(null, now)).toBe('—');
  });
});

describe('tableDateTimeParts', () => {
  const now = new Date('2026-07-01T12:00:00Z');

  it('splits the table form into its day and its time, which joined by a space are the table form', () => {
    for (const iso of ['2026-06-15T09:08:07Z', '2025-12-31T23:59:59Z']) {
      const [day, time] = tableDateTimeParts(iso, now);
      // Node's format() writes a plain space where formatToParts keeps ICU's narrow one (before AM).
      expect(`${day} ${time}`.replace(/\s/g, ' ')).toBe(formatTableDateTime(iso, now).replace(/\s/g, ' '));
      expect(time).toMatch(/^\d{1,2}:\d{2}:\d{2}/);
      expect(day).not.toMatch(/:\d{2}/);
      expect(day).toMatch(/\d/);
    }
    expect(tableDateTimeParts('not a time', now)).toEqual(['not a time', '']);
  });
});

describe('formatTimeSpan', () => {
  const now = new Date('2026-07-01T12:00:00Z');

  it('says the day a span shares once, leaves out this year and keeps the seconds', () => {
    const text = formatTimeSpan('2026-06-15T09:08:07Z', '2026-06-15T09:08:09Z', now).replace(/\s/g, ' ');
    expect(text).not.toMatch(/2026/);
    expect(text.match(/Jun/g)).toHaveLength(1);
    expect(text).toMatch(/\d{1,2}:08:07.*\d{1,2}:08:09/);
  });

  it('says both days of a span over midnight, the year of another year, and the start alone while it runs', () => {
    const text = formatTimeSpan('2025-06-15T09:08:07Z', '2025-06-18T09:08:09Z', now);
    expect(text.match(/2025/g)?.length).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/15.*18/);
    expect(formatTimeSpan('2026-06-15T09:08:07Z', null, now)).toBe(formatTableDateTime('2026-06-15T09:08:07Z', now));
  });
});
