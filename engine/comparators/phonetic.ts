/**
 * Phonetic comparator using Double Metaphone (Philips 2000, "The Double Metaphone Search Algorithm",
 * C/C++ Users Journal 18(6)), via the `double-metaphone` package. Two names agree when any of their
 * primary/secondary codes coincide; agreement scores the profile's PhoneticMatchFloor rather than 1
 * because sounding alike is weaker evidence than being spelt alike.
 */
import { doubleMetaphone } from 'double-metaphone';

const WHITESPACE = /\s+/g;

/**
 * Primary and secondary codes. Multi-word names are encoded as one word so that "mary ann" and
 * "maryann" (or a hyphen dropped by normalisation) encode the same.
 */
export function phoneticCodes(name: string): readonly [string, string] {
  const joined = name.replace(WHITESPACE, '');
  if (joined === '') return ['', ''];
  const [primary, secondary] = doubleMetaphone(joined);
  return [primary, secondary];
}

export function phoneticCodesAgree(a: readonly [string, string], b: readonly [string, string]): boolean {
  const [a1, a2] = a;
  const [b1, b2] = b;
  if (a1 !== '' && (a1 === b1 || a1 === b2)) return true;
  return a2 !== '' && (a2 === b1 || a2 === b2);
}

export function phoneticSimilarity(a: string, b: string, floor: number): number {
  if (a === b) return 1;
  return phoneticCodesAgree(phoneticCodes(a), phoneticCodes(b)) ? floor : 0;
}
