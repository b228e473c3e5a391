/**
 * Whether two birth dates are a generation apart: a parent's and a child's, not one person's written twice. At least
 * GENERATION_YEARS between the years, on days of the year that are not a keying error apart (not the same day, a day
 * apart, one digit wrong, or day and month swapped: birth-date-levels.ts). One person's two dates are almost never so:
 * a source that rewrites a year keeps the day (1943-11-14 and 1977-11-14), or slips a digit of it as well (1952-04-06
 * and 1929-04-08). The cost: 5.3% of all pairs of days of the year are a keying error apart, so about one father and
 * son in 19 are not told apart by their dates. Input: YYYYMMDD of real dates.
 */
import { birthDateLevel } from './birth-date-levels.ts';

/** The fewest years between a parent's and a child's birth dates. */
export const GENERATION_YEARS = 15;

/** Any year in which every day of the year is a date: 29 February too. */
const LEAP_YEAR = '2000';

export function bornAGenerationApart(a: string, b: string): boolean {
  if (Math.abs(Number(a.slice(0, 4)) - Number(b.slice(0, 4))) < GENERATION_YEARS) return false;
  const level = birthDateLevel(LEAP_YEAR + a.slice(4), LEAP_YEAR + b.slice(4));
  return level !== 'exact' && level !== 'day-month-transposed' && level !== 'one-day' && level !== 'one-digit';
}
