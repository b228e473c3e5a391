/**
 * Whether an arriving record that is Certain against two candidate identities fits two people the registry holds
 * apart, so that linking it to either would be a guess (the IdentitiesApart hold, ingestor.ts). Ingestion links a
 * record to its best Certain candidate and asks about the others in review cases; where two candidates tie, the best
 * is the older identity, whoever the record describes.
 *
 * Two cases, each evidence that the two identities are two people, not one person registered twice:
 * - **A generation apart, and the record has no birth date.** A father and son of one name at one home (a Junior and
 *   a Senior whose sources drop the suffix), or a mother and daughter: a record of that name and home without a birth
 *   date (a laboratory's, a referral's) is Certain against both, and was linked to whichever was registered first. The
 *   two identities' birth dates are a generation apart when every pair of them is at least GENERATION_YEARS apart and
 *   falls on days of the year that are not a keying error apart (not the same day, a day apart, one digit wrong, or
 *   day and month swapped). One person's dates are almost never so: the heavy-typo extracts' generator rewrites a
 *   year and keeps the day (1943-11-14 and 1977-11-14), or slips a digit of the day as well (1952-04-06 and
 *   1929-04-08); both stay one person's here. A record with a birth date is judged by it, as before.
 * - **A reviewer decided they are different people** (distinct_pair, while neither identity's records changed): a
 *   record that fits both at Certain then fits two people a person has already told apart.
 *
 * Measured (`npm run quality`, every set): before the generation test, the dates differing at all (the Different band)
 * held 25 records of the 20,000 of heavy-typos-many, all its own person's (auto-link F1 0.9667 → 0.9656); with it, no
 * record of any set is held and every set's figures are unchanged. The gain is where the sets have no such families:
 * test/engine/ingest/identities-apart.test.ts.
 */
import { birthDateLevel } from '../comparators/birth-date-levels.ts';

/** The fewest years between a parent's and a child's birth dates. */
export const GENERATION_YEARS = 15;

/** Any year in which every day of the year is a date: 29 February too. */
const LEAP_YEAR = '2000';

/** Whether two birth dates (YYYYMMDD) are a generation apart, on days of the year not a keying error apart. */
export function bornAGenerationApart(a: string, b: string): boolean {
  if (Math.abs(Number(a.slice(0, 4)) - Number(b.slice(0, 4))) < GENERATION_YEARS) return false;
  const level = birthDateLevel(LEAP_YEAR + a.slice(4), LEAP_YEAR + b.slice(4));
  return level !== 'exact' && level !== 'day-month-transposed' && level !== 'one-day' && level !== 'one-digit';
}

/**
 * Whether two identities' records were born a generation apart: at least one pair of their birth dates (YYYYMMDD;
 * null for a record without one, which says nothing) compared, and every such pair a generation apart.
 */
export function identitiesAGenerationApart(a: readonly (string | null)[], b: readonly (string | null)[]): boolean {
  let compared = 0;
  for (const x of a) {
    if (x === null) continue;
    for (const y of b) {
      if (y === null) continue;
      if (!bornAGenerationApart(x, y)) return false;
      compared++;
    }
  }
  return compared > 0;
}

/**
 * Whether the arriving record, Certain against both identities, fits two people the registry holds apart (see the
 * module comment). Birth dates as identitiesAGenerationApart takes them; decidedDistinct: whether a reviewer decided
 * the two are different people (read only when asked).
 */
export function fitsIdentitiesApart(
  arriving: string | null,
  a: readonly (string | null)[],
  b: readonly (string | null)[],
  decidedDistinct: () => boolean,
): boolean {
  if (arriving === null && identitiesAGenerationApart(a, b)) return true;
  return decidedDistinct();
}
