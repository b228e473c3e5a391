/**
 * Phone numbers: digits only, then at most the last 10 digits (the national significant number in
 * most numbering plans), so '+61 (02) 9876-5432' and '(02) 9876 5432' agree. Deliberately simple:
 * no numbering-plan data, so a country code written without the trunk 0 ('+61 2 ...') will not line up
 * with the national form, and extensions are kept as digits. Fewer than 6 digits cannot identify a
 * line, so they count as missing.
 */

export const MAX_PHONE_DIGITS = 10;
export const MIN_PHONE_DIGITS = 6;

const PRINTABLE_ASCII = /^[ -~]*$/;
const NOT_DIGIT = /[^0-9]+/g;

export function normalisePhone(s: string | undefined): string | null {
  if (s === undefined) return null;
  // NFKD turns full-width and other compatibility digits into ASCII digits.
  const ascii = PRINTABLE_ASCII.test(s) ? s : s.normalize('NFKD');
  const digits = ascii.replace(NOT_DIGIT, '');
  if (digits.length < MIN_PHONE_DIGITS) return null;
  return digits.length > MAX_PHONE_DIGITS ? digits.slice(-MAX_PHONE_DIGITS) : digits;
}
