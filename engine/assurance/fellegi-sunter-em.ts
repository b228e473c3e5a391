/**
 * Expectation-maximisation for the Fellegi-Sunter two-class mixture under conditional independence
 * (Winkler 1988, "Using the EM algorithm for weight computation in the Fellegi-Sunter model of record
 * linkage", ASA Proc. Survey Research Methods 667-671; Jaro 1989, "Advances in record-linkage methodology
 * as applied to matching the 1985 Census of Tampa, Florida", JASA 84:414-420).
 *
 * Each compared pair is a vector of bands γ (one per field, or missing). With λ = P(match) among the pairs,
 * m_fb = P(field f in band b | match) and u_fb = P(band b | non-match),
 *     P(γ) = λ Π_f m_f,γf + (1 − λ) Π_f u_f,γf      (missing fields left out of both products).
 * E-step: the posterior g(γ) = λ Π m / P(γ) of every distinct pattern. M-step: expected band counts
 *     m_fb = (Σ_γ n_γ g(γ) [γf = b] + s) / (Σ_γ n_γ g(γ) [γf observed] + 4s),    λ = Σ n_γ g(γ) / Σ n_γ
 * (u likewise with 1 − g, unless u is held fixed, as Splink does with u from random pairs; m and λ can be held
 * too, which leaves EM estimating u alone: non-match-u.ts). An optional weak Dirichlet prior on m (mPrior) adds
 * strength × m0_fb pseudo-pairs to m's counts. The pseudo-count s
 * is the additive smoothing of calibration (calibrate.ts), so no m or u reaches 0 or 1; with it EM maximises
 * the log-likelihood plus s Σ ln m (+ s Σ ln u when u is estimated), i.e. the posterior under a Dirichlet(1 + s)
 * prior, and that objective never decreases from one iteration to the next (Dempster, Laird & Rubin 1977).
 *
 * Pairs are grouped by pattern first (at most 5^fields distinct, in practice a few thousand), so an
 * iteration costs O(patterns × fields), not O(pairs). Stops when no parameter moves by more than `tolerance`
 * in one iteration, or after `maxIterations`.
 */
import { BANDS } from '../contract/fields.ts';
import { squarem } from '../stats/squarem.ts';

/** A field that is missing on either side (or whose agreement scoring does not count) in a pattern. */
export const MISSING_BAND = 255;
const B = BANDS.length;

export interface BandPatterns {
  readonly fieldCount: number;
  /** Band index (BANDS order) or MISSING_BAND, at pattern * fieldCount + field. */
  readonly bands: Uint8Array;
  /** How many pairs have each pattern. */
  readonly counts: Float64Array;
}

export interface MixtureParameters {
  /** P(band | match) at field * 4 + band. */
  readonly m: Float64Array;
  /** P(band | non-match) at field * 4 + band. */
  readonly u: Float64Array;
  /** P(match) among the pairs. */
  readonly lambda: number;
}

export interface EmOptions {
  /** Pseudo-count added to every band (> 0). */
  readonly smoothing: number;
  /** Converged when no m, u or λ changes by more than this in one iteration. */
  readonly tolerance: number;
  readonly maxIterations: number;
  /** Hold u at its starting value (estimated elsewhere, e.g. from random pairs) and estimate m and λ only. */
  readonly fixU: boolean;
  /** Hold m at its starting value (default: estimated). */
  readonly fixM?: boolean;
  /** Hold λ at its starting value (default: estimated). */
  readonly fixLambda?: boolean;
  /** Every probability is kept within [floor, 1 − floor] (the model's bounds). */
  readonly floor: number;
  /**
   * A weak Dirichlet prior on m: `strength` pseudo-pairs per field spread as `m` says (the default model's m). It
   * keeps a field's m sensible when few pairs are expected matches (a fit drifting towards λ ≈ 0 otherwise takes m
   * from a handful of pairs) and is negligible once hundreds of pairs are (Enamorado, Fifield and Imai 2019 use such
   * priors for the same reason).
   */
  readonly mPrior?: { readonly m: Float64Array; readonly strength: number };
  /**
   * Accelerate with SQUAREM (engine/stats/squarem.ts): the same fixed point and stopping rule, in far fewer steps
   * where plain EM crawls (a session whose few fields leave m and λ on a ridge took 4,000 to 10,000 steps).
   * `maxIterations` then bounds the EM steps.
   */
  readonly accelerate?: boolean;
}

