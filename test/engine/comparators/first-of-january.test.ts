import { describe, expect, it } from 'vitest';
import {
  FIRST_OF_JANUARY_OTHER_YEAR,
  FIRST_OF_JANUARY_SAME_YEAR,
  firstOfJanuaryLevel,
  isFirstOfJanuary,
} from '../../../engine/comparators/first-of-january.ts';

describe('birth dates on 1 January, where an unknown day and month are written', () => {
  it('knows a 1 January', () => {
    expect(isFirstOfJanuary('19880101')).toBe(true);
    expect(isFirstOfJanuary('19880110')).toBe(false);
    expect(isFirstOfJanuary('19881001')).toBe(false);
    expect(isFirstOfJanuary('0101')).toBe(false);
  });

  it('says the year only of two: the same year is not compared, other years differ', () => {
    expect(firstOfJanuaryLevel('19880101', '19880101')).toBe(FIRST_OF_JANUARY_SAME_YEAR);
    // A digit apart as dates (a keying error), two people of adjacent years here.
    expect(firstOfJanuaryLevel('19870101', '19880101')).toBe(FIRST_OF_JANUARY_OTHER_YEAR);
    expect(firstOfJanuaryLevel('19780101', '19870101')).toBe(FIRST_OF_JANUARY_OTHER_YEAR);
  });

  it('leaves to the date levels a pair with one 1 January or none', () => {
    expect(firstOfJanuaryLevel('19880101', '19880615')).toBeUndefined();
    expect(firstOfJanuaryLevel('19880615', '19880101')).toBeUndefined();
    expect(firstOfJanuaryLevel('19880101', '19871231')).toBeUndefined();
    expect(firstOfJanuaryLevel('19880615', '19880615')).toBeUndefined();
  });
});
