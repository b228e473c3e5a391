/**
 * Codes keyed by hand (postcodes, phone numbers, identifiers) compared in edit-distance levels, the
 * comparison levels Splink and Febrl use for such fields (Christen, "Data Matching", Springer 2012, §5.3):
 * the same code, one keying error (a wrong, missing or extra character, or two adjacent characters swapped:
 * Damerau-Levenshtein distance 1), two errors in a long code, or another code. A normalised edit similarity
 * would call two unrelated 4-digit postcodes that share two digits 0.5 ("partly the same"), which they are
 * not: one keyed code differs from another in the number of errors, not in a proportion of its length.
 *
 * Two single errors are told apart from the others because they are keying errors and never a neighbour's number:
 * numbers handed out in sequence (twins' national numbers, a family's consecutive record numbers) differ in their
 * last digits. A swap of two adjacent digits changes a number by a multiple of 9, never by 1 or 2; a digit replaced
 * three or more places from the end changes it by a multiple of 100. Same band as any single error;
 * household-evidence.ts lets a personal number so mistyped say who the person is, as an equal one does.
 *
 *   exact        the same code                                              1     Exact
 *   transposed   two adjacent characters swapped, nothing else              0.95  Strong
 *   substituted  one character replaced, three or more places from the end  0.95  Strong
 *   one-edit     distance 1 otherwise (a character added or dropped, or     0.9   Strong
 *                one replaced among the last two)
 *   two-edits    distance 2, the longer code at least 6 characters          0.6   Partial
 *   different    anything else                                              0     Different
 */
import { damerauLevenshteinWithin } from './damerau-levenshtein.ts';

export const EDIT_LEVELS = ['exact', 'transposed', 'substituted', 'one-edit', 'two-edits', 'different'] as const;
export type EditLevel = (typeof EDIT_LEVELS)[number];

/** The similarity of the two keying errors numbers handed out in sequence never show (transposed, substituted). */
export const KEYING_ERROR_SIMILARITY = 0.95;

export const EDIT_LEVEL_SIMILARITY: Readonly<Record<EditLevel, number>> = {
  exact: 1,
  transposed: KEYING_ERROR_SIMILARITY,
  substituted: KEYING_ERROR_SIMILARITY,
  'one-edit': 0.9,
  'two-edits': 0.6,
  different: 0,
};

/** Codes shorter than this have no two-edits level: two errors in a short code leave too little of it. */
export const TWO_EDITS_MIN_LENGTH = 6;

export function editLevel(a: string, b: string): EditLevel {
  if (a === b) return 'exact';
  const longest = Math.max(a.length, b.length);
  // Only distances 1 and 2 are told apart: most unequal codes are settled without the table (3 is "more than 2").
  const distance = damerauLevenshteinWithin(a, b, 2);
  // Which single error, told only once the distance is known to be one (most unequal codes are further apart).
  if (distance === 1)
    return isAdjacentTransposition(a, b) ? 'transposed' : isEarlySubstitution(a, b) ? 'substituted' : 'one-edit';
  if (distance === 2 && longest >= TWO_EDITS_MIN_LENGTH) return 'two-edits';
  return 'different';
}

/** Two different codes of one length that differ only by two adjacent (different) characters swapped. */
export function isAdjacentTransposition(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  if (i + 1 >= a.length || a[i] !== b[i + 1] || a[i + 1] !== b[i]) return false;
  return a.slice(i + 2) === b.slice(i + 2);
}

/** Two codes of one length that differ in one character only, three or more places from the end. */
export function isEarlySubstitution(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let differing = -1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (differing !== -1) return false;
    differing = i;
  }
  return differing !== -1 && differing <= a.length - 3;
}

export function editLevelSimilarity(a: string, b: string): number {
  return EDIT_LEVEL_SIMILARITY[editLevel(a, b)];
}
