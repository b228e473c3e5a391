/**
 * SQUAREM: squared extrapolation of a slowly converging fixed-point iteration such as EM (Varadhan and Roland,
 * "Simple and globally convergent methods for accelerating the convergence of any EM algorithm", Scandinavian
 * Journal of Statistics 35:335-353, 2008; scheme S3, with the step length kept at least 1 and the objective made
 * monotone as in their R package `SQUAREM`).
 *
 * EM converges linearly: when the data say little about some parameters (a mixture whose classes overlap, a ridge
 * of nearly equal likelihood) each step moves them a little less than the one before, and thousands of steps are
 * needed. One SQUAREM cycle takes two steps from x0, x1 = F(x0) and x2 = F(x1), and with r = x1 − x0,
 * v = x2 − x1 − r and α = −‖r‖ / ‖v‖ (at most −1) jumps to
 *     x' = x0 − 2α r + α² v,
 * then takes one step from there (stabilisation). α = −1 gives x' = x2, that is plain EM. When x' leaves the
 * feasible set, or the objective after the stabilising step is below the objective at x0, α is moved halfway to
 * −1 and the cycle tried again, so the objective never decreases and a cycle is never worse than plain EM.
 *
 * `map(x)` is one step of the iteration: it answers F(x) and the objective at x (EM's E-step gives the
 * log-likelihood at x on the way to the M-step). Converged when one step moves no coordinate by more than
 * `tolerance`, the criterion plain EM uses, so an accelerated fit stops where plain EM, run long enough, would.
 */

export interface FixedPointStep {
  /** F(x), the next point of the plain iteration. */
  readonly next: Float64Array;
  /** The objective at x (to be maximised). */
  readonly objective: number;
}

export interface SquaremOptions {
  /** One step of the iteration from x. */
  readonly map: (x: Float64Array) => FixedPointStep;
  /** Whether x may be given to map (e.g. every probability within its bounds). */
  readonly feasible: (x: Float64Array) => boolean;
  /** Converged when one step moves no coordinate by more than this. */
  readonly tolerance: number;
  /** At most this many steps (calls of map). */
  readonly maxSteps: number;
}

export interface SquaremResult {
  /** The last point reached by a plain step (F of the point before it). */
  readonly x: Float64Array;
  /** Calls of map. */
  readonly steps: number;
  readonly converged: boolean;
  /** The largest coordinate change of the last plain step. */
  readonly lastChange: number;
  /** The objective at every accepted point, the start's first; never decreasing. */
  readonly objectives: readonly number[];
}

function largestChange(a: Float64Array, b: Float64Array): number {
  let change = 0;
  for (let i = 0; i < a.length; i++) change = Math.max(change, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return change;
}

function norm(x: Float64Array): number {
  let s = 0;
  for (const v of x) s += v * v;
  return Math.sqrt(s);
}

/** α moved halfway to −1 (exactly −1 once within 0.01 of it, plain EM). */
function towardsPlain(alpha: number): number {
  const next = alpha / 2 - 0.5;
  return next > -1.01 ? -1 : next;
}

export function squarem(start: Float64Array, options: SquaremOptions): SquaremResult {
  const { map, feasible, tolerance, maxSteps } = options;
  let steps = 0;
  const step = (x: Float64Array): FixedPointStep => {
    steps++;
    return map(x);
  };
  const n = start.length;
  const r = new Float64Array(n);
  const v = new Float64Array(n);
  // x0 is the cycle's start, x1 = F(x0), `atX0` the objective at x0.
  let x0: Float64Array = Float64Array.from(start);
  const first = step(x0);
  let x1: Float64Array = first.next;
  let atX0 = first.objective;
  const objectives = [atX0];
  let lastChange = largestChange(x0, x1);
  while (lastChange > tolerance && steps < maxSteps) {
    const second = step(x1);
    const x2 = second.next;
    lastChange = largestChange(x1, x2);
    if (lastChange <= tolerance || steps + 2 > maxSteps) {
      objectives.push(second.objective);
      x1 = x2;
      break;
    }
    for (let i = 0; i < n; i++) {
      r[i] = (x1[i] ?? 0) - (x0[i] ?? 0);
      v[i] = (x2[i] ?? 0) - (x1[i] ?? 0) - (r[i] ?? 0);
    }
    const normV = norm(v);
    let alpha = normV > 0 ? Math.min(-1, -norm(r) / normV) : -1;
    for (;;) {
      const plain = alpha === -1 || steps + 4 > maxSteps;
      const jumped = plain ? x2 : new Float64Array(n);
      if (!plain) {
        for (let i = 0; i < n; i++) jumped[i] = (x0[i] ?? 0) - 2 * alpha * (r[i] ?? 0) + alpha * alpha * (v[i] ?? 0);
        if (!feasible(jumped)) {
          alpha = towardsPlain(alpha);
          continue;
        }
      }
      // One step from the jump (stabilisation), then one more, which gives the objective there and the next x1.
      const stabilised = step(jumped).next;
      const after = step(stabilised);
      // Plain EM never lowers the objective (up to rounding), so it is taken as it comes.
      if (plain || after.objective >= atX0) {
        lastChange = largestChange(stabilised, after.next);
        objectives.push(after.objective);
        x0 = stabilised;
        x1 = after.next;
        atX0 = after.objective;
        break;
      }
      alpha = towardsPlain(alpha);
    }
  }
  return { x: x1, steps, converged: lastChange <= tolerance, lastChange, objectives };
}
