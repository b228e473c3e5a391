import { describe, expect, it } from 'vitest';
import {
  editLevel,
  editLevelSimilarity,
  EDIT_LEVELS,
  EDIT_LEVEL_SIMILARITY,
} from '../../../engine/comparators/edit-levels.ts';
import { normalisedDamerauLevenshtein } from '../../../engine/comparators/damerau-levenshtein.ts';
import { bandOf } from '../../../engine/contract/fields.ts';

describe('codes compared in edit-distance levels', () => {
  it('counts keying errors, not a share of the length', () => {
    expect(editLevel('2615', '2615')).toBe('exact');
    expect(editLevel('2615', '2651')).toBe('one-edit'); // adjacent digits swapped
    expect(editLevel('2615', '2616')).toBe('one-edit');
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
      'Partial',
      'Different',
    ]);
    expect(editLevelSimilarity('5381942', '5381492')).toBe(0.9);
  });
});
