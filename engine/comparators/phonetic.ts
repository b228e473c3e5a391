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
/**
 * Names repeat heavily (common surnames and given names), and ingestion encodes each name twice (blocking and
 * comparison), so codes are memoised. The memo is bounded: when full it starts again.
 */
const MEMO_LIMIT = 100_000;
const memo = new Map<string, readonly [string, string]>();

export function phoneticCodes(name: string): readonly [string, string] {
  const known = memo.get(name);
  if (known !== undefined) return known;
  const joined = name.replace(WHITESPACE, '');
  let codes: readonly [string, string] = ['', ''];
  if (joined !== '') {
    const [primary, secondary] = doubleMetaphone(joined);
    codes = [primary, secondary];
  }
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(name, codes);
  return codes;
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
