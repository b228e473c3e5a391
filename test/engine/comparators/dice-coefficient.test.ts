import { describe, it, expect } from 'vitest';
import { diceCoefficient } from '../../../engine/comparators/dice-coefficient.ts';

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
