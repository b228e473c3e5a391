/**
 * FHIR instants (`YYYY-MM-DDThh:mm:ss[.fffffffff](Z|±hh:mm)`) as moments in time. Two instants are ordered
 * by the moment they name, never as text: `10:00:00+05:00` is before `06:00:00Z`, and `06:00:00.5Z` is after
 * `06:00:00Z` although '.' sorts before 'Z'. Fractions keep all nine digits FHIR allows (nanoseconds), so no
 * two distinct instants compare equal through rounding.
 *
 * Days are counted with the proleptic Gregorian calendar ("days from civil", H. Hinnant,
 * https://howardhinnant.github.io/date_algorithms.html), not Date.UTC, which maps years 0-99 to 1900-1999.
 */
import { daysFromCivil } from './civil-days.ts';

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

export interface Instant {
  /** Seconds since 1970-01-01T00:00:00Z (exact: at most about 3.2e11 for year 9999). */
  readonly seconds: number;
  /** Nanoseconds within the second, 0-999,999,999. */
  readonly nanos: number;
}

/** The moment a FHIR instant names, or undefined when the text is not one (shape only: validation checks ranges). */
export function parseInstant(text: string): Instant | undefined {
  const m = INSTANT.exec(text);
  if (m === null) return undefined;
  const [, year, month, day, hour, minute, second, fraction, sign, offsetHours, offsetMinutes] = m;
  const offset =
    sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 3600 + Number(offsetMinutes) * 60);
  const seconds =
    daysFromCivil(Number(year), Number(month), Number(day)) * 86400 +
    Number(hour) * 3600 +
    Number(minute) * 60 +
    Number(second) -
    offset;
  return { seconds, nanos: fraction === undefined ? 0 : Number(fraction.padEnd(9, '0')) };
}

/**
 * -1, 0 or 1 as instant a is before, at or after instant b. Text that is not an instant (never stored:
 * validation refuses it) sorts before any instant, and two such texts compare as text, so the order is total.
 */
export function compareInstants(a: string, b: string): -1 | 0 | 1 {
  const x = parseInstant(a);
  const y = parseInstant(b);
  if (x === undefined || y === undefined) {
    if (x !== undefined) return 1;
    if (y !== undefined) return -1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (x.seconds !== y.seconds) return x.seconds < y.seconds ? -1 : 1;
  if (x.nanos !== y.nanos) return x.nanos < y.nanos ? -1 : 1;
  return 0;
}
