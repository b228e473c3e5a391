import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  birthDateLevel,
  birthDateSimilarity,
  DATE_LEVELS,
  DATE_LEVEL_SIMILARITY,
} from '../../../engine/comparators/birth-date-levels.ts';
import { daysFromCivil } from '../../../engine/fhir/civil-days.ts';
import { bandOf } from '../../../engine/contract/fields.ts';

describe('birth dates compared as dates', () => {
  it('names the level of each kind of date error', () => {
    expect(birthDateLevel('19800312', '19800312')).toBe('exact');
    // Day and month read the other way round (03/12 against 12/03).
    expect(birthDateLevel('19800312', '19801203')).toBe('day-month-transposed');
    // One keyed digit, in the year, the month or the day; two adjacent digits swapped.
    expect(birthDateLevel('19800312', '19810312')).toBe('one-digit');
    expect(birthDateLevel('19800312', '19800512')).toBe('one-digit');
    expect(birthDateLevel('19800312', '19800321')).toBe('one-digit');
    // A day apart in one year, however the digits fall (a date read back in another time zone, a birth near midnight).
    expect(birthDateLevel('19800312', '19800313')).toBe('one-day');
    expect(birthDateLevel('19800309', '19800310')).toBe('one-day');
    expect(birthDateLevel('19800229', '19800301')).toBe('one-day');
    expect(birthDateLevel('19810430', '19810501')).toBe('one-day');
    // Across a year's end it stays within a year: a 1 January may say the year only (first-of-january.ts).
    expect(birthDateLevel('19791231', '19800101')).toBe('within-year');
    // The right month of the right year, another day (two digits wrong).
    expect(birthDateLevel('19800312', '19800328')).toBe('same-year-month');
    // Near in time, across a year boundary: 28 Dec 1979 and 3 Jan 1980 share no digit pattern.
    expect(birthDateLevel('19791228', '19800103')).toBe('within-year');
    expect(birthDateLevel('19800312', '19810311')).toBe('within-year');
    // Twenty years apart; and one day more than a year apart.
    expect(birthDateLevel('19800312', '20000312')).toBe('different');
    expect(birthDateLevel('19800312', '19810314')).toBe('different');
  });

  it('puts each level in the band the model weighs it in', () => {
    expect(DATE_LEVELS.map((level) => bandOf(DATE_LEVEL_SIMILARITY[level]))).toEqual([
      'Exact',
      'Strong',
      'Strong',
      'Strong',
      'Partial',
      'Partial',
      'Different',
    ]);
    // Text edit distance gave unrelated dates 0.25–0.5; as dates they are Different.
    expect(birthDateSimilarity('19451107', '19820314')).toBe(0);
    expect(bandOf(birthDateSimilarity('19800312', '19801203'))).toBe('Strong');
  });

  it('calls any two dates a day apart in one year one-day, Strong', () => {
    const day = fc.date({
      min: new Date('1900-01-01T00:00:00Z'),
      max: new Date('2025-12-30T00:00:00Z'),
      noInvalidDate: true,
    });
    const digitsOf = (d: Date) => d.toISOString().slice(0, 10).replaceAll('-', '');
    fc.assert(
      fc.property(day, (d) => {
        const next = new Date(d.getTime() + 86_400_000);
        const level = birthDateLevel(digitsOf(d), digitsOf(next));
        expect(level).toBe(next.getUTCFullYear() === d.getUTCFullYear() ? 'one-day' : 'within-year');
        expect(bandOf(birthDateSimilarity(digitsOf(next), digitsOf(d)))).toBe(
          level === 'one-day' ? 'Strong' : 'Partial',
        );
      }),
    );
  });

  it('is symmetric for any two real dates', () => {
    const day = fc
      .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2025-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10).replaceAll('-', ''));
    fc.assert(
      fc.property(day, day, (a, b) => {
        expect(birthDateLevel(a, b)).toBe(birthDateLevel(b, a));
        expect(birthDateLevel(a, b) === 'exact').toBe(a === b);
      }),
    );
  });
});

describe('daysFromCivil (Hinnant, chrono-compatible date algorithms)', () => {
  it('agrees with the calendar on published and boundary dates', () => {
    expect(daysFromCivil(1970, 1, 1)).toBe(0);
    expect(daysFromCivil(2000, 3, 1)).toBe(11_017); // the example in Hinnant's paper
    const day = fc.date({
      min: new Date('1800-01-01T00:00:00Z'),
      max: new Date('2100-12-31T00:00:00Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(day, (d) => {
        expect(daysFromCivil(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate())).toBe(
          Math.floor(d.getTime() / 86_400_000),
        );
      }),
    );
  });
});
