import { describe, expect, it } from 'vitest';
import { normalQuantile } from '../../../engine/stats/normal-quantile.ts';

// Python 3: statistics.NormalDist().inv_cdf(p) (Wichura's AS 241, accurate to about 1e-16).
const REFERENCE: [number, number][] = [
  [0.5, 0],
  [0.975, 1.9599639845400536],
  [0.99, 2.3263478740408408],
  [0.99375, 2.4977054744123737],
  [0.0125, -2.2414027276049446],
  [1e-6, -4.753424308822899],
  [0.02425, -1.9729610513118845],
  [0.97575, 1.9729610513118847],
  [0.999999, 4.753424308817089],
];

describe('normalQuantile (Acklam)', () => {
  it('agrees with a reference implementation to 1e-8 relative across the centre and both tails', () => {
    for (const [p, z] of REFERENCE)
      expect(Math.abs(normalQuantile(p) - z)).toBeLessThanOrEqual(1e-8 * Math.max(1, Math.abs(z)));
  });
  it('is antisymmetric and refuses p outside (0, 1)', () => {
    for (const p of [0.001, 0.1, 0.3]) expect(normalQuantile(p)).toBeCloseTo(-normalQuantile(1 - p), 9);
    for (const p of [0, 1, -0.1, Number.NaN]) expect(() => normalQuantile(p)).toThrow(RangeError);
  });
});
