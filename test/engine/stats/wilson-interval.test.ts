import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../../engine/stats/wilson-interval.ts';

// References for the expected values:
//  - Newcombe RG (1998), "Two-sided confidence intervals for the single proportion: comparison of
//    seven methods", Statistics in Medicine 17:857–872, Table I, method 3 (Wilson score, no
//    continuity correction), four decimals.
//  - SciPy 1.17.1, scipy.stats.binomtest(x, n).proportion_ci(method='wilson',
//    confidence_level=0.95), full precision (the same interval as R's
//    prop.test(x, n, correct = FALSE)$conf.int).
// Each was also worked by the formula, z = 1.959963984540054, z² = 3.8414588206941254:
//    centre = (p + z²/2n)/(1 + z²/n),  half = z/(1 + z²/n)·sqrt(p(1−p)/n + z²/4n²).

describe('wilsonInterval', () => {
  it('81/263 → 0.2553–0.3662 (Newcombe 1998, Table I)', () => {
    // p = 0.307985, 1 + z²/n = 1.014606, centre = 0.310749, half = 0.055461
    // → 0.255288 … 0.366210. SciPy: 0.2552885198782742, 0.36620957698280004.
    const ci = wilsonInterval(81, 263);
    expect(ci?.lower).toBeCloseTo(0.2552885198782742, 12);
    expect(ci?.upper).toBeCloseTo(0.36620957698280004, 12);
    expect(ci?.lower.toFixed(4)).toBe('0.2553');
    expect(ci?.upper.toFixed(4)).toBe('0.3662');
  });

  it('15/148 → 0.0624–0.1605 (Newcombe 1998, Table I)', () => {
    // p = 0.101351, 1 + z²/n = 1.025956, centre = 0.111437, half = 0.049050
    // → 0.062386 … 0.160487. SciPy: 0.06238639953073629, 0.16048724172330803.
    const ci = wilsonInterval(15, 148);
    expect(ci?.lower).toBeCloseTo(0.06238639953073629, 12);
    expect(ci?.upper).toBeCloseTo(0.16048724172330803, 12);
    expect(ci?.lower.toFixed(4)).toBe('0.0624');
    expect(ci?.upper.toFixed(4)).toBe('0.1605');
  });

  it('0/20 → 0–0.1611 (Newcombe 1998, Table I), lower bound exactly 0', () => {
    // p = 0: centre = half = (z²/2n)/(1 + z²/n) = 0.096036/1.192073 = 0.080563 → 0 … 0.161125.
    // SciPy: 0.0, 0.16112515805281935.
    const ci = wilsonInterval(0, 20);
    expect(ci?.lower).toBe(0);
    expect(ci?.upper).toBeCloseTo(0.16112515805281935, 12);
    expect(ci?.upper.toFixed(4)).toBe('0.1611');
  });

  it('1/29 → 0.0061–0.1718 (Newcombe 1998, Table I)', () => {
    // p = 0.034483, 1 + z²/n = 1.132464, centre = 0.088934, half = 0.082821
    // → 0.006113 … 0.171755. SciPy: 0.006113214292762667, 0.17175521879320282.
    const ci = wilsonInterval(1, 29);
    expect(ci?.lower).toBeCloseTo(0.006113214292762667, 12);
    expect(ci?.upper).toBeCloseTo(0.17175521879320282, 12);
    expect(ci?.lower.toFixed(4)).toBe('0.0061');
    expect(ci?.upper.toFixed(4)).toBe('0.1718');
  });

  it('n/n has upper bound exactly 1 and mirrors 0/n', () => {
    // 20/20 is the mirror image of 0/20: lower = 1 − 0.161125 = 0.838875.
    // SciPy: 0.8388748419471808, 1.0.
    const ci = wilsonInterval(20, 20);
    expect(ci?.upper).toBe(1);
    expect(ci?.lower).toBeCloseTo(0.8388748419471808, 12);
  });

  it('returns null when there are no trials', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('narrows with a smaller z', () => {
    // z = 1 (≈68% interval), 1/2: centre = (0.5 + 0.25)/1.5 = 0.5,
    // half = (1/1.5)·sqrt(0.125 + 0.0625) = 0.666…·0.433013 = 0.288675 → 0.211325 … 0.788675.
    const ci = wilsonInterval(1, 2, 1);
    expect(ci?.lower).toBeCloseTo(0.5 - Math.sqrt(0.1875) / 1.5, 12);
    expect(ci?.upper).toBeCloseTo(0.5 + Math.sqrt(0.1875) / 1.5, 12);
  });

  it('rejects impossible counts', () => {
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(1, 2.5)).toThrow(RangeError);
    expect(() => wilsonInterval(1, 2, 0)).toThrow(RangeError);
  });
});
