/**
 * Birth-date normalisation. Deliberately clock-free so that the same record always yields the same fields; the
 * "not in the future" rule is a validation concern (engine/fhir/patient.ts), and the calendar rules are
 * engine/fhir/calendar-date.ts.
 */
import { MIN_BIRTH_YEAR, PLACEHOLDER_BIRTH_DATES, isCalendarDate } from '../fhir/calendar-date.ts';

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * `YYYY-MM-DD` when the FHIR date is a full, real calendar date from MIN_BIRTH_YEAR on and no placeholder
 * (PLACEHOLDER_BIRTH_DATES); otherwise null.
 * Partial FHIR dates (`YYYY`, `YYYY-MM`) are valid FHIR but too coarse to compare, so they become null
 * (missing) rather than a guessed day.
 */
export function normaliseBirthDate(fhirDate: string | undefined): string | null {
  if (fhirDate === undefined) return null;
  const m = FULL_DATE.exec(fhirDate);
  if (m === null) return null;
  const year = Number(m[1]);
  if (year < MIN_BIRTH_YEAR || PLACEHOLDER_BIRTH_DATES.has(fhirDate)) return null;
  return isCalendarDate(year, Number(m[2]), Number(m[3])) ? fhirDate : null;
}
