import { createRequire } from 'node:module';
import { describe, it, expect } from 'vitest';
import { jaro, jaroWinkler } from '../../../engine/comparators/jaro-winkler.ts';

// talisman is CommonJS without type declarations; its module export is the similarity function itself.
const requireCjs = createRequire(import.meta.url);
const jaroWinklerRef = requireCjs('talisman/metrics/jaro-winkler.js') as (a: string, b: string) => number;
const jaroRef = requireCjs('talisman/metrics/jaro.js') as (a: string, b: string) => number;

/** Compare to the 3 decimals the published tables give. */
function expect3(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(0.0005);
}

describe('jaro and jaroWinkler: published reference values', () => {
  // Wikipedia, "Jaro–Winkler distance" (worked examples): MARTHA/MARHTA, DWAYNE/DUANE, DIXON/DICKSONX.
  it.each([
    ['MARTHA', 'MARHTA', 0.944, 0.961],
    ['DWAYNE', 'DUANE', 0.822, 0.84],
    ['DIXON', 'DICKSONX', 0.767, 0.813],
  ])('%s / %s (Wikipedia)', (a, b, expectedJaro, expectedJw) => {
    expect3(jaro(a, b), expectedJaro);
    expect3(jaroWinkler(a, b), expectedJw);
  });

  // Winkler's comparison table of string comparators (columns Jaro, Winkler, McLaughlin, Lynch), in
  // Porter & Winkler (1997) "Approximate string comparison and its effect on an advanced record
  // linkage system" and Winkler (2006) "Overview of record linkage and current research directions",
  // U.S. Census Bureau RR2006/02. Columns used here: Jaro, then Winkler (Jaro-Winkler). Pairs whose
  // first letters differ (DUNNINGHAM/CUNNIGHAM, HARDIN/MARTINEZ, ITMAN/SMITH, JERALDINE/GERALDINE)
  // get no prefix boost, so both columns agree; ITMAN/SMITH also stays below the 0.7 boost threshold.
  it.each([
    ['SHACKLEFORD', 'SHACKELFORD', 0.97, 0.982],
    ['DUNNINGHAM', 'CUNNIGHAM', 0.896, 0.896],
    ['NICHLESON', 'NICHULSON', 0.926, 0.956],
    ['JONES', 'JOHNSON', 0.79, 0.832],
    ['MASSEY', 'MASSIE', 0.889, 0.933],
    ['ABROMS', 'ABRAMS', 0.889, 0.922],
    ['HARDIN', 'MARTINEZ', 0.722, 0.722],
    ['ITMAN', 'SMITH', 0.467, 0.467],
    ['JERALDINE', 'GERALDINE', 0.926, 0.926],
    ['MARHTA', 'MARTHA', 0.944, 0.961],
    ['MICHELLE', 'MICHAEL', 0.869, 0.921],
    ['JULIES', 'JULIUS', 0.889, 0.933],
    ['TANYA', 'TONYA', 0.867, 0.88],
    ['DWAYNE', 'DUANE', 0.822, 0.84],
    ['SEAN', 'SUSAN', 0.783, 0.805],
    ['JON', 'JOHN', 0.917, 0.933],
  ])('%s / %s (Winkler table)', (a, b, expectedJaro, expectedJw) => {
    expect3(jaro(a, b), expectedJaro);
    expect3(jaroWinkler(a, b), expectedJw);
  });
});

