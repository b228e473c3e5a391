/**
 * Birth dates compared as dates, in the comparison levels that fit how birth dates go wrong in registries
 * (the levels of Splink's `DateOfBirthComparison` and of the Febrl generator's date corruptions; Christen,
 * "Data Matching", Springer 2012, §5.4): a keyed digit wrong, two adjacent digits swapped, day and month read
 * in the other order (US versus European forms), a wrong day in the right month, an estimated date near the
 * true one. Text edit distance over YYYYMMDD treats these alike and gives unrelated dates 0.25–0.5.
 *
 *   exact                 the same date                                   1     Exact
 *   day-month-transposed  day and month swapped (day ≠ month)             0.95  Strong
 *   one-digit             one digit wrong or two adjacent digits swapped   0.9   Strong
 *   same-year-month       same year and month, another day                0.7   Partial
 *   within-year           at most 365 days apart                          0.55  Partial
 *   different             anything else                                   0     Different
 *
 * The similarity is chosen so that the level lands in the band the model estimates for it (band floors in
 * contract/fields.ts); the level's name travels in the field evidence. Input: the 8 digits YYYYMMDD of a
 * real calendar date (normalise/date.ts only keeps real dates).
 */
import { damerauLevenshteinDistance } from './damerau-levenshtein.ts';

export const DATE_LEVELS = ['exact', 'day-month-transposed', 'one-digit', 'same-year-month', 'within-year', 'different'] as const;
export type DateLevel = (typeof DATE_LEVELS)[number];

export const DATE_LEVEL_SIMILARITY: Readonly<Record<DateLevel, number>> = {
  exact: 1,
  'day-month-transposed': 0.95,
  'one-digit': 0.9,
  'same-year-month': 0.7,
  'within-year': 0.55,
  different: 0,
};

const DAY_MS = 86_400_000;

function dayNumber(digits: string): number {
  return Date.UTC(Number(digits.slice(0, 4)), Number(digits.slice(4, 6)) - 1, Number(digits.slice(6, 8))) / DAY_MS;
}

export function birthDateLevel(a: string, b: string): DateLevel {
  if (a === b) return 'exact';
  if (a.length !== 8 || b.length !== 8) return 'different';
  const sameYear = a.slice(0, 4) === b.slice(0, 4);
  if (sameYear && a.slice(4, 6) === b.slice(6, 8) && a.slice(6, 8) === b.slice(4, 6)) return 'day-month-transposed';
  if (damerauLevenshteinDistance(a, b) === 1) return 'one-digit';
  if (sameYear && a.slice(4, 6) === b.slice(4, 6)) return 'same-year-month';
  const days = Math.abs(dayNumber(a) - dayNumber(b));
  return days <= 365 ? 'within-year' : 'different';
}

/** The level's similarity (see the table above). */
export function birthDateSimilarity(a: string, b: string): number {
  return DATE_LEVEL_SIMILARITY[birthDateLevel(a, b)];
}
