import { describe, it, expect } from 'vitest';
import { diceCoefficient, diceOfSortedBigrams, sortedBigrams } from '../../../engine/comparators/dice-coefficient.ts';
import { createRng } from '../../../engine/synthetic/prng.ts';

describe('diceCoefficient: published reference values', () => {
  // Wikipedia, "Sørensen–Dice coefficient": night {ni, ig, gh, ht} and nacht {na, ac, ch, ht} share
  // one bigram, so 2·1 / (4 + 4) = 0.25.
  it('night / nacht is 0.25', () => {
    expect(diceCoefficient('night', 'nacht')).toBe(0.25);
  });

  // Simon White (2004), "How to Strike a Match" (catalysoft.com), letter-pair similarity of "Healed"
  // against other words: Sealed 80%, Healthy 55%, Heard 44%, Herded 40%, Help 25%, Sold 0%;
  // and France / French 40%. Single words, so White's per-word pairing equals plain bigrams here.
  it.each([
    ['healed', 'sealed', 0.8],
    ['healed', 'healthy', 6 / 11],
    ['healed', 'heard', 4 / 9],
    ['healed', 'herded', 0.4],
    ['healed', 'help', 0.25],
    ['healed', 'sold', 0],
    ['france', 'french', 0.4],
  ])('%s / %s (White 2004)', (a, b, expected) => {
    expect(diceCoefficient(a, b)).toBeCloseTo(expected, 12);
    expect(diceCoefficient(b, a)).toBeCloseTo(expected, 12);
  });
});

describe('diceCoefficient: multisets and edge cases', () => {
  it('counts a repeated bigram at most as often as it occurs in both strings', () => {
    // aaaa has {aa, aa, aa}, aa has {aa}: one common bigram, 2·1 / (3 + 1).
    expect(diceCoefficient('aaaa', 'aa')).toBe(0.5);
    // abab {ab, ba, ab} vs ab {ab}: 2·1 / (3 + 1).
    expect(diceCoefficient('abab', 'ab')).toBe(0.5);
    // aaa {aa, aa} vs aaaa {aa, aa, aa}: 2·2 / (2 + 3).
    expect(diceCoefficient('aaa', 'aaaa')).toBeCloseTo(0.8, 12);
  });

  it('gives 1 for equal strings, including ones too short for bigrams', () => {
    expect(diceCoefficient('', '')).toBe(1);
    expect(diceCoefficient('a', 'a')).toBe(1);
    expect(diceCoefficient('smith', 'smith')).toBe(1);
  });

  it('gives 0 when either different string has no bigrams', () => {
    expect(diceCoefficient('a', 'b')).toBe(0);
    expect(diceCoefficient('a', 'ab')).toBe(0);
    expect(diceCoefficient('', 'ab')).toBe(0);
  });

  it('treats spaces as characters', () => {
    // "ab c" {ab, "b ", " c"} vs "abc" {ab, bc}: 2·1 / (3 + 2).
    expect(diceCoefficient('ab c', 'abc')).toBeCloseTo(0.4, 12);
  });

  it('is order-insensitive across bigrams and handles long strings', () => {
    expect(diceCoefficient('abcabc', 'bcabca')).toBeCloseTo((2 * 4) / (5 + 5), 12);
    const long = 'abcdefghijklmnopqrstuvwxyz'.repeat(8);
    expect(diceCoefficient(long, `${long}!`)).toBeCloseTo(
      (2 * (long.length - 1)) / (long.length - 1 + long.length),
      12,
    );
    expect(diceCoefficient('night', 'nacht')).toBe(0.25);
  });
});

/** The definition, by counting: each bigram's occurrences in both texts, in a Map of strings. */
function referenceDice(a: string, b: string): number {
  if (a === b) return 1;
  const bigrams = (text: string): Map<string, number> => {
    const counts = new Map<string, number>();
    for (let i = 0; i + 1 < text.length; i++) {
      const bigram = text.slice(i, i + 2);
      counts.set(bigram, (counts.get(bigram) ?? 0) + 1);
    }
    return counts;
  };
  const left = bigrams(a);
  const right = bigrams(b);
  const total = Math.max(0, a.length - 1) + Math.max(0, b.length - 1);
  if (left.size === 0 || right.size === 0) return 0;
  let common = 0;
  for (const [bigram, count] of left) common += Math.min(count, right.get(bigram) ?? 0);
  return (2 * common) / total;
}

describe('diceCoefficient and diceOfSortedBigrams against the definition', () => {
  // Few letters, so bigrams repeat; code units from both halves of the 16-bit range, so packed bigrams of both
  // signs are sorted together; lengths from 0 past the insertion sort's limit (48 bigrams).
  const alphabet = ['a', 'b', 'n', ' ', 'é', 'ł', '\u8000', '\uffff', '\ud83d', '\ude00'];
  const rng = createRng(20261129);
  const text = (): string => {
    const length = rng.int(rng.next() < 0.2 ? 120 : 12);
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[rng.int(alphabet.length)] ?? '';
    return out;
  };
  const pairs = Array.from({ length: 3_000 }, () => {
    const a = text();
    // A third of the pairs are near each other: the second is the first with one unit changed.
    if (rng.next() < 0.33 && a.length > 0) {
      const at = rng.int(a.length);
      return [a, `${a.slice(0, at)}${alphabet[rng.int(alphabet.length)] ?? ''}${a.slice(at + 1)}`] as const;
    }
    return [a, text()] as const;
  });

  it('gives the counted coefficient for every pair, from the texts and from sorted bigrams made once', () => {
    let partial = 0;
    for (const [a, b] of pairs) {
      const expected = referenceDice(a, b);
      if (expected > 0 && expected < 1) partial++;
      expect(diceCoefficient(a, b)).toBe(expected);
      expect(a === b ? 1 : diceOfSortedBigrams(sortedBigrams(a), sortedBigrams(b))).toBe(expected);
    }
    // The pairs exercise the merge, not only its ends.
    expect(partial).toBeGreaterThan(1_000);
  });

  it('makes one sorted bigram per adjacent pair of code units', () => {
    expect(sortedBigrams('')).toEqual([]);
    expect(sortedBigrams('x')).toEqual([]);
    const bigrams = sortedBigrams('banana');
    expect(bigrams).toHaveLength(5);
    expect([...bigrams].sort((x, y) => x - y)).toEqual(bigrams);
    expect(diceOfSortedBigrams(sortedBigrams('x'), bigrams)).toBe(0);
  });
});
