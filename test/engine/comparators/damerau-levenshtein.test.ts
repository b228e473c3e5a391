import { describe, it, expect } from 'vitest';
import {
  damerauLevenshteinDistance,
  damerauLevenshteinWithin,
  normalisedDamerauLevenshtein,
} from '../../../engine/comparators/damerau-levenshtein.ts';
import { bagDistance } from '../../../engine/comparators/bag-distance.ts';
import { createRng } from '../../../engine/synthetic/prng.ts';

describe('damerauLevenshteinDistance: published reference values', () => {
  // Wikipedia, "Damerau–Levenshtein distance": CA -> ABC is 2 with the unrestricted distance
  // (CA -> AC -> ABC) but 3 with optimal string alignment, which may not edit a transposed pair again.
  it('separates the true distance from optimal string alignment', () => {
    expect(damerauLevenshteinDistance('CA', 'ABC')).toBe(2);
    expect(damerauLevenshteinDistance('ABC', 'CA')).toBe(2);
  });

  // Wikipedia, "Levenshtein distance": kitten/sitting 3, saturday/sunday 3 (no transpositions involved,
  // so the Damerau-Levenshtein distance equals the Levenshtein distance).
  it('matches the classic Levenshtein examples', () => {
    expect(damerauLevenshteinDistance('kitten', 'sitting')).toBe(3);
    expect(damerauLevenshteinDistance('sitting', 'kitten')).toBe(3);
    expect(damerauLevenshteinDistance('saturday', 'sunday')).toBe(3);
    expect(damerauLevenshteinDistance('sunday', 'saturday')).toBe(3);
  });

  // Damerau (1964), "A technique for computer detection and correction of spelling errors", CACM 7(3):
  // a transposition of two adjacent characters is a single error.
  it('counts an adjacent transposition as one edit', () => {
    expect(damerauLevenshteinDistance('ab', 'ba')).toBe(1);
    expect(damerauLevenshteinDistance('martha', 'marhta')).toBe(1);
    expect(damerauLevenshteinDistance('abcdef', 'badcfe')).toBe(3);
  });

  it('handles empty and equal strings', () => {
    expect(damerauLevenshteinDistance('', '')).toBe(0);
    expect(damerauLevenshteinDistance('', 'abc')).toBe(3);
    expect(damerauLevenshteinDistance('abc', '')).toBe(3);
    expect(damerauLevenshteinDistance('smith', 'smith')).toBe(0);
  });

  it('works on UTF-16 code units, including the top of the range', () => {
    expect(damerauLevenshteinDistance('zoë', 'zoe')).toBe(1);
    expect(damerauLevenshteinDistance('\uffffa', 'a\uffff')).toBe(1);
    // A surrogate pair is two code units.
    expect(damerauLevenshteinDistance('a😀', 'a')).toBe(2);
  });

  it('grows its buffers for long strings', () => {
    expect(damerauLevenshteinDistance('a'.repeat(200), 'b'.repeat(200))).toBe(200);
    expect(damerauLevenshteinDistance('ab'.repeat(100), 'ba'.repeat(100))).toBe(2);
    expect(damerauLevenshteinDistance('CA', 'ABC')).toBe(2);
  });
});

