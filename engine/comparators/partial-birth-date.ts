/**
 * A partial birth date (FHIR `YYYY` or `YYYY-MM`: a source that knows the year, or the year and month, only) beside
 * another birth date, full or partial. Such a date was read as missing, so a father whose record gives his year of
 * birth only (1962) and his son of one name born 1992-03-04 were linked at their one home by name, address and phone,
 * the years that name two people unread.
 *
 * The two are compared at the coarser precision, as two 1 January dates are compared by year (first-of-january.ts):
 *   the same year (or year and month)   not compared (neutral, as a missing date)  level partial-date-agrees
 *   another                             Different                                  level partial-date-differs
 * A year says too little to join two records (a household's children, a town's namesakes share one), so agreeing
 * adds nothing and names alone still go to review (scorer.ts namesOnly); a year that differs is a keying error far
 * less often than another person. Input: the digits of each date (YYYYMMDD for a full date, YYYY or YYYYMM for a
 * partial one).
 */

export const PARTIAL_DATE_AGREES = 'partial-date-agrees';
export const PARTIAL_DATE_DIFFERS = 'partial-date-differs';

/** The level of two dates' digits of which at least one is partial (shorter than YYYYMMDD). */
export function partialDateLevel(a: string, b: string): typeof PARTIAL_DATE_AGREES | typeof PARTIAL_DATE_DIFFERS {
  const length = Math.min(a.length, b.length);
  return a.slice(0, length) === b.slice(0, length) ? PARTIAL_DATE_AGREES : PARTIAL_DATE_DIFFERS;
}
