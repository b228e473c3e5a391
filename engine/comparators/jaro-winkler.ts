/**
 * Jaro similarity (Jaro 1989, "Advances in record linkage methodology as applied to the 1985 census of
 * Tampa, Florida", JASA 84:414-420) and Winkler's prefix-boosted variant (Winkler 1990, "String
 * comparator metrics and enhanced decision rules in the Fellegi-Sunter model of record linkage",
 * Proc. Section on Survey Research Methods, ASA, 354-359): prefix scale 0.1, common prefix capped at
 * 4 characters, boost applied only when the Jaro similarity exceeds 0.7.
 *
 * Works on UTF-16 code units. This runs for every candidate pair, so the match flags live in
 * module-level buffers that only grow; a call allocates nothing.
 */

const PREFIX_SCALE = 0.1;
const MAX_PREFIX = 4;
const BOOST_THRESHOLD = 0.7;

let shortFlags = new Uint8Array(64);
let longFlags = new Uint8Array(64);

function ensureCapacity(length: number): void {
  if (length <= longFlags.length) return;
  let size = longFlags.length;
  while (size < length) size *= 2;
  shortFlags = new Uint8Array(size);
  longFlags = new Uint8Array(size);
}

export function jaro(a: string, b: string): number {
  if (a === b) return 1;
  const aLength = a.length;
  const bLength = b.length;
  if (aLength === 0 || bLength === 0) return 0;

  // The shorter string drives the greedy match (the first string on equal lengths), the convention
  // of common reference implementations, so scores agree with them exactly.
  const aIsShort = aLength <= bLength;
  const s = aIsShort ? a : b;
  const l = aIsShort ? b : a;
  const sLength = s.length;
  const lLength = l.length;
  ensureCapacity(lLength);
  const sFlags = shortFlags;
  const lFlags = longFlags;

  // Plain comparisons instead of Math.min/max and hand-written clearing loops: on names of a few
  // characters the call overhead of the built-ins is measurable.
  let window = (lLength >> 1) - 1;
  if (window < 0) window = 0;
  let matches = 0;
  for (let i = 0; i < sLength; i++) {
    const code = s.charCodeAt(i);
    const from = i > window ? i - window : 0;
    let to = i + window + 1;
    if (to > lLength) to = lLength;
    for (let j = from; j < to; j++) {
      if (lFlags[j] === 0 && l.charCodeAt(j) === code) {
        lFlags[j] = 1;
        sFlags[i] = 1;
        matches++;
        break;
      }
    }
  }

  if (matches === 0) {
    // Nothing was flagged, so the buffers are already clean.
    return 0;
  }

  let halfTranspositions = 0;
  let k = 0;
  for (let i = 0; i < sLength; i++) {
    if (sFlags[i] === 0) continue;
    sFlags[i] = 0;
    while (lFlags[k] === 0) k++;
    if (s.charCodeAt(i) !== l.charCodeAt(k)) halfTranspositions++;
    k++;
  }
  for (let j = 0; j < lLength; j++) lFlags[j] = 0;

  const transpositions = halfTranspositions >> 1;
  return (matches / aLength + matches / bLength + (matches - transpositions) / matches) / 3;
}

export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const similarity = jaro(a, b);
  if (similarity <= BOOST_THRESHOLD) return similarity;
  let limit = a.length < b.length ? a.length : b.length;
  if (limit > MAX_PREFIX) limit = MAX_PREFIX;
  let prefix = 0;
  while (prefix < limit && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return similarity + prefix * PREFIX_SCALE * (1 - similarity);
}
