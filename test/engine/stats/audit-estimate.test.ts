import { describe, expect, it } from 'vitest';
import { auditEstimate, type AuditStratum } from '../../../engine/stats/audit-estimate.ts';
import { createRng } from '../../../engine/synthetic/prng.ts';

/** A population of strata with known match shares; labels drawn without replacement from each. */
const POPULATION = [
  { name: 'linked', linked: true, population: 20_000, share: 0.994 },
  { name: 'review band', linked: false, population: 600, share: 0.35 },
  { name: 'near', linked: false, population: 8_000, share: 0.01 },
  { name: 'far', linked: false, population: 200_000, share: 0.0002 },
] as const;

function truth(): { precision: number; recall: number } {
  const matches = POPULATION.map((s) => Math.round(s.population * s.share));
  const linked = matches[0] ?? 0;
  const notLinked = matches.slice(1).reduce((a, b) => a + b, 0);
  return { precision: linked / POPULATION[0].population, recall: linked / (linked + notLinked) };
}

function sample(seed: number, labels: readonly number[]): AuditStratum[] {
  const rng = createRng(seed);
  return POPULATION.map((s, i) => {
    const positives = Math.round(s.population * s.share);
    const n = labels[i] ?? 0;
    // Hypergeometric draw: n pairs without replacement from population with `positives` matches.
    let matches = 0;
    let remaining = s.population;
    let left = positives;
    for (let k = 0; k < n; k++) {
      if (rng.next() < left / remaining) {
        matches++;
        left--;
      }
      remaining--;
    }
    return { name: s.name, linked: s.linked, population: s.population, labelled: n, matches };
  });
}

describe('auditEstimate (stratified expansion, Bonferroni-Wilson bounds)', () => {
  it('covers the true precision and recall in at least 90 of 100 seeded samples of 400 labels, the point estimates within 0.02 of the truth on average', () => {
    const { precision, recall } = truth();
    let coveredP = 0;
    let coveredR = 0;
    let errorP = 0;
    let errorR = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const e = auditEstimate(sample(seed, [160, 80, 80, 80]));
      if ((e.precision.lower ?? 2) <= precision && precision <= (e.precision.upper ?? -1)) coveredP++;
      if ((e.recall.lower ?? 2) <= recall && recall <= (e.recall.upper ?? -1)) coveredR++;
      errorP += Math.abs((e.precision.estimate ?? 0) - precision);
      errorR += Math.abs((e.recall.estimate ?? 0) - recall);
    }
    expect(coveredP).toBeGreaterThanOrEqual(90);
    expect(coveredR).toBeGreaterThanOrEqual(90);
    expect(errorP / 100).toBeLessThan(0.02);
    expect(errorR / 100).toBeLessThan(0.02);
  });

  it('gives exact figures when every pair is labelled, and bounds that contain them', () => {
    const strata: AuditStratum[] = [
      { name: 'linked', linked: true, population: 50, labelled: 50, matches: 48 },
      { name: 'other', linked: false, population: 20, labelled: 20, matches: 2 },
    ];
    const e = auditEstimate(strata);
    expect(e.precision.estimate).toBeCloseTo(48 / 50, 12);
    expect(e.recall.estimate).toBeCloseTo(48 / 50, 12);
    expect(e.f1.estimate).toBeCloseTo(0.96, 12);
    expect(e.precision.lower ?? 1).toBeLessThan(0.96);
    expect(e.precision.upper ?? 0).toBeGreaterThan(0.96);
    expect(e.labelsToHalveInterval).toBe(280);
  });

  it('refuses impossible counts', () => {
    expect(() => auditEstimate([{ name: 'x', linked: true, population: 5, labelled: 6, matches: 1 }])).toThrow(
      RangeError,
    );
    expect(() => auditEstimate([{ name: 'x', linked: true, population: 5, labelled: 2, matches: 3 }])).toThrow(
      RangeError,
    );
  });
});
