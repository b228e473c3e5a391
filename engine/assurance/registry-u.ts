/**
 * u-probabilities from random pairs of the registry's records, for a model calibrated on labels (calibrate.ts,
 * `uFrom: 'random-pairs'`), and the prior restated for them. Splink's supervised recipe: m from labelled matches,
 * u from random pairs (`estimate_u_using_random_sampling`), the prior over all record pairs.
 *
 * Why not u from the labelled non-matches (the specification's method, still the API's default): labels are drawn
 * from blocking candidates, and among candidates a non-match agrees on the field it was blocked on far more often
 * than two people do (a pair blocked on family name and birth year agrees on the family name; one blocked on birth
 * date agrees on the date). Each field's u is then high, the fields are far from independent given a non-match, and
 * a pair agreeing exactly on every field scores low: on a names-and-dates extract with heavy typos, u(family name
 * Exact) was 0.46 against m 0.35, so exact agreement counted against a match. Over random pairs the fields are
 * close to independent, as the model assumes, and u is what the term-frequency adjustment and the live scorer's
 * registry-size prior expect (the unsupervised estimate's u comes from the same draw).
 *
 * The prior then describes random pairs too: the share π of true pairs among blocking candidates (what the caller
 * states) times the share of all record pairs that are candidates, C / (N(N−1)/2), read on the same seeded sample
 * of records the random pairs come from (a uniform record sample holds a uniform sample of the candidate pairs,
 * record-sample.ts). True pairs that share no blocking key are left out of it: the scorer never meets them.
 *
 * Random pairs hold a few pairs of one person (a share about the prior), which agree on nearly everything. With m
 * known from the labels they are weighted out as the estimate weighs them out (non-match-u.ts: EM over the random
 * pairs with m and the prior held, each pair counting toward u by its posterior of being two people), so u
 * describes non-matches only.
 */
import { BANDS, FIELD_NAMES, type FieldName, type MatchFields } from '../contract/fields.ts';
import { MODEL_PROBABILITY_FLOOR } from '../contract/profile.ts';
import { DEFAULT_ESTIMATE_RECORDS, DEFAULT_RANDOM_PAIRS } from '../contract/estimate.ts';
import type { CallContext } from '../contract/operations.ts';
import { keyRingFor } from '../config/key-ring.ts';
import type { EngineEnv } from '../env.ts';
import { NO_CONTROL, type RunControl } from '../run-control.ts';
import { createScorer } from '../scoring/scorer.ts';
import type { StoredProfile } from '../store/profiles.ts';
import { BlockingKeyOverlap } from './blocking-recall.ts';
import { blockingCandidatePairs } from './blocking-candidates.ts';
import { MAX_ENUMERATED_CANDIDATES } from './candidate-pairs.ts';
import { randomPairBandCounts } from './random-pair-u.ts';
import { readRecordSample } from './record-sample.ts';
import { nonMatchU } from './non-match-u.ts';
import { priorFromCandidates } from './estimate.ts';
import { smoothedBandProbabilities, type BandProbabilities } from './smoothed-bands.ts';
import { FIELD_COUNT } from '../scoring/field-comparison.ts';

export interface RegistryU {
  /** u of every field the random pairs compared (a field never compared keeps the labels' u). */
  readonly u: Partial<Record<FieldName, BandProbabilities>>;
  /** The prior over all record pairs: π · candidatePairs / sample pairs, within the model's bounds. */
  readonly prior: number;
  /** The tenant's records: the registry size the prior is set for (the live scorer lowers it as the registry grows). */
  readonly population: number;
  readonly sampledRecords: number;
  /** Random pairs drawn; those the scorer decides before the model (trusted identifier, hard conflict) are left out. */
  readonly randomPairs: number;
  /** How many of them the labels' m and the prior take for one person (weighted out of u). */
  readonly matchesWeightedOut: number;
  /** Blocking candidate pairs among the sampled records (a lower bound when truncated). */
  readonly candidatePairs: number;
  readonly truncated: boolean;
}

