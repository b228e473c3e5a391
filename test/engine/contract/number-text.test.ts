import { describe, expect, it } from 'vitest';
import { countOfText, countText, decimalText, percentText, rateText } from '../../../engine/contract/count-text.ts';
import { figureText } from '../../../engine/contract/figure-text.ts';

describe('countText', () => {
  it('groups by thousands whatever the locale', () => {
    expect([0, 999, 1000, 18947, 1234567].map(countText)).toEqual(['0', '999', '1,000', '18,947', '1,234,567']);
  });
});

describe('countOfText', () => {
  it('says one in the singular, any other count in the plural, grouped', () => {
    expect(countOfText(1, 'label')).toBe('1 label');
    expect(countOfText(0, 'label')).toBe('0 labels');
    expect(countOfText(12345, 'match', 'matches')).toBe('12,345 matches');
    expect(countOfText(1, 'non-match', 'non-matches')).toBe('1 non-match');
  });
});

describe('decimalText', () => {
  it('keeps the decimals asked and groups by thousands', () => {
    expect([decimalText(1750, 1), decimalText(25, 1), decimalText(0.04, 1), decimalText(1234567.891, 2)]).toEqual([
      '1,750.0',
      '25.0',
      '0.0',
      '1,234,567.89',
    ]);
  });
});

describe('percentText', () => {
  it('writes a share with one decimal, and a share below a tenth of a percent that is not none with one digit', () => {
    expect([0.824, 0, 1, 0.0004, 0.00049, 0.001, 0.25].map(percentText)).toEqual([
      '82.4%',
      '0.0%',
      '100.0%',
      '0.04%',
      '0.05%',
      '0.1%',
      '25.0%',
    ]);
  });
});

describe('rateText', () => {
  it('writes a rate with one decimal, and a rate below a tenth that is not none with one digit', () => {
    // 11 flagged identities among 335,551 with several records: 0.0328 per 1,000, not "0.0".
    expect([(1000 * 11) / 335_551, 0, 12.63, 0.1, 0.099, 1750].map(rateText)).toEqual([
      '0.03',
      '0.0',
      '12.6',
      '0.1',
      '0.1',
      '1,750.0',
    ]);
  });
});

describe('figureText', () => {
  it('writes six significant digits without the zeros that add nothing', () => {
    expect([0.5, 0.962, 1, 0, 10, 120, -0.25].map(figureText)).toEqual([
      '0.5',
      '0.962',
      '1',
      '0',
      '10',
      '120',
      '-0.25',
    ]);
    // A score that floating point leaves a hair off a simple number reads as that number, not "0.300000".
    expect(figureText(0.1 + 0.2)).toBe('0.3');
    expect(figureText(0.9619999999999999)).toBe('0.962');
    expect(figureText(0.123456789)).toBe('0.123457');
    expect(figureText(0.000012345678)).toBe('0.0000123457');
    // Exponents keep their form; only the mantissa's trailing zeros go.
    expect(figureText(1e-7)).toBe('1e-7');
    expect(figureText(1234567)).toBe('1.23457e+6');
  });
});