export interface EmResult {
  readonly parameters: MixtureParameters;
  readonly iterations: number;
  readonly converged: boolean;
  /** The objective (log-likelihood plus the smoothing's log-prior terms) at the final parameters. */
  readonly objective: number;
  /** The log-likelihood alone at the final parameters. */
  readonly logLikelihood: number;
  /** The objective's change over the last iteration (≥ 0 up to rounding). */
  readonly lastObjectiveChange: number;
  /** The largest parameter change over the last iteration. */
  readonly lastParameterChange: number;
  /** The objective after each iteration, starting with the starting values'. */
  readonly objectiveHistory: readonly number[];
  /** P(match | pattern) under the final parameters, per pattern. */
  readonly posterior: Float64Array;
}

function clamp(p: number, floor: number): number {
  return Math.min(1 - floor, Math.max(floor, p));
}

/** ln(e^a + e^b) without overflow. */
function logSumExp(a: number, b: number): number {
  const hi = Math.max(a, b);
  return hi + Math.log(Math.exp(a - hi) + Math.exp(b - hi));
}

/** Fills `posterior` for the parameters and returns the log-likelihood of all pairs. */
export function expectation(patterns: BandPatterns, params: MixtureParameters, posterior: Float64Array): number {
  const { fieldCount: F, bands, counts } = patterns;
  const logM = Math.log(params.lambda);
  const logU = Math.log(1 - params.lambda);
  let logLikelihood = 0;
  for (let p = 0; p < counts.length; p++) {
    let a = logM;
    let b = logU;
    for (let f = 0; f < F; f++) {
      const band = bands[p * F + f] ?? MISSING_BAND;
      if (band === MISSING_BAND) continue;
      a += Math.log(params.m[f * B + band] ?? 1);
      b += Math.log(params.u[f * B + band] ?? 1);
    }
    const total = logSumExp(a, b);
    posterior[p] = Math.exp(a - total);
    logLikelihood += (counts[p] ?? 0) * total;
  }
  return logLikelihood;
}

/** The smoothing's log-prior terms of the estimated parameters: s Σ ln m (unless m is held) + s Σ ln u (unless u is held). */
function logPrior(params: MixtureParameters, options: EmOptions): number {
  let sum = 0;
  let prior = 0;
  for (let i = 0; i < params.m.length; i++) {
    sum += (options.fixM === true ? 0 : Math.log(params.m[i] ?? 1)) + (options.fixU ? 0 : Math.log(params.u[i] ?? 1));
    if (options.mPrior !== undefined && options.fixM !== true)
      prior += options.mPrior.strength * (options.mPrior.m[i] ?? 0) * Math.log(params.m[i] ?? 1);
  }
  return options.smoothing * sum + prior;
}

/** Smoothed, bounded band probabilities from expected counts, per field (with the prior's pseudo-pairs, when given). */
function normalise(
  expected: Float64Array,
  fieldCount: number,
  options: EmOptions,
  prior?: EmOptions['mPrior'],
): Float64Array {
  const out = new Float64Array(expected.length);
  const strength = prior?.strength ?? 0;
  for (let f = 0; f < fieldCount; f++) {
    let n = 0;
    for (let b = 0; b < B; b++) n += expected[f * B + b] ?? 0;
    for (let b = 0; b < B; b++) {
      const pseudo = strength * (prior?.m[f * B + b] ?? 0);
      out[f * B + b] = clamp(
        ((expected[f * B + b] ?? 0) + options.smoothing + pseudo) / (n + B * options.smoothing + strength),
        options.floor,
      );
    }
  }
  return out;
}

function maximisation(
  patterns: BandPatterns,
  posterior: Float64Array,
  current: MixtureParameters,
  options: EmOptions,
): MixtureParameters {
  const { fieldCount: F, bands, counts } = patterns;
  const em = new Float64Array(F * B);
  const eu = new Float64Array(F * B);
  let matches = 0;
  let total = 0;
  for (let p = 0; p < counts.length; p++) {
    const n = counts[p] ?? 0;
    const g = posterior[p] ?? 0;
    matches += n * g;
    total += n;
    for (let f = 0; f < F; f++) {
      const band = bands[p * F + f] ?? MISSING_BAND;
      if (band === MISSING_BAND) continue;
      em[f * B + band] = (em[f * B + band] ?? 0) + n * g;
      eu[f * B + band] = (eu[f * B + band] ?? 0) + n * (1 - g);
    }
  }
  return {
    m: options.fixM === true ? current.m : normalise(em, F, options, options.mPrior),
    u: options.fixU ? current.u : normalise(eu, F, options),
    lambda: options.fixLambda === true || total === 0 ? current.lambda : clamp(matches / total, options.floor),
  };
}

