import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  expectation,
  fitMixture,
  MISSING_BAND,
  type BandPatterns,
  type EmOptions,
  type MixtureParameters,
} from '../../../engine/assurance/fellegi-sunter-em.ts';
import { drawPatterns } from '../../helpers/mixture.ts';

const OPTIONS: EmOptions = { smoothing: 1, tolerance: 1e-9, maxIterations: 2000, fixU: false, floor: 1e-9 };

const repeat = (bands: number[], fields: number): Float64Array =>
  Float64Array.from(Array.from({ length: fields }, () => bands).flat());

describe('Fellegi-Sunter EM (Winkler 1988; Jaro 1989)', () => {
  it('takes one EM step exactly as worked by hand', () => {
    // One field; 60 pairs agree exactly, 40 differ. From m = (.8 .1 .05 .05), u = (.1 .1 .1 .7), λ = .5:
    // posterior of Exact = .4 / (.4 + .05) = 8/9, of Different = .025 / (.025 + .35) = 1/15;
    // λ' = (60 · 8/9 + 40 / 15) / 100 = 0.56; with pseudo-count 1 per band:
    // m' = ((60 · 8/9 + 1), 1, 1, (40/15 + 1)) / (56 + 4), u' = ((60/9 + 1), 1, 1, (40 · 14/15 + 1)) / (44 + 4).
    const patterns: BandPatterns = {
      fieldCount: 1,
      bands: Uint8Array.from([0, 3]),
      counts: Float64Array.from([60, 40]),
    };
    const start = {
      m: Float64Array.from([0.8, 0.1, 0.05, 0.05]),
      u: Float64Array.from([0.1, 0.1, 0.1, 0.7]),
      lambda: 0.5,
    };
    const posterior = new Float64Array(2);
    const logLikelihood = expectation(patterns, start, posterior);
    expect(posterior[0]).toBeCloseTo(8 / 9, 12);
    expect(posterior[1]).toBeCloseTo(1 / 15, 12);
    expect(logLikelihood).toBeCloseTo(60 * Math.log(0.45) + 40 * Math.log(0.375), 10);
    const { parameters } = fitMixture(patterns, start, { ...OPTIONS, maxIterations: 1 });
    expect(parameters.lambda).toBeCloseTo(0.56, 12);
    const expectedM = [60 * (8 / 9) + 1, 1, 1, 40 / 15 + 1].map((x) => x / 60);
    const expectedU = [60 / 9 + 1, 1, 1, 40 * (14 / 15) + 1].map((x) => x / 48);
    for (let b = 0; b < 4; b++) {
      expect(parameters.m[b]).toBeCloseTo(expectedM[b] ?? 0, 12);
      expect(parameters.u[b]).toBeCloseTo(expectedU[b] ?? 0, 12);
    }
  });

  it('recovers the m, u and λ of a known mixture within sampling error', () => {
    const fields = 6;
    const truth: MixtureParameters = {
      m: repeat([0.85, 0.08, 0.04, 0.03], fields),
      u: Float64Array.from(
        [
          [0.01, 0.02, 0.17, 0.8],
          [0.02, 0.03, 0.35, 0.6],
          [0.005, 0.005, 0.04, 0.95],
          [0.5, 0.0, 0.0, 0.5],
          [0.05, 0.05, 0.2, 0.7],
          [0.001, 0.009, 0.09, 0.9],
        ].flat(),
      ),
      lambda: 0.3,
    };
    truth.m.set([0.98, 0, 0, 0.02], 12); // a sex-like field: two bands only
    const patterns = drawPatterns(truth, fields, 200_000, 11, 0.1);
    const start = { m: repeat([0.7, 0.1, 0.1, 0.1], fields), u: repeat([0.1, 0.1, 0.2, 0.6], fields), lambda: 0.5 };
    const fit = fitMixture(patterns, start, OPTIONS);
    expect(fit.converged).toBe(true);
    expect(fit.parameters.lambda).toBeCloseTo(0.3, 2);
    for (let i = 0; i < fields * 4; i++) {
      expect(Math.abs((fit.parameters.m[i] ?? 0) - (truth.m[i] ?? 0))).toBeLessThan(0.01);
      expect(Math.abs((fit.parameters.u[i] ?? 0) - (truth.u[i] ?? 0))).toBeLessThan(0.01);
    }
  });

  it('estimates m and λ with u held at a given value (u from random pairs)', () => {
    const fields = 4;
    const truth: MixtureParameters = {
      m: repeat([0.9, 0.05, 0.03, 0.02], fields),
      u: repeat([0.02, 0.03, 0.15, 0.8], fields),
      lambda: 0.2,
    };
    const patterns = drawPatterns(truth, fields, 100_000, 3);
    const fit = fitMixture(
      patterns,
      { m: repeat([0.5, 0.2, 0.2, 0.1], fields), u: truth.u, lambda: 0.5 },
      { ...OPTIONS, fixU: true },
    );
    expect([...fit.parameters.u]).toEqual([...truth.u]);
    expect(fit.parameters.lambda).toBeCloseTo(0.2, 2);
    for (let i = 0; i < fields * 4; i++)
      expect(Math.abs((fit.parameters.m[i] ?? 0) - (truth.m[i] ?? 0))).toBeLessThan(0.01);
  });

  it('never lets the objective (log-likelihood plus the smoothing prior) decrease', () => {
    const band = fc.integer({ min: 0, max: 4 }).map((b) => (b === 4 ? MISSING_BAND : b));
    const distribution = fc
      .tuple(
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
      )
      .map((xs) => {
        const total = xs.reduce((a, b) => a + b, 0);
        return xs.map((x) => x / total);
      });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((fields) =>
          fc.record({
            fields: fc.constant(fields),
            rows: fc.array(
              fc.tuple(fc.array(band, { minLength: fields, maxLength: fields }), fc.integer({ min: 1, max: 500 })),
              { minLength: 1, maxLength: 40 },
            ),
            m: fc.array(distribution, { minLength: fields, maxLength: fields }),
            u: fc.array(distribution, { minLength: fields, maxLength: fields }),
            lambda: fc.double({ min: 0.01, max: 0.99, noNaN: true }),
            smoothing: fc.double({ min: 1e-3, max: 5, noNaN: true }),
            fixU: fc.boolean(),
            fixM: fc.boolean(),
            fixLambda: fc.boolean(),
            accelerate: fc.boolean(),
          }),
        ),
        ({ fields, rows, m, u, lambda, smoothing, fixU, fixM, fixLambda, accelerate }) => {
          const patterns: BandPatterns = {
            fieldCount: fields,
            bands: Uint8Array.from(rows.flatMap(([bands]) => bands)),
            counts: Float64Array.from(rows.map(([, n]) => n)),
          };
          const start = { m: Float64Array.from(m.flat()), u: Float64Array.from(u.flat()), lambda };
          const fit = fitMixture(patterns, start, {
            smoothing,
            tolerance: 0,
            maxIterations: 30,
            fixU,
            fixM,
            fixLambda,
            floor: 1e-12,
            accelerate,
          });
          const history = fit.objectiveHistory;
          // Relative to the objective, with an absolute floor for rounding where the objective is about 0 (every field
          // missing: a fast-check run found a "decrease" of 1.4e-16 there).
          for (let i = 1; i < history.length; i++)
            expect(history[i] ?? 0).toBeGreaterThanOrEqual(
              (history[i - 1] ?? 0) - Math.max(1e-12, 1e-7 * Math.abs(history[i - 1] ?? 1)),
            );
          // What is held stays exactly where it started.
          if (fixM) expect([...fit.parameters.m]).toEqual([...start.m]);
          if (fixU) expect([...fit.parameters.u]).toEqual([...start.u]);
          if (fixLambda) expect(fit.parameters.lambda).toBe(lambda);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('accelerated (SQUAREM) reaches the same maximum as plain EM where plain EM crawls along a ridge', () => {
    // One field and u held: four band shares cannot fix λ and three m apart, so only the weak prior on m picks the
    // maximum, and plain EM creeps towards it (as a training session whose rule blocks on most fields does).
    const u = Float64Array.from([0.05, 0.1, 0.25, 0.6]);
    const patterns = drawPatterns({ m: Float64Array.from([0.7, 0.15, 0.1, 0.05]), u, lambda: 0.6 }, 1, 50_000, 11);
    const start = { m: Float64Array.from([0.25, 0.25, 0.25, 0.25]), u, lambda: 0.5 };
    const options: EmOptions = {
      ...OPTIONS,
      fixU: true,
      floor: 1e-6,
      tolerance: 1e-12,
      maxIterations: 1_000_000,
      mPrior: { m: Float64Array.from([0.6, 0.2, 0.1, 0.1]), strength: 10 },
    };
    const plain = fitMixture(patterns, start, options);
    const fast = fitMixture(patterns, start, { ...options, accelerate: true });
    expect(plain.converged && fast.converged).toBe(true);
    expect(plain.iterations).toBeGreaterThan(100_000);
    expect(fast.iterations).toBeLessThan(plain.iterations / 20);
    expect(fast.parameters.lambda).toBeCloseTo(plain.parameters.lambda, 6);
    for (let b = 0; b < 4; b++) expect(fast.parameters.m[b]).toBeCloseTo(plain.parameters.m[b] ?? 0, 6);
    expect(fast.objective).toBeCloseTo(plain.objective, 6);
    // At the estimate's default limit of 1,000 steps plain EM is still far off; SQUAREM is there.
    const capped = { ...options, tolerance: 1e-6, maxIterations: 1_000 };
    expect(fitMixture(patterns, start, capped).converged).toBe(false);
    expect(fitMixture(patterns, start, { ...capped, accelerate: true }).converged).toBe(true);
  });

  it('keeps every probability strictly inside (0, 1), even for a band no pair falls in', () => {
    const patterns: BandPatterns = {
      fieldCount: 2,
      bands: Uint8Array.from([0, 0, 0, 3]),
      counts: Float64Array.from([500, 500]),
    };
    const fit = fitMixture(
      patterns,
      { m: repeat([0.7, 0.1, 0.1, 0.1], 2), u: repeat([0.1, 0.1, 0.2, 0.6], 2), lambda: 0.5 },
      { ...OPTIONS, smoothing: 1e-4 },
    );
    for (const p of [...fit.parameters.m, ...fit.parameters.u, fit.parameters.lambda]) {
      expect(p).toBeGreaterThan(0);
      expect(p).toBeLessThan(1);
    }
    // Field 0 always agrees: m and u of its Exact band both approach 1, never reach it.
    expect(fit.parameters.m[0]).toBeGreaterThan(0.99);
  });

  it('stops at the iteration cap and says it did not converge', () => {
    const truth: MixtureParameters = {
      m: repeat([0.9, 0.05, 0.03, 0.02], 3),
      u: repeat([0.02, 0.03, 0.15, 0.8], 3),
      lambda: 0.2,
    };
    const fit = fitMixture(
      drawPatterns(truth, 3, 5_000, 9),
      { m: repeat([0.5, 0.2, 0.2, 0.1], 3), u: repeat([0.1, 0.1, 0.2, 0.6], 3), lambda: 0.5 },
      { ...OPTIONS, maxIterations: 2 },
    );
    expect(fit.iterations).toBe(2);
    expect(fit.converged).toBe(false);
    expect(fit.objectiveHistory).toHaveLength(3);
  });
});
