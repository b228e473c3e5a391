import { describe, expect, it } from 'vitest';
import { squarem, type FixedPointStep } from '../../../engine/stats/squarem.ts';

/**
 * A contraction towards x* with a rate per coordinate, F(x) = x* + ρ (x − x*), and the objective −‖x − x*‖², which
 * every step raises: plain iteration needs about ln(tolerance) / ln(ρ) steps, 13,800 at ρ = 0.999.
 */
const TARGET = Float64Array.from([0.3, 0.6, 0.1]);
const RATES = [0.999, 0.99, 0.5];
function contraction(x: Float64Array): FixedPointStep {
  let distance = 0;
  const next = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const d = (x[i] ?? 0) - (TARGET[i] ?? 0);
    distance += d * d;
    next[i] = (TARGET[i] ?? 0) + (RATES[i] ?? 0) * d;
  }
  return { next, objective: -distance };
}
const inUnitBox = (x: Float64Array): boolean => x.every((v) => v >= 0 && v <= 1);

function plainSteps(start: Float64Array, tolerance: number): number {
  let x = start;
  for (let steps = 1; ; steps++) {
    const next = contraction(x).next;
    if (Math.max(...next.map((v, i) => Math.abs(v - (x[i] ?? 0)))) <= tolerance) return steps;
    x = next;
  }
}

describe('SQUAREM (Varadhan and Roland 2008)', () => {
  const start = Float64Array.from([0.9, 0.05, 0.9]);

  it('reaches the fixed point of a slow iteration in a small share of the plain steps, never lowering the objective', () => {
    const result = squarem(start, { map: contraction, feasible: inUnitBox, tolerance: 1e-9, maxSteps: 100_000 });
    expect(result.converged).toBe(true);
    for (let i = 0; i < TARGET.length; i++) expect(result.x[i]).toBeCloseTo(TARGET[i] ?? 0, 6);
    const plain = plainSteps(start, 1e-9);
    expect(plain).toBeGreaterThan(10_000);
    expect(result.steps).toBeLessThan(plain / 20);
    for (let i = 1; i < result.objectives.length; i++)
      expect(result.objectives[i]).toBeGreaterThanOrEqual(result.objectives[i - 1] ?? Number.NEGATIVE_INFINITY);
  });

  it('gives map only feasible points: a jump outside is pulled back towards plain steps', () => {
    // The fixed point sits on the box's edge, where long jumps overshoot it.
    const edge = Float64Array.from([1, 0, 0.5]);
    const towardsEdge = (x: Float64Array): FixedPointStep => {
      let distance = 0;
      const next = x.map((v, i) => {
        const d = v - (edge[i] ?? 0);
        distance += d * d;
        return (edge[i] ?? 0) + 0.995 * d;
      });
      return { next, objective: -distance };
    };
    const seen: Float64Array[] = [];
    const result = squarem(Float64Array.from([0.2, 0.7, 0.9]), {
      map: (x) => {
        seen.push(Float64Array.from(x));
        return towardsEdge(x);
      },
      feasible: inUnitBox,
      tolerance: 1e-10,
      maxSteps: 100_000,
    });
    expect(result.converged).toBe(true);
    expect(seen.every(inUnitBox)).toBe(true);
    expect(result.x[0]).toBeCloseTo(1, 6);
    expect(result.x[1]).toBeCloseTo(0, 6);
  });

  it('takes at most maxSteps steps and says it did not converge', () => {
    for (const maxSteps of [1, 2, 3, 4, 5, 9, 10]) {
      let calls = 0;
      const result = squarem(start, {
        map: (x) => {
          calls++;
          return contraction(x);
        },
        feasible: inUnitBox,
        tolerance: 1e-15,
        maxSteps,
      });
      expect(calls).toBe(result.steps);
      expect(result.steps).toBeLessThanOrEqual(maxSteps);
      expect(result.converged).toBe(false);
    }
  });

  it('stops at once when the start is the fixed point', () => {
    const result = squarem(TARGET, { map: contraction, feasible: inUnitBox, tolerance: 1e-12, maxSteps: 10 });
    expect(result).toMatchObject({ steps: 1, converged: true, lastChange: 0 });
  });
});
