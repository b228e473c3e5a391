/**
 * Codes (postal codes, identifier values): upper-case ASCII letters and digits only, so spacing,
 * dashes and dots typed by different sources do not matter. Non-ASCII input is NFKD-decomposed
 * first so that accented and full-width characters reduce to their ASCII base; other scripts drop out.
 */

const PRINTABLE_ASCII = /^[ -~]*$/;
const NOT_CODE = /[^A-Z0-9]+/g;

export function normaliseCode(s: string | undefined): string | null {
  if (s === undefined) return null;
  const ascii = PRINTABLE_ASCII.test(s) ? s : s.normalize('NFKD');
  const out = ascii.toUpperCase().replace(NOT_CODE, '');
  return out === '' ? null : out;
}
