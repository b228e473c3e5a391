/**
 * 1 January is where a birth date of unknown day and month is written: by registration screens given a year or an
 * age, and for whole populations (refugees and migrants registered from documents that give a year: the UNHCR and
 * many national registries enter 1 January). Among such people two records of one 1 January are two people of one
 * year of birth as often as one person, and two records of 1 January in years a digit apart (1987 and 1988) are two
 * people of adjacent years far more often than one person's typo. Compared as a date, the first counted +10 for a
 * match and the second +3.9: of 600 different people of a few common names, 60% of them registered on 1 January, the
 * default profile linked 77 to one another (test/main/cli/community.test.ts); none now.
 *
 * So two birth dates that are both a 1 January say the year only:
 *   the same year    not compared (neutral, as a missing date)  level first-of-january-same-year
 *   other years      Different                                  level first-of-january-other-year
 * A person born on 1 January loses the birth date's weight: an address, phone or number still links such a pair,
 * names alone go to review (scorer.ts namesOnly), and twins born on 1 January score below Probable (two identities,
 * no case asking about them: the one a synthetic sandbox's reconciliation opened, test/e2e/reviews.test.ts).
 *
 * One 1 January beside another date is compared as dates (birth-date-levels.ts): another day of the same year is
 * then within a year (Partial) or a keying error apart (1988-01-11, Strong). Within a year tells two people of one
 * household apart and holds one person's pair for review (scorer.ts birthDateConflict); read as missing, it let a
 * household's address and phone link two children of one year. Nor is a newborn's record (a placeholder given name,
 * "Baby Boy") read so: a ward registers the day it saw (scoring/field-comparison.ts). Input: the 8 digits YYYYMMDD.
 */
import { birthDateLevel, DATE_LEVEL_SIMILARITY, type DateLevel } from './birth-date-levels.ts';

export const FIRST_OF_JANUARY_SAME_YEAR = 'first-of-january-same-year';
export const FIRST_OF_JANUARY_OTHER_YEAR = 'first-of-january-other-year';
export type FirstOfJanuaryLevel = typeof FIRST_OF_JANUARY_SAME_YEAR | typeof FIRST_OF_JANUARY_OTHER_YEAR;
export type BirthDatePairLevel = DateLevel | FirstOfJanuaryLevel;

/** Each level's similarity: the same year is not compared (NaN: missing), other years are Different. */
export const BIRTH_DATE_PAIR_SIMILARITY: Readonly<Record<BirthDatePairLevel, number>> = {
  ...DATE_LEVEL_SIMILARITY,
  [FIRST_OF_JANUARY_SAME_YEAR]: Number.NaN,
  [FIRST_OF_JANUARY_OTHER_YEAR]: 0,
};

export function isFirstOfJanuary(digits: string): boolean {
  return digits.length === 8 && digits.endsWith('0101');
}

/** The first four digits equal (no substring is allocated: this runs per pair). */
function sameYear(a: string, b: string): boolean {
  for (let i = 0; i < 4; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}

/**
 * The pair's level when both dates are a 1 January (a level of this file); undefined when they are compared as dates.
 */
export function firstOfJanuaryLevel(a: string, b: string): FirstOfJanuaryLevel | undefined {
  if (!isFirstOfJanuary(a) || !isFirstOfJanuary(b)) return undefined;
  return sameYear(a, b) ? FIRST_OF_JANUARY_SAME_YEAR : FIRST_OF_JANUARY_OTHER_YEAR;
}

function adultLevel(a: string, b: string): BirthDatePairLevel {
  return firstOfJanuaryLevel(a, b) ?? birthDateLevel(a, b);
}

/**
 * How two birth dates are compared, the one place the scorer (scoring/field-comparison.ts) and the link-quality scan
 * (ingest/identity-judgement.ts) read it from: the year only when both are a 1 January, but as dates when either
 * record is a newborn's. One of two functions, so the pair loop allocates none.
 */
export function birthDateLevelOf(newborn: boolean): (a: string, b: string) => BirthDatePairLevel {
  return newborn ? birthDateLevel : adultLevel;
}