/**
 * The registry's blocking candidate pairs from the sample's: a uniform record sample of n of N records holds each record
 * pair with chance n(n − 1) / (N(N − 1)), so its candidates scale by the inverse (a lower bound when truncated).
 */
export function registryCandidatePairs(
  registry: Pick<RegistryU, 'population' | 'sampledRecords' | 'candidatePairs'>,
): number {
  const n = registry.sampledRecords;
  const N = registry.population;
  return n >= N || n < 2 ? registry.candidatePairs : (registry.candidatePairs * N * (N - 1)) / (n * (n - 1));
}

/**
 * Reads a seeded sample of the tenant's records (as the estimate does) and draws random pairs among them. Call inside
 * a read transaction. `m` is the labels' m of each field; `candidateShare` is π, the caller's prior.
 */
export function registryU(
  env: EngineEnv,
  ctx: CallContext,
  stored: StoredProfile,
  options: {
    readonly m: Partial<Record<FieldName, { readonly m: BandProbabilities }>>;
    readonly candidateShare: number;
    readonly smoothing: number;
    readonly seed: number;
  },
  control: RunControl = NO_CONTROL,
): RegistryU {
  const { store } = env;
  control.step('reading the registry for u', 0, null);
  const { rows, population } = readRecordSample(store, ctx.tenantId, DEFAULT_ESTIMATE_RECORDS, options.seed);
  // Similarities only: no name counts are read (the term-frequency adjustment does not move a pair's band).
  const scorer = createScorer(stored.profile);
  const fields = rows.map((row) => JSON.parse(row.fieldsJson) as MatchFields);
  const prepared = fields.map((f) => scorer.prepareWithoutCounts(f));
  const random = randomPairBandCounts(scorer, prepared, DEFAULT_RANDOM_PAIRS, options.seed, control);
  const ring = keyRingFor(stored.profile.Blocking, env.settings(), ctx.tenantId);
  const overlap = new BlockingKeyOverlap(store, ctx.tenantId, stored.profile.Blocking, ring);
  const { pairs, truncated } = blockingCandidatePairs(overlap, fields, MAX_ENUMERATED_CANDIDATES, control, {
    sampled: population > rows.length,
  });
  // The true pairs π expects among the sample's candidates, over the sample's record pairs (as the estimate's λ).
  const prior = priorFromCandidates(options.candidateShare * pairs.size, rows.length);
  const B = BANDS.length;
  const m = new Float64Array(FIELD_COUNT * B);
  const startU = new Float64Array(FIELD_COUNT * B);
  FIELD_NAMES.forEach((field, f) => {
    const counted = smoothedBandProbabilities(random.counts.subarray(f * B, (f + 1) * B), options.smoothing);
    BANDS.forEach((band, b) => {
      m[f * B + b] = options.m[field]?.m[band] ?? 1 / B;
      startU[f * B + b] = counted[band];
    });
  });
  control.step('weighing out the random pairs of one person', 0, null);
  const nonMatch = nonMatchU(random.patterns, m, startU, prior, {
    smoothing: options.smoothing,
    tolerance: 1e-6,
    maxIterations: 1_000,
    floor: MODEL_PROBABILITY_FLOOR,
  });
  const u: Partial<Record<FieldName, BandProbabilities>> = {};
  FIELD_NAMES.forEach((field, f) => {
    if (random.counts.subarray(f * B, (f + 1) * B).every((n) => n === 0)) return;
    const out = {} as BandProbabilities;
    BANDS.forEach((band, b) => {
      out[band] = nonMatch.u[f * B + b] ?? 1 / B;
    });
    u[field] = out;
  });
  return {
    u,
    matchesWeightedOut: nonMatch.matchesWeightedOut,
    prior,
    population,
    sampledRecords: rows.length,
    randomPairs: random.compared - random.decidedOutsideModel,
    candidatePairs: pairs.size,
    truncated,
  };
}
