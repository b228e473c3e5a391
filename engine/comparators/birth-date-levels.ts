/**
 * Birth dates compared as dates, in the comparison levels that fit how birth dates go wrong in registries
 * (the levels of Splink's `DateOfBirthComparison` and of the Febrl generator's date corruptions; Christen,
 * "Data Matching", Springer 2012, §5.4): a keyed digit wrong, two adjacent digits swapped, day and month read
 * in the other order (US versus European forms), a wrong day in the right month, an estimated date near the
 * true one. Text edit distance over YYYYMMDD treats these alike and gives unrelated dates 0.25–0.5.
 *
 * A date a day off is one error however its digits fall: a date stored as midnight and read back in another time zone
 * (an interface's commonest date bug, which shifts every date of one source), or a birth near midnight registered
 * on either side of it. 3 and 4 March were one keyed digit apart (Strong) but 9 and 10 March, 28 February and 1 March,
 * 30 April and 1 May were Partial: a shifted source's pair was held for review at one home and left below Probable
 * (0.005) elsewhere, by where the day fell. Every such pair is now `one-day`, 3 and 4 March too, so the twin hold can
 * tell twins born either side of midnight (scoring/possible-twin.ts). Across a year's end (31 December and 1 January)
 * stays within a year: a 1 January is where a date of unknown day is written (first-of-january.ts), so the year may be
 * all it says.
 *
 *   exact                 the same date                                   1     Exact
 *   day-month-transposed  day and month swapped (day ≠ month)             0.95  Strong
 *   one-day               the next or the day before, in the same year     0.9   Strong
 *   one-digit             another digit wrong or two adjacent swapped      0.9   Strong
 *   same-year-month       same year and month, another day                0.7   Partial
 *   within-year           at most 365 days apart                          0.55  Partial
 *   different             anything else                                   0     Different
 *
 * The similarity is chosen so that the level lands in the band the model estimates for it (band floors in
 * contract/fields.ts); the level's name travels in the field evidence. Input: the 8 digits YYYYMMDD of a
 * real calendar date (normalise/date.ts keeps only real dates: fhir/calendar-date.ts).
 */
import { daysFromCivil } from '../fhir/civil-days.ts';
import { damerauLevenshteinWithin } from './damerau-levenshtein.ts';

export const DATE_LEVELS = [
  'exact',
  'day-month-transposed',
  'one-day',
  'one-digit',
  'same-year-month',
  'within-year',
  'different',
] as const;
export type DateLevel = (typeof DATE_LEVELS)[number];

export const DATE_LEVEL_SIMILARITY: Readonly<Record<DateLevel, number>> = {
  exact: 1,
  'day-month-transposed': 0.95,
  'one-day': 0.9,
  'one-digit': 0.9,
  'same-year-month': 0.7,
  'within-year': 0.55,
  different: 0,
};

/** The number in characters [from, to) of a digit string (no substring is allocated: this runs per pair). */
function digits(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + (s.charCodeAt(i) - 48);
  return n;
}

function sameChars(a: string, b: string, from: number, to: number, bFrom = from): boolean {
  for (let i = 0; i < to - from; i++) if (a.charCodeAt(from + i) !== b.charCodeAt(bFrom + i)) return false;
  return true;
}

export function birthDateLevel(a: string, b: string): DateLevel {
  if (a === b) return 'exact';
  if (a.length !== 8 || b.length !== 8) return 'different';
  const sameYear = sameChars(a, b, 0, 4);
  if (sameYear && sameChars(a, b, 4, 6, 6) && sameChars(a, b, 6, 8, 4)) return 'day-month-transposed';
  const yearA = digits(a, 0, 4);
  const yearB = digits(b, 0, 4);
  // Most pairs of different people are years apart: no day arithmetic for them.
  const days =
    Math.abs(yearA - yearB) > 1
      ? Infinity
      : Math.abs(
          daysFromCivil(yearA, digits(a, 4, 6), digits(a, 6, 8)) -
            daysFromCivil(yearB, digits(b, 4, 6), digits(b, 6, 8)),
        );
  if (days === 1 && sameYear) return 'one-day';
  if (damerauLevenshteinWithin(a, b, 1) === 1) return 'one-digit';
  if (sameYear && sameChars(a, b, 4, 6)) return 'same-year-month';
  return days <= 365 ? 'within-year' : 'different';
}

/** The level's similarity (see the table above). */
export function birthDateSimilarity(a: string, b: string): number {
  return DATE_LEVEL_SIMILARITY[birthDateLevel(a, b)];
}
