/**
 * thresholdFigure (renderer/format.ts): the calibration report's large threshold figures. A cut at the highest
 * held-out score can be 0.999999999999999, which no one can count at a glance; the exact value stays beside it.
 */
import { describe, expect, it } from 'vitest';
import { thresholdFigure } from '../../renderer/format.ts';

describe('thresholdFigure', () => {
  it('shows short thresholds as they are', () => {
    for (const value of [0, 0.5, 0.97, 0.9995, 0.00004, 1])
      expect(thresholdFigure(value)).toEqual({ text: String(value), exact: String(value) });
  });

  it('shows a long threshold near 1 as 1 minus its distance (no-break spaces), and keeps the exact value', () => {
    expect(thresholdFigure(0.999999999999999)).toEqual({ text: '1\u00a0−\u00a01e-15', exact: '0.999999999999999' });
    expect(thresholdFigure(0.9999995)).toEqual({ text: '1\u00a0−\u00a05e-7', exact: '0.9999995' });
    expect(thresholdFigure(0.99998765432)).toEqual({ text: '1\u00a0−\u00a01.2e-5', exact: '0.99998765432' });
  });

  it('shows a long threshold near 0 in e-notation', () => {
    expect(thresholdFigure(0.000012345678)).toEqual({ text: '1.2e-5', exact: '0.000012345678' });
    expect(thresholdFigure(2.5e-9)).toEqual({ text: '2.5e-9', exact: '2.5e-9' });
  });

  it('leaves other long values whole rather than rounding a cut a person may copy', () => {
    expect(thresholdFigure(0.123456789)).toEqual({ text: '0.123456789', exact: '0.123456789' });
  });
});
