import { describe, expect, it } from 'vitest';
import { BANDS, FIELD_NAMES, type FieldName } from '../../../engine/contract/fields.ts';
import { MISSING_BAND, type BandPatterns } from '../../../engine/assurance/fellegi-sunter-em.ts';
import {
  anchorRecall,
  deterministicAnchor,
  type DeterministicAnchor,
} from '../../../engine/assurance/deterministic-anchor.ts';
import { fitChecks, fitPasses, type FitUnderCheck } from '../../../engine/assurance/fit-checks.ts';

const B = BANDS.length;
const F = FIELD_NAMES.length;
const at = (field: FieldName, band: (typeof BANDS)[number]): number =>
  FIELD_NAMES.indexOf(field) * B + BANDS.indexOf(band);

/** m or u with the given bands of the given fields, every other field uniform. */
function probabilities(values: Partial<Record<FieldName, readonly [number, number, number, number]>>): Float64Array {
  const out = new Float64Array(F * B).fill(1 / B);
  for (const [field, bands] of Object.entries(values) as [FieldName, readonly number[]][])
    bands.forEach((p, b) => (out[FIELD_NAMES.indexOf(field) * B + b] = p));
  return out;
}

/** Patterns over family, given and birth date only (the other fields missing): [bands, count] each. */
function patterns(rows: readonly (readonly [readonly [number, number, number], number])[]): BandPatterns {
  const bands = new Uint8Array(rows.length * F).fill(MISSING_BAND);
  rows.forEach(([b], p) => {
    bands[p * F + FIELD_NAMES.indexOf('familyName')] = b[0];
    bands[p * F + FIELD_NAMES.indexOf('givenName')] = b[1];
    bands[p * F + FIELD_NAMES.indexOf('birthDate')] = b[2];
  });
  return { fieldCount: F, bands, counts: Float64Array.from(rows.map(([, n]) => n)) };
}

const GOOD_M = probabilities({
  familyName: [0.85, 0.08, 0.03, 0.04],
  givenName: [0.8, 0.1, 0.05, 0.05],
  birthDate: [0.9, 0.05, 0.03, 0.02],
});
const RANDOM_U = probabilities({
  familyName: [0.002, 0.003, 0.35, 0.645],
  givenName: [0.004, 0.005, 0.39, 0.601],
  birthDate: [3.4e-5, 1.2e-3, 0.019, 0.9798],
});
// 400 pairs agree exactly on all three; 2,000 share a family name and birth year only.
const CANDIDATES = patterns([
  [[0, 0, 0], 400],
  [[0, 1, 0], 60],
  [[0, 3, 2], 2000],
  [[1, 0, 0], 40],
]);

function underCheck(overrides: Partial<FitUnderCheck> = {}): FitUnderCheck {
  const anchor = deterministicAnchor(CANDIDATES, RANDOM_U, 5e7);
  const counts = new Float64Array(F * B);
  for (let p = 0; p < CANDIDATES.counts.length; p++) {
    for (let f = 0; f < F; f++) {
      const band = CANDIDATES.bands[p * F + f] ?? MISSING_BAND;
      if (band !== MISSING_BAND) counts[f * B + band] = (counts[f * B + band] ?? 0) + (CANDIDATES.counts[p] ?? 0);
    }
  }
  return {
    m: GOOD_M,
    u: RANDOM_U,
    candidateCounts: counts,
    expectedMatches: 500,
    anchor,
    runs: [{ name: 'the EM over all candidates', converged: true }],
    ...overrides,
  };
}

describe('the deterministic anchor', () => {
  it('counts the candidates agreeing exactly on full name and birth date, less the coincidences random pairs predict', () => {
    const anchor = deterministicAnchor(CANDIDATES, RANDOM_U, 5e7);
    expect(anchor.applies).toBe(true);
    expect(anchor.fields).toEqual(['familyName', 'givenName', 'birthDate']);
    expect(anchor.exactPairs).toBe(400);
    // 5e7 pairs × 0.002 × 0.004 × 3.4e-5 = 0.0136 coincidences.
    expect(anchor.coincidences).toBeCloseTo(5e7 * 0.002 * 0.004 * 3.4e-5, 10);
    expect(anchor.lowerBound).toBeCloseTo(400 - anchor.coincidences, 10);
    expect(anchorRecall(anchor, GOOD_M)).toBeCloseTo(0.85 * 0.8 * 0.9, 12);
  });

  it('does not apply when fewer than two anchor fields are compared in most pairs', () => {
    const onlyFamily = patterns([[[0, MISSING_BAND, MISSING_BAND], 100]]);
    expect(deterministicAnchor(onlyFamily, RANDOM_U, 1e6)).toMatchObject({
      applies: false,
      exactPairs: 0,
      lowerBound: 0,
    });
  });
});

