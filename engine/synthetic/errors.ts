import type { Rng } from './prng.ts';

/**
 * The errors injected into every record of a person except the first, which is always clean.
 * Each is drawn independently with its own probability, among the records it can apply to:
 *
 * | kind                 | probability | applies to (non-first records where…)                       |
 * |----------------------|-------------|-------------------------------------------------------------|
 * | `nameTypo`           | 0.10        | always: one substitution, insertion or deletion in the family or first given name |
 * | `nameTransposition`  | 0.06        | always: two adjacent, different letters swapped in the family or first given name |
 * | `nickname`           | 0.08        | the first given name has an entry in the nickname map        |
 * | `marriedName`        | 0.08        | the person is a woman aged 18 or more                        |
 * | `maidenNameKept`     | 0.50        | of `marriedName`: the old family kept as a `maiden` HumanName |
 * | `diacriticsStripped` | 0.50        | a name has diacritics ('José Muñoz' → 'Jose Munoz')          |
 * | `nameCase`           | 0.05        | always: family upper case, or all names lower case          |
 * | `missingBirthDate`   | 0.05        | always                                                      |
 * | `dayMonthSwap`       | 0.04        | birth date kept, day ≤ 12 and day ≠ month                    |
 * | `birthDateDigit`     | 0.03        | birth date kept: one digit changed, still a real past date   |
 * | `missingAddress`     | 0.05        | always                                                      |
 * | `movedHouse`         | 0.08        | address kept: the person's later address (the same on all moved records) |
 * | `postcodeTypo`       | 0.04        | address kept: one digit of the zip code changed              |
 * | `missingPhone`       | 0.07        | the person has a phone                                      |
 * | `phoneFormat`        | 0.25        | phone kept: other punctuation or a +1 prefix, same digits    |
 * | `missingEmail`       | 0.08        | the person has an email address                             |
 *
 * Sex, the national health identifier and the record's own local identifier are never wrong.
 */
export const ERROR_RATES = {
  nameTypo: 0.1,
  nameTransposition: 0.06,
  nickname: 0.08,
  marriedName: 0.08,
  maidenNameKept: 0.5,
  diacriticsStripped: 0.5,
  nameCase: 0.05,
  missingBirthDate: 0.05,
  dayMonthSwap: 0.04,
  birthDateDigit: 0.03,
  missingAddress: 0.05,
  movedHouse: 0.08,
  postcodeTypo: 0.04,
  missingPhone: 0.07,
  phoneFormat: 0.25,
  missingEmail: 0.08,
} as const;

export type SyntheticErrorKind = keyof typeof ERROR_RATES;

const LOWER = 'abcdefghijklmnopqrstuvwxyz';

function randomLetter(rng: Rng, upper: boolean): string {
  const letter = LOWER.charAt(rng.int(LOWER.length));
  return upper ? letter.toUpperCase() : letter;
}

function isUpper(char: string): boolean {
  return char !== char.toLowerCase();
}

/** Typists rarely get the first letter wrong, so only one typo in ten lands there. */
function typoPosition(rng: Rng, length: number): number {
  if (length < 2 || rng.chance(0.1)) return 0;
  return 1 + rng.int(length - 1);
}

/** One substitution, insertion or deletion; always returns a different string. */
export function typo(rng: Rng, text: string): string {
  const kind = text.length < 3 ? rng.int(2) : rng.int(3);
  const at = typoPosition(rng, text.length);
  const original = text.charAt(at);
  if (kind === 0) {
    let letter = randomLetter(rng, isUpper(original));
    while (letter === original) letter = randomLetter(rng, isUpper(original));
    return text.slice(0, at) + letter + text.slice(at + 1);
  }
  if (kind === 1) {
    // Insert before `at`; at position 0 the new letter takes over the capital.
    const letter = randomLetter(rng, at === 0 && isUpper(original));
    const rest = at === 0 ? original.toLowerCase() + text.slice(1) : text.slice(at);
    return text.slice(0, at) + letter + rest;
  }
  const rest = text.slice(at + 1);
  return at === 0 ? rest.charAt(0).toUpperCase() + rest.slice(1) : text.slice(0, at) + rest;
}

/** Swaps two adjacent, different letters after the first; null when there are none. */
export function transpose(rng: Rng, text: string): string | null {
  const candidates: number[] = [];
  for (let i = 1; i + 1 < text.length; i++) {
    if (text.charAt(i) !== text.charAt(i + 1)) candidates.push(i);
  }
  if (candidates.length === 0) return null;
  const i = rng.pick(candidates);
  return text.slice(0, i) + text.charAt(i + 1) + text.charAt(i) + text.slice(i + 2);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for `YYYY-MM-DD` naming a real calendar day. */
export function isRealDate(text: string): boolean {
  const m = DATE.exec(text);
  if (m === null) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** `1980-03-07` → `1980-07-03`; null when the day cannot be a month or equals it. */
export function swapDayMonth(date: string): string | null {
  const [year, month, day] = date.split('-');
  if (year === undefined || month === undefined || day === undefined) return null;
  if (Number(day) > 12 || day === month) return null;
  return `${year}-${day}-${month}`;
}

/** Digit positions of `YYYY-MM-DD`, weighted towards the day, month and last year digit as clerks mistype them. */
const DATE_DIGIT_POSITIONS = [2, 3, 3, 5, 6, 6, 8, 9, 9] as const;

/** One digit changed so that the result is still a real date, not after `latest` (same format); null if none found. */
export function birthDateDigitError(rng: Rng, date: string, latest: string): string | null {
  for (let attempt = 0; attempt < 20; attempt++) {
    const at = rng.pick(DATE_DIGIT_POSITIONS);
    const digit = String(rng.int(10));
    if (digit === date.charAt(at)) continue;
    const changed = date.slice(0, at) + digit + date.slice(at + 1);
    if (isRealDate(changed) && changed <= latest) return changed;
  }
  return null;
}

/** One digit of a zip code replaced by another. */
export function postcodeTypo(rng: Rng, postalCode: string): string {
  const at = rng.int(postalCode.length);
  let digit = String(rng.int(10));
  while (digit === postalCode.charAt(at)) digit = String(rng.int(10));
  return postalCode.slice(0, at) + digit + postalCode.slice(at + 1);
}

/** The clean record's format for a 10-digit US number: `(415) 555-0123`. */
export function canonicalPhone(digits: string): string {
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

const PHONE_VARIANTS: readonly ((a: string, b: string, c: string) => string)[] = [
  (a, b, c) => `${a}-${b}-${c}`,
  (a, b, c) => `${a} ${b} ${c}`,
  (a, b, c) => `${a}.${b}.${c}`,
  (a, b, c) => `${a}${b}${c}`,
  (a, b, c) => `+1 ${a} ${b} ${c}`,
  (a, b, c) => `+1-${a}-${b}-${c}`,
  (a, b, c) => `+1${a}${b}${c}`,
  (a, b, c) => `1 (${a}) ${b}-${c}`,
];

/** The same digits written differently from `canonicalPhone` (separators, a +1 or 1 country prefix). */
export function phoneVariant(rng: Rng, digits: string): string {
  return rng.pick(PHONE_VARIANTS)(digits.slice(0, 3), digits.slice(3, 6), digits.slice(6));
}
