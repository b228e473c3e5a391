/**
 * Calendar helpers and birth-date normalisation.
 *
 * Normalisation is deliberately clock-free so that the same record always yields the same fields;
 * the "not in the future" rule is a validation concern (engine/fhir/patient.ts).
 */

/** Birth years before this are treated as data-entry errors (placeholder dates such as 1800-01-01). */
export const MIN_BIRTH_YEAR = 1850;

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

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

/**
 * `YYYY-MM-DD` when the FHIR date is a full, real calendar date from MIN_BIRTH_YEAR on; otherwise null.
 * Partial FHIR dates (`YYYY`, `YYYY-MM`) are valid FHIR but too coarse to compare, so they become null
 * (missing) rather than a guessed day.
 */
export function normaliseBirthDate(fhirDate: string | undefined): string | null {
  if (fhirDate === undefined) return null;
  const m = FULL_DATE.exec(fhirDate);
  if (m === null) return null;
  const year = Number(m[1]);
  if (year < MIN_BIRTH_YEAR) return null;
  return isCalendarDate(year, Number(m[2]), Number(m[3])) ? fhirDate : null;
}