describe('jaro and jaroWinkler: edge cases', () => {
  it('treats two empty strings as identical and one empty string as dissimilar', () => {
    expect(jaro('', '')).toBe(1);
    expect(jaroWinkler('', '')).toBe(1);
    expect(jaro('', 'abc')).toBe(0);
    expect(jaro('abc', '')).toBe(0);
    expect(jaroWinkler('', 'abc')).toBe(0);
    expect(jaroWinkler('abc', '')).toBe(0);
  });

  it('gives 1 for equal strings and 0 when nothing matches', () => {
    expect(jaroWinkler('smith', 'smith')).toBe(1);
    expect(jaro('abc', 'xyz')).toBe(0);
    expect(jaroWinkler('a', 'b')).toBe(0);
  });

  it('caps the common prefix at four characters', () => {
    // Same Jaro value, five- versus four-character common prefix: the boost must be identical.
    const j = jaro('abcdex', 'abcdey');
    expect(jaroWinkler('abcdex', 'abcdey')).toBeCloseTo(j + 4 * 0.1 * (1 - j), 12);
  });

  it('does not boost at or below the 0.7 threshold', () => {
    // ITMAN/SMITH has no common prefix anyway; use a pair sharing a prefix with Jaro below 0.7.
    const a = 'abxyzw';
    const b = 'abqrst';
    const j = jaro(a, b);
    expect(j).toBeLessThanOrEqual(0.7);
    expect(jaroWinkler(a, b)).toBe(j);
  });

  it('handles strings longer than the initial flag buffers and keeps them clean afterwards', () => {
    const long1 = 'abcdefghij'.repeat(20);
    const long2 = 'abcdefghij'.repeat(19) + 'abcdefghik';
    expect(jaro(long1, long2)).toBeCloseTo(jaroRef(long1, long2), 12);
    expect(jaroWinkler('MARTHA', 'MARHTA')).toBeCloseTo(jaroWinklerRef('MARTHA', 'MARHTA'), 12);
  });

  it('works on UTF-16 code units', () => {
    expect(jaroWinkler('zoë', 'zoë')).toBe(1);
    expect(jaroWinkler('zoë', 'zoe')).toBeCloseTo(jaroWinklerRef('zoë', 'zoe'), 12);
  });
});

/** Seeded generator (mulberry32) so the cross-check is reproducible. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomName(random: () => number, alphabet: string, maxLength: number): string {
  const length = Math.floor(random() * (maxLength + 1));
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet.charAt(Math.floor(random() * alphabet.length));
  return out;
}

/** A typo-like variant: a few random substitutions, deletions, insertions or swaps. */
function mutate(random: () => number, name: string, alphabet: string): string {
  const chars = Array.from({ length: name.length }, (_, i) => name.charAt(i));
  const edits = 1 + Math.floor(random() * 3);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(random() * (chars.length + 1));
    const letter = alphabet.charAt(Math.floor(random() * alphabet.length));
    switch (Math.floor(random() * 4)) {
      case 0:
        if (at < chars.length) chars[at] = letter;
        break;
      case 1:
        chars.splice(at, 1);
        break;
      case 2:
        chars.splice(at, 0, letter);
        break;
      default:
        if (at + 1 < chars.length) {
          const left = chars[at] ?? '';
          chars[at] = chars[at + 1] ?? '';
          chars[at + 1] = left;
        }
    }
  }
  return chars.join('');
}

describe('jaroWinkler cross-checked against talisman', () => {
  it('agrees to 1e-12 on seeded pseudo-random name pairs', () => {
    const random = seeded(20240517);
    const alphabet = 'abcdeilmnorstuy ';
    let compared = 0;
    for (let n = 0; n < 5000; n++) {
      const a = randomName(random, alphabet, 12);
      const b = random() < 0.6 ? mutate(random, a, alphabet) : randomName(random, alphabet, 12);
      const j = jaro(a, b);
      expect(Math.abs(j - jaroRef(a, b))).toBeLessThanOrEqual(1e-12);
      // talisman boosts at Jaro >= 0.7, Winkler's standard variant only above it.
      if (Math.abs(j - 0.7) < 1e-12) continue;
      expect(Math.abs(jaroWinkler(a, b) - jaroWinklerRef(a, b))).toBeLessThanOrEqual(1e-12);
      compared++;
    }
    expect(compared).toBeGreaterThan(4000);
  });
});
