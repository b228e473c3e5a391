/**
 * The calendar rules a FHIR date is checked against (validation, engine/fhir/patient.ts) and that birth-date
 * normalisation keeps (engine/normalise/date.ts): days that exist in the proleptic Gregorian calendar, and the
 * earliest birth year taken as real.
 */

/** Birth years before this are treated as data-entry errors (placeholder dates such as 1800-01-01). */
export const MIN_BIRTH_YEAR = 1850;

/**
 * Birth dates that systems write for "unknown" within the years taken as real: 1900-01-01 above all (the default of
 * many registration screens and interface engines). Nobody living was born on it, and a registry receives it for
 * every unidentified patient, so as evidence it would link them all: it is ignored for matching, like a date before
 * MIN_BIRTH_YEAR.
 */
export const PLACEHOLDER_BIRTH_DATES: ReadonlySet<string> = new Set(['1900-01-01']);

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** Days in a 1-based month; 0 for a month outside 1-12 so that every day check fails. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2 && isLeapYear(year)) return 29;
  return DAYS_IN_MONTH[month - 1] ?? 0;
}

/** True when year/month/day (1-based) names a day that exists in the proleptic Gregorian calendar. */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  return day >= 1 && day <= daysInMonth(year, month);
}
