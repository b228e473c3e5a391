import { describe, expect, it } from 'vitest';
import { normaliseBirthDate, partialBirthDateOf } from '../../../engine/normalise/date.ts';
import { daysInMonth, isCalendarDate, isLeapYear } from '../../../engine/fhir/calendar-date.ts';

describe('normaliseBirthDate', () => {
  it.each(['1980-01-31', '2000-02-29', '1850-01-01', '2024-12-31'])('keeps the real date %s', (d) => {
    expect(normaliseBirthDate(d)).toBe(d);
  });

  it.each(['1980-02-30', '2001-13-01', '1900-02-29', '1980-04-31', '1980-00-01', '1980-01-00', '1849-12-31'])(
    'drops the impossible date %s',
    (d) => {
      expect(normaliseBirthDate(d)).toBeNull();
    },
  );

  it('makes the placeholder 1900-01-01 missing, and keeps the days around it', () => {
    expect(normaliseBirthDate('1900-01-01')).toBeNull();
    expect(['1900-01-02', '1899-12-31', '1901-01-01'].map(normaliseBirthDate)).toEqual([
      '1900-01-02',
      '1899-12-31',
      '1901-01-01',
    ]);
  });

  it.each(['1980', '1980-02'])('makes the partial date %s missing', (d) => {
    expect(normaliseBirthDate(d)).toBeNull();
  });

  it.each([undefined, '', '1980-1-1', '1980-01-01T00:00:00Z', ' 1980-01-01'])('null for %j', (d) => {
    expect(normaliseBirthDate(d)).toBeNull();
  });
});

describe('partialBirthDateOf', () => {
  it('keeps a year, or a year and a real month, from 1850 on', () => {
    expect(['1980', '1980-02', '1850', '2024-12'].map(partialBirthDateOf)).toEqual([
      '1980',
      '1980-02',
      '1850',
      '2024-12',
    ]);
  });

  it('gives null for a full date, an impossible month, an early year or no date', () => {
    for (const d of ['1980-02-03', '1980-13', '1980-00', '1849', '198', '1980-2', undefined, ''])
      expect(partialBirthDateOf(d), String(d)).toBeNull();
  });
});

describe('calendar helpers', () => {
  it('knows leap years', () => {
    expect([1900, 2000, 2004, 2023, 2100].map(isLeapYear)).toEqual([false, true, true, false, false]);
  });

  it('knows month lengths', () => {
    expect(daysInMonth(2000, 2)).toBe(29);
    expect(daysInMonth(1900, 2)).toBe(28);
    expect(daysInMonth(2021, 4)).toBe(30);
    expect(daysInMonth(2021, 12)).toBe(31);
    expect(daysInMonth(2021, 13)).toBe(0);
    expect(isCalendarDate(2021, 0, 1)).toBe(false);
  });
});
