/**
 * Birth-date normalisation. Deliberately clock-free so that the same record always yields the same fields; the
 * "not in the future" rule is a validation concern (engine/fhir/patient.ts), and the calendar rules are
 * engine/fhir/calendar-date.ts.
 */
import { MIN_BIRTH_YEAR, PLACEHOLDER_BIRTH_DATES, isCalendarDate } from '../fhir/calendar-date.ts';

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const PARTIAL_DATE = /^(\d{4})(?:-(\d{2}))?$/;

/**
 * `YYYY-MM-DD` when the FHIR date is a full, real calendar date from MIN_BIRTH_YEAR on and no placeholder
 * (PLACEHOLDER_BIRTH_DATES); otherwise null.
 * Partial FHIR dates (`YYYY`, `YYYY-MM`) are valid FHIR but too coarse to compare as dates, so they become null
 * (missing) rather than a guessed day; partialBirthDateOf keeps them apart, to tell two people apart.
 */
export function normaliseBirthDate(fhirDate: string | undefined): string | null {
  if (fhirDate === undefined) return null;
  const m = FULL_DATE.exec(fhirDate);
  if (m === null) return null;
  const year = Number(m[1]);
  if (year < MIN_BIRTH_YEAR || PLACEHOLDER_BIRTH_DATES.has(fhirDate)) return null;
  return isCalendarDate(year, Number(m[2]), Number(m[3])) ? fhirDate : null;
}

/**
 * The FHIR date itself when it is a partial date (`YYYY`, or `YYYY-MM` of a real month) from MIN_BIRTH_YEAR on;
 * otherwise null. Kept apart from the birth date (MatchFields.partialBirthDate): too coarse to join two records, but
 * a year that disagrees tells two people apart (comparators/partial-birth-date.ts).
 */
export function partialBirthDateOf(fhirDate: string | undefined): string | null {
  if (fhirDate === undefined) return null;
  const m = PARTIAL_DATE.exec(fhirDate);
  if (m === null || Number(m[1]) < MIN_BIRTH_YEAR) return null;
  if (m[2] !== undefined && (Number(m[2]) < 1 || Number(m[2]) > 12)) return null;
  return fhirDate;
}
