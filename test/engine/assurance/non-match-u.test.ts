import { describe, expect, it } from 'vitest';
import {
  MISSING_BAND,
  type BandPatterns,
  type MixtureParameters,
} from '../../../engine/assurance/fellegi-sunter-em.ts';
import { nonMatchU } from '../../../engine/assurance/non-match-u.ts';
import { drawPatterns } from '../../helpers/mixture.ts';

const OPTIONS = { smoothing: 1, tolerance: 1e-10, maxIterations: 1000, floor: 1e-9 };

/** u counted from the pairs as if every one were a non-match (what random-pair u does), smoothed alike. */
function countedU(patterns: BandPatterns): Float64Array {
  const F = patterns.fieldCount;
  const counts = new Float64Array(F * 4);
  patterns.counts.forEach((n, p) => {
    for (let f = 0; f < F; f++) {
      const b = patterns.bands[p * F + f] ?? MISSING_BAND;
      if (b !== MISSING_BAND) counts[f * 4 + b] = (counts[f * 4 + b] ?? 0) + n;
    }
  });
  const u = new Float64Array(F * 4);
  for (let f = 0; f < F; f++) {
    let total = 0;
    for (let b = 0; b < 4; b++) total += counts[f * 4 + b] ?? 0;
    for (let b = 0; b < 4; b++)
      u[f * 4 + b] = ((counts[f * 4 + b] ?? 0) + OPTIONS.smoothing) / (total + 4 * OPTIONS.smoothing);
  }
  return u;
}

describe('u over non-matches from random pairs (the pairs of one person weighted out)', () => {
  // A dense registry: one random pair in 200 is one person, and a birth-date-like field agrees by chance 1 in 20,000.
  const fields = 3;
  const truth: MixtureParameters = {
    m: Float64Array.from([0.92, 0.01, 0.01, 0.06, 0.7, 0.2, 0.05, 0.05, 0.7, 0.2, 0.05, 0.05]),
    u: Float64Array.from([
      5e-5,
      1e-3,
      2e-2,
      1 - 5e-5 - 1e-3 - 2e-2,
      3e-3,
      3e-3,
      0.35,
      1 - 0.356,
      4e-3,
      5e-3,
      0.39,
      1 - 0.399,
    ]),
    lambda: 0.005,
  };
  // Random pairs: λ is the share of one person among them.
  const patterns = drawPatterns(truth, fields, 400_000, 7);

  it("recovers the non-matches' u where counting every random pair as a non-match overstates it", () => {
    const counted = countedU(patterns);
    const { u, matchesWeightedOut, converged } = nonMatchU(patterns, truth.m, counted, truth.lambda, OPTIONS);
    expect(converged).toBe(true);
    // Counted, the rare agreement is mostly pairs of one person: about λ m + (1 − λ) u = 4.6e-3 + 5e-5.
    expect(counted[0]).toBeGreaterThan(40 * (truth.u[0] ?? 0));
    // Weighted out, it is back near the truth (400,000 pairs hold about 20 chance agreements: within ±60%).
    expect(u[0]).toBeGreaterThan(0.4 * (truth.u[0] ?? 0));
    expect(u[0]).toBeLessThan(1.6 * (truth.u[0] ?? 0));
    for (let i = 1; i < fields * 4; i++)
      expect(Math.abs((u[i] ?? 0) - (truth.u[i] ?? 0))).toBeLessThan(0.01 * Math.max(truth.u[i] ?? 0, 0.01) + 2e-4);
    // About λ × pairs were one person.
    expect(matchesWeightedOut).toBeGreaterThan(0.9 * truth.lambda * 400_000);
    expect(matchesWeightedOut).toBeLessThan(1.1 * truth.lambda * 400_000);
  });

  it('changes nothing when the model cannot tell one person from two (m = u) and the prior is tiny', () => {
    const counted = countedU(patterns);
    const { u, matchesWeightedOut } = nonMatchU(patterns, counted, counted, 1e-9, OPTIONS);
    for (let i = 0; i < fields * 4; i++) expect(u[i]).toBeCloseTo(counted[i] ?? 0, 6);
    expect(matchesWeightedOut).toBeLessThan(1);
  });

  it("keeps each field's u a distribution, held m untouched", () => {
    const m = Float64Array.from(truth.m);
    const { u } = nonMatchU(patterns, m, countedU(patterns), truth.lambda, OPTIONS);
    expect([...m]).toEqual([...truth.m]);
    for (let f = 0; f < fields; f++)
      expect((u[f * 4] ?? 0) + (u[f * 4 + 1] ?? 0) + (u[f * 4 + 2] ?? 0) + (u[f * 4 + 3] ?? 0)).toBeCloseTo(1, 12);
  });
});
