import { describe, expect, it } from 'vitest';
import {
  editLevel,
  editLevelSimilarity,
  EDIT_LEVELS,
  EDIT_LEVEL_SIMILARITY,
  isAdjacentTransposition,
  isEarlySubstitution,
} from '../../../engine/comparators/edit-levels.ts';
import { normalisedDamerauLevenshtein } from '../../../engine/comparators/damerau-levenshtein.ts';
import { bandOf } from '../../../engine/contract/fields.ts';

describe('codes compared in edit-distance levels', () => {
  it('counts keying errors, not a share of the length', () => {
    expect(editLevel('2615', '2615')).toBe('exact');
    expect(editLevel('2615', '2651')).toBe('transposed'); // adjacent digits swapped
    expect(editLevel('2615', '6215')).toBe('transposed');
    expect(editLevel('2615', '5612')).toBe('different'); // two digits swapped, not adjacent
    expect(editLevel('2615', '2616')).toBe('one-edit'); // the last digit: a sequential neighbour
    expect(editLevel('2615', '2605')).toBe('one-edit'); // the second from the end
    expect(editLevel('2615', '2915')).toBe('substituted'); // the third from the end: 300 apart
    expect(editLevel('2615', '261')).toBe('one-edit'); // a digit dropped
    // Two unrelated 4-digit postcodes sharing two digits: "half similar" as text, another code here.
    expect(normalisedDamerauLevenshtein('2615', '2690')).toBe(0.5);
    expect(editLevel('2615', '2690')).toBe('different');
    // Two errors in a long code (a phone number, an identifier) are still a near miss.
    expect(editLevel('0294561234', '0294651235')).toBe('two-edits');
    expect(editLevel('0294561234', '0299999234')).toBe('different');
    expect(editLevel('1234567', '12345678901')).toBe('different');
  });

  it('puts each level in its band', () => {
    expect(EDIT_LEVELS.map((level) => bandOf(EDIT_LEVEL_SIMILARITY[level]))).toEqual([
      'Exact',
      'Strong',
      'Strong',
      'Strong',
      'Partial',
      'Different',
    ]);
    expect(editLevelSimilarity('5381942', '5381492')).toBe(0.95);
    expect(editLevelSimilarity('5381942', '5381943')).toBe(0.9);
  });

  it('tells a swap of two adjacent characters from every other single error', () => {
    expect(isAdjacentTransposition('4471093', '4470193')).toBe(true);
    // A sequential neighbour, a dropped or an added digit, two swaps, equal codes: not a transposition.
    expect(isAdjacentTransposition('4471093', '4471094')).toBe(false);
    expect(isAdjacentTransposition('4471093', '447109')).toBe(false);
    expect(isAdjacentTransposition('4471093', '44710933')).toBe(false);
    expect(isAdjacentTransposition('4471093', '4470139')).toBe(false);
    expect(isAdjacentTransposition('4471093', '4471093')).toBe(false);
    expect(isAdjacentTransposition('4471093', '4471039')).toBe(true);
    expect(isAdjacentTransposition('ab', 'ba')).toBe(true);
    expect(isAdjacentTransposition('a', 'a')).toBe(false);
  });

  it('tells a digit replaced three or more places from the end from a sequential neighbour', () => {
    expect(isEarlySubstitution('4471093', '4481093')).toBe(true);
    expect(isEarlySubstitution('4471093', '4471193')).toBe(true); // 100 apart
    expect(isEarlySubstitution('4471093', '4471083')).toBe(false); // 10 apart
    expect(isEarlySubstitution('4471093', '4471094')).toBe(false); // the next number
    expect(isEarlySubstitution('4471093', '4481193')).toBe(false); // two digits
    expect(isEarlySubstitution('4471093', '447109')).toBe(false);
    expect(isEarlySubstitution('4471093', '4471093')).toBe(false);
    expect(isEarlySubstitution('12', '13')).toBe(false);
  });
});
