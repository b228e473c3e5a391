/**
 * The bag distance (Bartolini, Ciaccia & Patella 2002): the larger of the two multiset differences of the strings'
 * code units. A lower bound of the Damerau-Levenshtein distance: an insertion, deletion or substitution changes
 * either difference by at most one, and a transposition changes neither. Linear, with a table over all code units
 * cleared entry by entry after each call (as damerau-levenshtein.ts clears its own), so a call allocates nothing.
 */
const bagCounts = new Int32Array(0x10000);

export function bagDistance(a: string, b: string): number {
  for (let i = 0; i < a.length; i++) bagCounts[a.charCodeAt(i)] = (bagCounts[a.charCodeAt(i)] as number) + 1;
  for (let j = 0; j < b.length; j++) bagCounts[b.charCodeAt(j)] = (bagCounts[b.charCodeAt(j)] as number) - 1;
  let surplus = 0;
  let deficit = 0;
  for (let i = 0; i < a.length; i++) {
    const code = a.charCodeAt(i);
    const count = bagCounts[code] as number;
    if (count > 0) surplus += count;
    else deficit -= count;
    bagCounts[code] = 0;
  }
  // What is left is b's code units that a does not hold.
  for (let j = 0; j < b.length; j++) {
    const code = b.charCodeAt(j);
    deficit -= bagCounts[code] as number;
    bagCounts[code] = 0;
  }
  return Math.max(surplus, deficit);
}
