/**
 * The estimate's fit from several seeded starts, each checked (fit-checks.ts) before it may be used.
 *
 * EM finds a local optimum of the likelihood, and which one depends on where it starts: on sparse data a start
 * far from the true split can settle on λ ≈ 0 or on a split by family (siblings look alike on family name and
 * birth year). So the same fit (one EM over all candidates, m per field from the person-rule sessions, then λ and
 * the candidates' u with that m held: estimate.ts) runs from:
 *
 *   profile model         the active model's m (or the default model's), λ 0.1
 *   deterministic anchor  the same m, λ from the exact agreements on full name and birth date divided by the
 *                         anchor's recall under that m (deterministic-anchor.ts), as Splink anchors its prior
 *   seeded start 1..3     the m perturbed (each band × e^z, z uniform in ±0.7, renormalised) and λ around the
 *                         anchor's, from a PRNG seeded by the request's seed: deterministic for a seed
 *
 * each with a weak prior on m towards the starting model's (fellegi-sunter-em.ts mPrior). The fit with the highest
 * likelihood among those passing every check is used; when none passes, estimate.ts falls back and says so.
 */
import { BANDS } from '../contract/fields.ts';
import { createRng, deriveSeed } from '../synthetic/prng.ts';
import { anchorRecall, type DeterministicAnchor } from './deterministic-anchor.ts';
import { fitMixture, type BandPatterns, type EmOptions, type EmResult } from './fellegi-sunter-em.ts';
import { fitChecks, fitPasses, type FitCheck } from './fit-checks.ts';
import { sessionM, type Session, type SessionM } from './session-m.ts';
import { FIELD_COUNT } from '../scoring/field-comparison.ts';

const B = BANDS.length;
/** Where EM started before the anchor existed, and where it starts when there is no anchor. */
export const STARTING_MATCH_SHARE = 0.1;
/** Pseudo-pairs per field of the weak prior on m. */
export const M_PRIOR_STRENGTH = 20;
const SEEDED_STARTS = 3;
const PERTURBATION = 0.7;

export interface FitAttempt {
  readonly start: string;
  readonly joint: EmResult;
  readonly bySession: SessionM;
  /** λ and the candidates' u fitted with the final m held (or the joint fit when no session estimated m). */
  readonly fit: EmResult;
  readonly checks: readonly FitCheck[];
  readonly passed: boolean;
  /** Every EM run behind this attempt met its tolerance (the converged check also passes a run whose likelihood settled). */
  readonly converged: boolean;
}

export interface RobustFitInput {
  readonly patterns: BandPatterns;
  /** Band counts over the candidates (pattern-index.ts bandCounts of `patterns`), the same for every start. */
  readonly candidateCounts: Float64Array;
  readonly sessions: readonly Session[];
  readonly randomU: Float64Array;
  /** The starting model's m (the active model's, else the default model's). */
  readonly startM: Float64Array;
  readonly anchor: DeterministicAnchor;
  readonly modelled: number;
  readonly seed: number;
  readonly em: Omit<EmOptions, 'fixU' | 'fixM' | 'fixLambda' | 'mPrior'>;
  /** Called before each start (progress). */
  readonly onStart?: (index: number, of: number) => void;
}

/** The sessions' m for the fields they estimated, the joint fit's for the rest. */
export function mixedM(bySession: SessionM, jointM: Float64Array): Float64Array {
  const m = Float64Array.from(jointM);
  for (let f = 0; f < FIELD_COUNT; f++)
    if (bySession.estimated[f] === 1) m.set(bySession.m.subarray(f * B, (f + 1) * B), f * B);
  return m;
}

function clampShare(lambda: number): number {
  return Math.min(0.9, Math.max(1e-5, lambda));
}

/** λ the anchor implies under m, or the plain starting share when there is no usable anchor. */
export function anchorShare(anchor: DeterministicAnchor, m: Float64Array, modelled: number): number {
  const recall = anchorRecall(anchor, m);
  if (!anchor.applies || anchor.lowerBound <= 0 || recall <= 0 || modelled <= 0) return STARTING_MATCH_SHARE;
  return clampShare(anchor.lowerBound / recall / modelled);
}