describe('the fit checks', () => {
  it('pass a sensible fit', () => {
    const checks = fitChecks(underCheck());
    expect(checks.map((c) => [c.check, c.passed])).toEqual([
      ['converged', true],
      ['band-order', true],
      ['m-apart-from-u', true],
      ['anchor-lower', true],
      ['anchor-consistent', true],
    ]);
    expect(fitPasses(checks)).toBe(true);
  });

  it('fail a fit that expects about one true pair where 400 agree exactly on full name and birth date (the collapse of issue 22)', () => {
    const checks = fitChecks(underCheck({ expectedMatches: 1.5 }));
    const lower = checks.find((c) => c.check === 'anchor-lower');
    expect(lower?.passed).toBe(false);
    expect(lower?.detail).toMatch(
      /400 candidate pairs agree exactly on family name, given name and birth date .* the fit expects 1\.5 true pairs in all, far fewer/,
    );
    expect(fitPasses(checks)).toBe(false);
  });

  it('fail a fit whose own m promises far more exact agreements than the candidates hold (a fit of non-matches)', () => {
    const anchor: DeterministicAnchor = {
      fields: ['familyName', 'givenName', 'birthDate'],
      applies: true,
      exactPairs: 0,
      coincidences: 0,
      lowerBound: 0,
    };
    const checks = fitChecks(underCheck({ anchor, expectedMatches: 800 }));
    const consistent = checks.find((c) => c.check === 'anchor-consistent');
    expect(consistent?.passed).toBe(false);
    expect(consistent?.detail).toMatch(/describes pairs that are not there/);
  });

  it('fail a fit whose m and λ account for far fewer exact agreements than the candidates hold (true pairs taken for non-matches)', () => {
    // 300 expected true pairs × 0.612 exact on all three = 184 promised, where 400 candidates agree exactly: the fit
    // passes anchor-lower (300 ≥ half of 400) yet its prior is too small to link what it should.
    const checks = fitChecks(underCheck({ expectedMatches: 300 }));
    expect(checks.find((c) => c.check === 'anchor-lower')?.passed).toBe(true);
    const consistent = checks.find((c) => c.check === 'anchor-consistent');
    expect(consistent?.passed).toBe(false);
    expect(consistent?.detail).toBe(
      "the fit's m says 184 of its true pairs agree exactly on family name, given name and birth date; the candidates hold 400 such pairs: the fit takes many true pairs for non-matches, so it expects too few",
    );
    expect(fitPasses(checks)).toBe(false);
    // Three quarters of the true pairs among them (less a margin of 10) pass: 475 × 0.612 = 291 ≥ 290.
    expect(fitChecks(underCheck({ expectedMatches: 475 })).find((c) => c.check === 'anchor-consistent')?.passed).toBe(
      true,
    );
  });

  it('fail a name whose m does not rank its bands (Exact below Partial)', () => {
    const m = Float64Array.from(GOOD_M);
    m[at('familyName', 'Exact')] = 0.2;
    m[at('familyName', 'Partial')] = 0.68;
    const check = fitChecks(underCheck({ m })).find((c) => c.check === 'band-order');
    expect(check?.passed).toBe(false);
    expect(check?.detail).toBe('family name: m(Exact) 0.200 is below m(Partial) 0.680');
    // Below Different only: the detail names that band alone.
    m[at('familyName', 'Partial')] = 0.03;
    m[at('familyName', 'Different')] = 0.69;
    expect(fitChecks(underCheck({ m })).find((c) => c.check === 'band-order')?.detail).toBe(
      'family name: m(Exact) 0.200 is below m(Different) 0.690',
    );
  });

  it('fail a field whose m is close to u', () => {
    const m = Float64Array.from(RANDOM_U);
    const check = fitChecks(underCheck({ m })).find((c) => c.check === 'm-apart-from-u');
    expect(check?.passed).toBe(false);
    expect(check?.detail).toMatch(
      /family name \(distance 0\.00\), given name \(distance 0\.00\), birth date \(distance 0\.00\)/,
    );
  });

  it('fail when an EM run stopped at the iteration limit with its likelihood still rising, naming it', () => {
    const runs = [
      { name: 'the EM over all candidates', converged: true, lastChange: 1e-8 },
      { name: 'the m session of rule family-given-phonetic', converged: false, lastChange: 0.02 },
    ];
    const check = fitChecks(underCheck({ runs })).find((c) => c.check === 'converged');
    expect(check?.passed).toBe(false);
    expect(check?.detail).toBe(
      'the m session of rule family-given-phonetic stopped at the iteration limit with the likelihood still rising, without converging (a larger limit may let it converge: maxIterations, up to 10,000, or --max-iterations on the command line)',
    );
    // A run that reports no last change is judged still rising.
    expect(
      fitChecks(underCheck({ runs: [{ name: 'the EM over all candidates', converged: false }] })).find(
        (c) => c.check === 'converged',
      )?.passed,
    ).toBe(false);
  });

  it('pass, saying so, a run stopped at the limit whose likelihood had settled (parameters creeping along a ridge)', () => {
    const runs = [
      { name: 'the EM over all candidates', converged: true, lastChange: 1e-8 },
      { name: 'the m session of rule given-prefix-birth-year', converged: false, lastChange: 3e-6 },
    ];
    const check = fitChecks(underCheck({ runs })).find((c) => c.check === 'converged');
    expect(check?.passed).toBe(true);
    expect(check?.detail).toMatch(
      /^the m session of rule given-prefix-birth-year stopped at the iteration limit with the likelihood settled .* not converged/,
    );
  });
});