function largestChange(a: MixtureParameters, b: MixtureParameters): number {
  let change = Math.abs(a.lambda - b.lambda);
  for (let i = 0; i < a.m.length; i++)
    change = Math.max(change, Math.abs((a.m[i] ?? 0) - (b.m[i] ?? 0)), Math.abs((a.u[i] ?? 0) - (b.u[i] ?? 0)));
  return change;
}

/** m, u and λ as one vector (SQUAREM extrapolates them together), and back. */
function pack(params: MixtureParameters): Float64Array {
  const x = new Float64Array(params.m.length * 2 + 1);
  x.set(params.m, 0);
  x.set(params.u, params.m.length);
  x[x.length - 1] = params.lambda;
  return x;
}

function unpack(x: Float64Array): MixtureParameters {
  const k = (x.length - 1) / 2;
  return { m: x.slice(0, k), u: x.slice(k, 2 * k), lambda: x[x.length - 1] ?? 0 };
}

/** EM accelerated by SQUAREM; answers the final parameters and the run's figures but the final E-step. */
function accelerated(
  patterns: BandPatterns,
  start: MixtureParameters,
  options: EmOptions,
): { params: MixtureParameters; iterations: number; lastParameterChange: number; history: number[] } {
  const posterior = new Float64Array(patterns.counts.length);
  const result = squarem(pack(start), {
    map: (x) => {
      const params = unpack(x);
      const objective = expectation(patterns, params, posterior) + logPrior(params, options);
      return { next: pack(maximisation(patterns, posterior, params, options)), objective };
    },
    feasible: (x) => x.every((p) => p >= options.floor && p <= 1 - options.floor),
    tolerance: options.tolerance,
    maxSteps: options.maxIterations,
  });
  return {
    params: unpack(result.x),
    iterations: result.steps,
    lastParameterChange: result.lastChange,
    history: [...result.objectives],
  };
}

export function fitMixture(patterns: BandPatterns, start: MixtureParameters, options: EmOptions): EmResult {
  if (!(options.smoothing > 0)) throw new RangeError('smoothing must be positive');
  if (start.m.length !== patterns.fieldCount * B || start.u.length !== patterns.fieldCount * B)
    throw new RangeError('m and u need 4 bands per field');
  const posterior = new Float64Array(patterns.counts.length);
  let params: MixtureParameters = {
    m: Float64Array.from(start.m),
    u: Float64Array.from(start.u),
    lambda: clamp(start.lambda, options.floor),
  };
  if (options.accelerate === true) {
    const run = accelerated(patterns, params, options);
    const logLikelihood = expectation(patterns, run.params, posterior);
    const objective = logLikelihood + logPrior(run.params, options);
    const previous = run.history[run.history.length - 1] ?? objective;
    return {
      parameters: run.params,
      iterations: run.iterations,
      converged: run.lastParameterChange <= options.tolerance,
      objective,
      logLikelihood,
      lastObjectiveChange: objective - previous,
      lastParameterChange: run.lastParameterChange,
      objectiveHistory: [...run.history, objective],
      posterior,
    };
  }
  let logLikelihood = expectation(patterns, params, posterior);
  let objective = logLikelihood + logPrior(params, options);
  const history = [objective];
  let iterations = 0;
  let converged = false;
  let lastParameterChange = Number.POSITIVE_INFINITY;
  let lastObjectiveChange = Number.POSITIVE_INFINITY;
  while (iterations < options.maxIterations) {
    const next = maximisation(patterns, posterior, params, options);
    lastParameterChange = largestChange(params, next);
    params = next;
    iterations++;
    logLikelihood = expectation(patterns, params, posterior);
    const nextObjective = logLikelihood + logPrior(params, options);
    lastObjectiveChange = nextObjective - objective;
    objective = nextObjective;
    history.push(objective);
    if (lastParameterChange <= options.tolerance) {
      converged = true;
      break;
    }
  }
  return {
    parameters: params,
    iterations,
    converged,
    objective,
    logLikelihood,
    lastObjectiveChange,
    lastParameterChange,
    objectiveHistory: history,
    posterior,
  };
}
