/**
 * Unrestricted Damerau-Levenshtein distance: the Lowrance-Wagner algorithm (Lowrance & Wagner 1975,
 * "An extension of the string-to-string correction problem", JACM 22(2):177-183) with unit costs for
 * insertion, deletion, substitution and adjacent transposition. Unlike optimal string alignment, a
 * transposed pair may still be edited afterwards, so distance('CA', 'ABC') is 2, not 3.
 *
 * Works on UTF-16 code units. The full (|a|+2)x(|b|+2) table is needed because the transposition
 * step reads an arbitrary earlier row; it lives in a module-level buffer that only grows, and the
 * "last row where this character was seen" map is a direct table over all 2^16 code units that is
 * cleared entry by entry after each call, so a call allocates nothing.
 */

import { bagDistance } from './bag-distance.ts';

let table = new Int32Array(32 * 32);
const lastRowOf = new Int32Array(0x10000);

function ensureTable(size: number): Int32Array {
  if (size > table.length) {
    let capacity = table.length;
    while (capacity < size) capacity *= 2;
    table = new Int32Array(capacity);
  }
  return table;
}

/**
 * For strings of equal length differing in at most two positions the distance is known without the table:
 * one differing position is one substitution; two are one transposition when adjacent and swapped, else two
 * substitutions (no single edit can fix two positions of equal-length strings otherwise). Returns -1 when
 * the strings differ in more than two positions. This is the common case for typos in dates and numbers.
 */
function closeEqualLengthDistance(a: string, b: string): number {
  let first = -1;
  let second = -1;
  for (let i = 0; i < a.length; i++) {
    if (a.charCodeAt(i) !== b.charCodeAt(i)) {
      if (first === -1) first = i;
      else if (second === -1) second = i;
      else return -1;
    }
  }
  if (second === -1) return first === -1 ? 0 : 1;
  const swapped =
    second === first + 1 &&
    a.charCodeAt(first) === b.charCodeAt(second) &&
    a.charCodeAt(second) === b.charCodeAt(first);
  return swapped ? 1 : 2;
}

let bCodes = new Int32Array(64);

export function damerauLevenshteinDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === b.length) {
    const close = closeEqualLengthDistance(a, b);
    if (close !== -1) return close;
  }
  // A common prefix or suffix never takes part in an optimal edit (RapidFuzz strips it for true
  // Damerau-Levenshtein too); removing it shrinks the table, e.g. to the differing digits of two dates.
  let start = 0;
  const shorter = Math.min(a.length, b.length);
  while (start < shorter && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  if (start > 0 || endA < a.length) return tableDistance(a.slice(start, endA), b.slice(start, endB));
  return tableDistance(a, b);
}

function tableDistance(a: string, b: string): number {
  const aLength = a.length;
  const bLength = b.length;
  if (aLength === 0) return bLength;
  if (bLength === 0) return aLength;

  // Row r and column c of the table hold d[r-1][c-1]; row 0 and column 0 are the "-1" sentinels.
  const width = bLength + 2;
  const d = ensureTable((aLength + 2) * width);
  if (bCodes.length < bLength) bCodes = new Int32Array(bLength * 2);
  const codes = bCodes;
  for (let j = 0; j < bLength; j++) codes[j] = b.charCodeAt(j);
  const infinity = aLength + bLength;
  d[0] = infinity;
  for (let i = 0; i <= aLength; i++) {
    d[(i + 1) * width] = infinity;
    d[(i + 1) * width + 1] = i;
  }
  for (let j = 0; j <= bLength; j++) {
    d[j + 1] = infinity;
    d[width + j + 1] = j;
  }

  for (let i = 1; i <= aLength; i++) {
    const aCode = a.charCodeAt(i - 1);
    const row = (i + 1) * width;
    const previousRow = i * width;
    // Last column (1-based) in this row whose character equals a[i]; 0 means none yet.
    let lastMatchColumn = 0;
    let left = i; // d[i][j-1], starting at d[i][0]
    for (let j = 1; j <= bLength; j++) {
      const bCode = codes[j - 1] as number;
      const diagonal = d[previousRow + j] as number;
      let best: number;
      if (aCode === bCode) {
        // Neighbouring cells differ by at most 1 and a transposition through (k, l) costs at least
        // as much, so the free diagonal step is already the minimum.
        best = diagonal;
        lastMatchColumn = j;
      } else {
        best = diagonal + 1;
        if (left + 1 < best) best = left + 1;
        const up = (d[previousRow + j + 1] as number) + 1;
        if (up < best) best = up;
        const k = lastRowOf[bCode] as number;
        const l = lastMatchColumn;
        if (k !== 0 && l !== 0) {
          // d[k-1][l-1], then delete what lies between the transposed pair in a and insert in b.
          const transposition = (d[k * width + l] as number) + (i - k - 1) + 1 + (j - l - 1);
          if (transposition < best) best = transposition;
        }
      }
      d[row + j + 1] = best;
      left = best;
    }
    lastRowOf[aCode] = i;
  }

  const distance = d[(aLength + 1) * width + bLength + 1] as number;
  for (let i = 0; i < aLength; i++) lastRowOf[a.charCodeAt(i)] = 0;
  return distance;
}

/**
 * The distance when it is at most `max`, else max + 1: for callers that only tell a few small distances apart
 * (keying-error levels), most of whose pairs are far apart. Cheap bounds settle those without the table: the length
 * difference and the bag distance are lower bounds, and one edit changes at most two places of strings of one
 * length.
 */
export function damerauLevenshteinWithin(a: string, b: string, max: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length === b.length) {
    const close = closeEqualLengthDistance(a, b);
    if (close !== -1) return Math.min(close, max + 1);
    if (max < 2) return max + 1;
  }
  if (bagDistance(a, b) > max) return max + 1;
  return Math.min(damerauLevenshteinDistance(a, b), max + 1);
}

export function normalisedDamerauLevenshtein(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  return 1 - damerauLevenshteinDistance(a, b) / longest;
}