describe('normalisedDamerauLevenshtein', () => {
  it('is 1 - d / max length, and 1 for two empty strings', () => {
    expect(normalisedDamerauLevenshtein('', '')).toBe(1);
    expect(normalisedDamerauLevenshtein('abc', 'abc')).toBe(1);
    expect(normalisedDamerauLevenshtein('', 'abc')).toBe(0);
    expect(normalisedDamerauLevenshtein('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7, 12);
    expect(normalisedDamerauLevenshtein('CA', 'ABC')).toBeCloseTo(1 - 2 / 3, 12);
    expect(normalisedDamerauLevenshtein('ab', 'ba')).toBe(0.5);
  });
});

/**
 * The definition itself: the fewest insertions, deletions, substitutions and adjacent transpositions
 * turning one string into another, found by breadth-first search over single edits. Intermediate
 * strings never need letters outside the alphabet, and for targets of length <= 4 at distance <= 4
 * never need to exceed length (4 + |a| + |b|) / 2 <= 6.
 */
function allDistancesFrom(source: string, alphabet: string, maxLength: number): Map<string, number> {
  const distance = new Map<string, number>([[source, 0]]);
  let frontier = [source];
  for (let depth = 1; frontier.length > 0; depth++) {
    const next: string[] = [];
    const visit = (candidate: string): void => {
      if (candidate.length <= maxLength && !distance.has(candidate)) {
        distance.set(candidate, depth);
        next.push(candidate);
      }
    };
    for (const s of frontier) {
      for (let i = 0; i <= s.length; i++) {
        for (const letter of alphabet) visit(s.slice(0, i) + letter + s.slice(i));
        if (i < s.length) {
          visit(s.slice(0, i) + s.slice(i + 1));
          for (const letter of alphabet) visit(s.slice(0, i) + letter + s.slice(i + 1));
        }
        if (i + 1 < s.length) visit(s.slice(0, i) + s.charAt(i + 1) + s.charAt(i) + s.slice(i + 2));
      }
    }
    frontier = next;
  }
  return distance;
}

function allStrings(alphabet: string, maxLength: number): string[] {
  const out = [''];
  let layer = [''];
  for (let length = 1; length <= maxLength; length++) {
    layer = layer.flatMap((prefix) => Array.from({ length: alphabet.length }, (_, i) => prefix + alphabet.charAt(i)));
    out.push(...layer);
  }
  return out;
}

describe('damerauLevenshteinDistance against the breadth-first definition', () => {
  it('agrees for every pair of strings of length <= 4 over {a, b, c}', () => {
    const alphabet = 'abc';
    const strings = allStrings(alphabet, 4);
    expect(strings).toHaveLength(121);
    let mismatches = 0;
    for (const a of strings) {
      const reference = allDistancesFrom(a, alphabet, 6);
      for (const b of strings) {
        if (damerauLevenshteinDistance(a, b) !== reference.get(b)) mismatches++;
      }
    }
    expect(mismatches).toBe(0);
  });
});

/** The bag distance by its definition: the larger of the two multiset differences. */
function referenceBagDistance(a: string, b: string): number {
  const counts = new Map<string, number>();
  for (const c of a) counts.set(c, (counts.get(c) ?? 0) + 1);
  for (const c of b) counts.set(c, (counts.get(c) ?? 0) - 1);
  let surplus = 0;
  let deficit = 0;
  for (const count of counts.values()) {
    if (count > 0) surplus += count;
    else deficit -= count;
  }
  return Math.max(surplus, deficit);
}

describe('damerauLevenshteinWithin: the distance up to a bound, settled by cheap bounds where they can', () => {
  it('is the breadth-first distance capped at max + 1, for every pair of length <= 4 over {a, b, c}, max 0 to 3', () => {
    const alphabet = 'abc';
    const strings = allStrings(alphabet, 4);
    let mismatches = 0;
    let bagAboveDistance = 0;
    let bagMismatches = 0;
    for (const a of strings) {
      const reference = allDistancesFrom(a, alphabet, 6);
      for (const b of strings) {
        const distance = reference.get(b) ?? Number.NaN;
        for (let max = 0; max <= 3; max++)
          if (damerauLevenshteinWithin(a, b, max) !== Math.min(distance, max + 1)) mismatches++;
        if (bagDistance(a, b) > distance) bagAboveDistance++;
        if (bagDistance(a, b) !== referenceBagDistance(a, b)) bagMismatches++;
      }
    }
    expect(mismatches).toBe(0);
    expect(bagAboveDistance).toBe(0);
    expect(bagMismatches).toBe(0);
  });

  it('agrees with the full distance on keyed codes: digit strings with a few errors or none in common', () => {
    const rng = createRng(11);
    const digits = (length: number): string => Array.from({ length }, () => String(rng.int(10))).join('');
    const edit = (code: string): string => {
      const at = rng.int(code.length);
      switch (rng.int(4)) {
        case 0:
          return code.slice(0, at) + String(rng.int(10)) + code.slice(at + 1);
        case 1:
          return code.slice(0, at) + code.slice(at + 1);
        case 2:
          return code.slice(0, at) + String(rng.int(10)) + code.slice(at);
        default:
          return code.slice(0, at) + code.charAt(at + 1) + code.charAt(at) + code.slice(at + 2);
      }
    };
    let settledCheaply = 0;
    const seen = [0, 0, 0, 0];
    for (let i = 0; i < 20_000; i++) {
      const a = digits(4 + rng.int(8));
      let b = rng.chance(0.5) ? digits(4 + rng.int(8)) : a;
      for (let e = rng.int(4); e > 0; e--) b = edit(b);
      const distance = damerauLevenshteinDistance(a, b);
      const band = Math.min(distance, 3);
      seen[band] = (seen[band] ?? 0) + 1;
      for (const max of [1, 2]) expect(damerauLevenshteinWithin(a, b, max)).toBe(Math.min(distance, max + 1));
      if (bagDistance(a, b) > 2) settledCheaply++;
      expect(bagDistance(a, b)).toBe(referenceBagDistance(a, b));
    }
    // Every distance class is exercised, and most unrelated codes never reach the table.
    expect(Math.min(...seen)).toBeGreaterThan(1_000);
    expect(settledCheaply).toBeGreaterThan(2_000);
  });

  it('works on UTF-16 code units, including the top of the range, and leaves no count behind', () => {
    expect(bagDistance('\uffffa', 'a\uffff')).toBe(0);
    expect(damerauLevenshteinWithin('\uffffa', 'a\uffff', 1)).toBe(1);
    expect(bagDistance('a😀', 'a')).toBe(2);
    expect(damerauLevenshteinWithin('a😀', 'a', 1)).toBe(2);
    // Called again on unrelated strings: nothing of the previous call's counts remains.
    expect(bagDistance('xyz', 'xyz')).toBe(0);
    expect(bagDistance('', '\uffff\uffff')).toBe(2);
  });
});
