/**
 * Sørensen-Dice coefficient over character bigram multisets (Dice 1945, "Measures of the amount of
 * ecologic association between species", Ecology 26(3):297-302; Sørensen 1948), as used for string
 * similarity: 2·|common bigrams| / (|bigrams of a| + |bigrams of b|), where a bigram repeated n times
 * in one string can pair with at most n occurrences in the other.
 *
 * Bigrams are pairs of UTF-16 code units packed into one signed 32-bit number; both lists are sorted and
 * merged, which counts the multiset intersection without a hash map (any order does, as long as both lists
 * are in the same one). Buffers are module-level and only grow.
 *
 * A value compared many times (a record's address line, against each of its candidates) can have its sorted
 * bigrams made once (sortedBigrams) and merged with diceOfSortedBigrams: the same coefficient. They are a
 * plain array of small integers, not a typed array: allocating a typed array cost about a microsecond, as
 * much as sorting a line's bigrams.
 */

const SMALL_SORT = 48;

let aBigrams = new Int32Array(64);
let bBigrams = new Int32Array(64);

function ensureCapacity(length: number): void {
  if (length <= aBigrams.length) return;
  let size = aBigrams.length;
  while (size < length) size *= 2;
  aBigrams = new Int32Array(size);
  bBigrams = new Int32Array(size);
}

function fillBigrams(text: string, into: Int32Array | number[]): number {
  const count = text.length - 1;
  let previous = text.charCodeAt(0);
  for (let i = 0; i < count; i++) {
    const next = text.charCodeAt(i + 1);
    into[i] = (previous << 16) | next;
    previous = next;
  }
  return count;
}

/** Sorts the first `count` values; insertion sort beats the built-in sort on the handful of bigrams in a name. */
function sortPrefix(values: Int32Array | number[], count: number): void {
  if (count > SMALL_SORT) {
    // Rare for names; the view allocation is acceptable there.
    if (values instanceof Int32Array) values.subarray(0, count).sort();
    else values.sort((x, y) => x - y);
    return;
  }
  for (let i = 1; i < count; i++) {
    const value = values[i] ?? 0;
    let j = i - 1;
    while (j >= 0 && (values[j] ?? 0) > value) {
      values[j + 1] = values[j] ?? 0;
      j--;
    }
    values[j + 1] = value;
  }
}

export function diceCoefficient(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  ensureCapacity(Math.max(a.length, b.length));
  const left = aBigrams;
  const right = bBigrams;
  const leftCount = fillBigrams(a, left);
  const rightCount = fillBigrams(b, right);
  sortPrefix(left, leftCount);
  sortPrefix(right, rightCount);
  return mergedDice(left, leftCount, right, rightCount);
}

/** A text's bigrams, sorted: what diceOfSortedBigrams takes (empty for a text shorter than two). */
export function sortedBigrams(text: string): readonly number[] {
  if (text.length < 2) return [];
  const bigrams = new Array<number>(text.length - 1);
  fillBigrams(text, bigrams);
  sortPrefix(bigrams, bigrams.length);
  return bigrams;
}

/** diceCoefficient of two different texts from their sortedBigrams (equal texts score 1: the caller checks). */
export function diceOfSortedBigrams(left: readonly number[], right: readonly number[]): number {
  if (left.length === 0 || right.length === 0) return 0;
  return mergedDice(left, left.length, right, right.length);
}

function mergedDice(left: ArrayLike<number>, leftCount: number, right: ArrayLike<number>, rightCount: number): number {
  let common = 0;
  let i = 0;
  let j = 0;
  while (i < leftCount && j < rightCount) {
    const x = left[i] ?? 0;
    const y = right[j] ?? 0;
    if (x === y) {
      common++;
      i++;
      j++;
    } else if (x < y) {
      i++;
    } else {
      j++;
    }
  }
  return (2 * common) / (leftCount + rightCount);
}
