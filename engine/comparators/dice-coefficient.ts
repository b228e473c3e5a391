/**
 * Sørensen-Dice coefficient over character bigram multisets (Dice 1945, "Measures of the amount of
 * ecologic association between species", Ecology 26(3):297-302; Sørensen 1948), as used for string
 * similarity: 2·|common bigrams| / (|bigrams of a| + |bigrams of b|), where a bigram repeated n times
 * in one string can pair with at most n occurrences in the other.
 *
 * Bigrams are pairs of UTF-16 code units packed into one 32-bit number; both lists are sorted and
 * merged, which counts the multiset intersection without a hash map. Buffers are module-level and
 * only grow.
 */

const SMALL_SORT = 48;

let aBigrams = new Uint32Array(64);
let bBigrams = new Uint32Array(64);

function ensureCapacity(length: number): void {
  if (length <= aBigrams.length) return;
  let size = aBigrams.length;
  while (size < length) size *= 2;
  aBigrams = new Uint32Array(size);
  bBigrams = new Uint32Array(size);
}

function fillBigrams(text: string, into: Uint32Array): number {
  const count = text.length - 1;
  let previous = text.charCodeAt(0);
  for (let i = 0; i < count; i++) {
    const next = text.charCodeAt(i + 1);
    into[i] = ((previous << 16) | next) >>> 0;
    previous = next;
  }
  return count;
}

function sortPrefix(values: Uint32Array, count: number): void {
  if (count > SMALL_SORT) {
    // Rare for names; the view allocation is acceptable there.
    values.subarray(0, count).sort();
    return;
  }
  // Insertion sort beats the built-in sort on the handful of bigrams in a name and allocates nothing.
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