function perturbed(m: Float64Array, next: () => number, floor: number): Float64Array {
  const out = new Float64Array(m.length);
  for (let f = 0; f < m.length / B; f++) {
    let sum = 0;
    for (let b = 0; b < B; b++) {
      const v = (m[f * B + b] ?? 0) * Math.exp((2 * next() - 1) * PERTURBATION);
      out[f * B + b] = v;
      sum += v;
    }
    for (let b = 0; b < B; b++) out[f * B + b] = Math.min(1 - floor, Math.max(floor, (out[f * B + b] ?? 0) / sum));
  }
  return out;
}

function attempt(input: RobustFitInput, start: string, m: Float64Array, lambda: number): FitAttempt {
  const mPrior = { m, strength: M_PRIOR_STRENGTH };
  const options = { ...input.em, mPrior };
  const joint = fitMixture(
    input.patterns,
    { m, u: Float64Array.from(input.randomU), lambda },
    { ...options, fixU: false },
  );
  const bySession = sessionM(input.sessions, input.randomU, m, options);
  const sessionFields = bySession.estimated.some((e) => e === 1);
  const fit = sessionFields
    ? fitMixture(
        input.patterns,
        { m: mixedM(bySession, joint.parameters.m), u: joint.parameters.u, lambda: joint.parameters.lambda },
        { ...options, fixU: false, fixM: true },
      )
    : joint;
  const runs = [
    { name: 'the EM over all candidates', converged: joint.converged, lastChange: joint.lastObjectiveChange },
    ...bySession.fits
      .filter((s) => s.matchShare !== null)
      .map((s) => ({
        name: `the m session of rule ${s.rule}`,
        converged: s.converged,
        lastChange: s.lastLogLikelihoodChange ?? Number.POSITIVE_INFINITY,
      })),
    ...(sessionFields
      ? [{ name: 'the EM for λ with m held', converged: fit.converged, lastChange: fit.lastObjectiveChange }]
      : []),
  ];
  const checks = fitChecks({
    m: fit.parameters.m,
    u: input.randomU,
    candidateCounts: input.candidateCounts,
    expectedMatches: fit.parameters.lambda * input.modelled,
    anchor: input.anchor,
    runs,
  });
  return { start, joint, bySession, fit, checks, passed: fitPasses(checks), converged: runs.every((r) => r.converged) };
}

/**
 * EM from every start, each checked. `passed` holds the starts that passed every check, highest likelihood first (the
 * first of equals in start order); `shown` is the start the report describes: the best passing start, or when none
 * passed, the first (the profile's model).
 */
export function robustFit(input: RobustFitInput): {
  attempts: FitAttempt[];
  passed: FitAttempt[];
  shown: FitAttempt;
} {
  const rng = createRng(deriveSeed(input.seed, 41));
  const anchored = anchorShare(input.anchor, input.startM, input.modelled);
  // The first start, whose attempt the report describes when none passes its checks.
  const profile = { name: 'profile model', m: input.startM, lambda: STARTING_MATCH_SHARE };
  const starts: { name: string; m: Float64Array; lambda: number }[] = [profile];
  if (anchored !== STARTING_MATCH_SHARE)
    starts.push({ name: 'deterministic anchor', m: input.startM, lambda: anchored });
  for (let k = 1; k <= SEEDED_STARTS; k++) {
    starts.push({
      name: `seeded start ${String(k)}`,
      m: perturbed(input.startM, () => rng.next(), input.em.floor),
      lambda: clampShare(anchored * Math.exp((2 * rng.next() - 1) * 1.5)),
    });
  }
  input.onStart?.(0, starts.length);
  const first = attempt(input, profile.name, profile.m, profile.lambda);
  const attempts: FitAttempt[] = [first];
  starts.slice(1).forEach((start, i) => {
    input.onStart?.(i + 1, starts.length);
    attempts.push(attempt(input, start.name, start.m, start.lambda));
  });
  // A stable sort: of starts with equal likelihood the earlier stays first.
  const passed = attempts.filter((a) => a.passed).sort((a, b) => b.fit.logLikelihood - a.fit.logLikelihood);
  return { attempts, passed, shown: passed[0] ?? first };
}
