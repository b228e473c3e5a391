import { describe, expect, it } from 'vitest';
import { fitMixture, MISSING_BAND } from '../../../engine/assurance/fellegi-sunter-em.ts';
import { isPersonRule, MIN_SESSION_PAIRS, sessionM, type Session } from '../../../engine/assurance/session-m.ts';
import { drawPairs, groupPatterns } from '../../helpers/mixture.ts';

const FIELDS = 3;
const M = Float64Array.from([0.8, 0.1, 0.05, 0.05, 0.8, 0.1, 0.05, 0.05, 0.8, 0.1, 0.05, 0.05]);
const U = Float64Array.from([0.01, 0.04, 0.15, 0.8, 0.01, 0.04, 0.15, 0.8, 0.01, 0.04, 0.15, 0.8]);
const OPTIONS = { smoothing: 1, tolerance: 1e-8, maxIterations: 5_000, floor: 1e-6 };

/** Blocking rule r brings together the pairs agreeing exactly on field r; its session leaves field r out. */
function sessionOf(rows: readonly (readonly number[])[], r: number): Session {
  return {
    rule: `field-${r}`,
    blocked: [r],
    patterns: groupPatterns(
      rows.filter((row) => row[r] === 0).map((row) => row.map((b, f) => (f === r ? MISSING_BAND : b))),
      FIELDS,
    ),
  };
}

function largestError(m: Float64Array): number {
  return Math.max(...m.map((x, i) => Math.abs(x - (M[i] ?? 0))));
}

describe('m from one EM session per blocking rule', () => {
  // Record pairs of a population, one in 100 a match.
  const rows = drawPairs({ m: M, u: U, lambda: 0.01 }, FIELDS, 2_000_000, 7);
  const candidates = rows.filter((row) => row.includes(0));
  const start = Float64Array.from({ length: 12 }, () => 0.25);

  it('recovers m where one EM over all blocking candidates cannot: the candidates were chosen by the fields it models', () => {
    const bySession = sessionM(
      [0, 1, 2].map((r) => sessionOf(rows, r)),
      U,
      start,
      OPTIONS,
    );
    expect([...bySession.estimated]).toEqual([1, 1, 1]);
    expect(largestError(bySession.m)).toBeLessThan(0.01);
    for (const fit of bySession.fits) {
      expect(fit.converged).toBe(true);
      // Among pairs agreeing exactly on one field, 0.01 × 0.8 / (0.01 × 0.8 + 0.99 × 0.01) are matches.
      expect(fit.matchShare).toBeCloseTo(0.008 / (0.008 + 0.0099), 1);
    }
    // The same candidates in one fit, u free (how estimate fitted before sessions): every candidate non-match
    // agrees on some field, which two independent classes cannot express.
    const joint = fitMixture(
      groupPatterns(candidates, FIELDS),
      { m: Float64Array.from(M), u: Float64Array.from(U), lambda: 0.5 },
      { ...OPTIONS, fixU: false },
    );
    expect(largestError(joint.parameters.m)).toBeGreaterThan(3 * largestError(bySession.m));
    // Each field's m is still a distribution.
    for (let f = 0; f < FIELDS; f++)
      expect(bySession.m.subarray(f * 4, f * 4 + 4).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
  });

  it('leaves a field every session blocks on to its starting m, and fits no session with too few pairs', () => {
    const small = sessionOf(rows.slice(0, 1_000), 1);
    expect(small.patterns.counts.reduce((a, b) => a + b, 0)).toBeLessThan(MIN_SESSION_PAIRS);
    const bySession = sessionM([sessionOf(rows, 0), small], U, start, OPTIONS);
    expect([...bySession.estimated]).toEqual([0, 1, 1]);
    expect([...bySession.m.subarray(0, 4)]).toEqual([...start.subarray(0, 4)]);
    expect(bySession.fits[1]).toMatchObject({ rule: 'field-1', matchShare: null, iterations: 0 });
  });

  it('takes rules over the person only: a household shares address, phone, e-mail, postcode and city', () => {
    expect(
      isPersonRule({
        Name: 'a',
        Parts: [
          { Field: 'familyName', Transform: 'Phonetic' },
          { Field: 'birthDate', Transform: 'Year' },
        ],
      }),
    ).toBe(true);
    expect(isPersonRule({ Name: 'b', Parts: [{ Field: 'identifier', Transform: 'Exact' }] })).toBe(true);
    expect(
      isPersonRule({
        Name: 'c',
        Parts: [
          { Field: 'familyName', Transform: 'Phonetic' },
          { Field: 'postalCode', Transform: 'Exact' },
        ],
      }),
    ).toBe(false);
    expect(isPersonRule({ Name: 'd', Parts: [{ Field: 'phone', Transform: 'Exact' }] })).toBe(false);
  });
});
