/**
 * Fellegi-Sunter calibration from labelled pairs (spec "Calibration request", "Calibration behaviour",
 * Endpoints rules 4-5, Versioning 4). Fellegi & Sunter 1969, "A Theory for Record Linkage", JASA
 * 64:1183-1210: with m_b = P(band b | match) and u_b = P(band b | non-match) per field, the log-odds of a
 * match are ln(prior / (1 - prior)) + the sum over compared fields of ln(m_b / u_b).
 *
 * 1. Each class is split deterministically and separately into training and validation (split.ts).
 * 2. Field similarities fall in the four bands of contract/fields.ts (Exact >= 0.999999, Strong >= 0.85,
 *    Partial >= 0.5, Different).
 * 3. m and u are estimated per field from the training pairs with additive (Lidstone) smoothing s:
 *        m_b = (n_b + s) / (n + 4s)
 *    where n_b counts the training matches whose similarity falls in band b and n those where both
 *    records have the field (u likewise over non-matches). Only pairs the model would score are counted:
 *    pairs decided by a trusted identifier or a hard-conflict rule stay outside the model (the scorer
 *    decides them before the score method), so they are left out of the estimate and scored 1 or 0.
 * 4. A missing comparison is neutral: not counted, and it adds ln(m/u) = 0 when scoring.
 * 5. The prior is the caller's priorMatchProbability (the share of true matches among the pairs the
 *    scorer meets in production), not the labelled sample's balance.
 * 6. The report gives held-out Brier score, log loss and threshold metrics, the F1-optimal threshold and
 *    the lowest threshold meeting targetPrecision, all on the validation pairs. The latter is one a person
 *    can use (precision-target.ts): inside the range of held-out scores, met by the lower end of precision's
 *    95% interval rather than the point estimate, with the pairs behind it; when none meets the target the
 *    report says so and gives the best achievable.
 * 7. The result is a complete model object, never activated: calibration writes one audit record only.
 */
import { NO_CONTROL, type RunControl } from '../run-control.ts';
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { DEFAULT_REVIEW_BUDGET, type CalibrationReport, type ThresholdMetrics } from '../contract/assurance.ts';
import { BANDS, FIELD_NAMES, type FieldName } from '../contract/fields.ts';
import type { FellegiSunterModel } from '../contract/profile.ts';
import { validationError } from '../contract/errors.ts';
import { bandIndex, compileModel } from '../scoring/fellegi-sunter.ts';
import { FIELD_COUNT } from '../scoring/field-comparison.ts';
import { limitedScore, scoreLimit, storedPairScore, TERM_READINGS } from '../scoring/scorer.ts';
import { brierScore } from '../stats/brier-score.ts';
import { logLoss } from '../stats/log-loss.ts';
import { f1OptimalThreshold, type ScoredExample } from '../stats/threshold-sweep.ts';
import { precisionTargetEntry } from './precision-target.ts';
import { liveThresholds, type LiveExample } from './live-thresholds.ts';
import { compareWithProfile } from './profile-comparison.ts';
import { liveThresholdsText, uSourceReport } from './calibration-text.ts';
import { registryCandidatePairs, registryU, type RegistryU } from './registry-u.ts';
import { simplestThresholdInGap } from '../stats/simplest-threshold.ts';
import { writeAudit } from '../store/audit.ts';
import type { EngineEnv } from '../env.ts';
import { DECIDED_BY, loadDataset, type LoadedDataset } from './load-pairs.ts';
import { splitByClass } from './split.ts';
import { thresholdMetrics } from './threshold-metrics.ts';
import { scoreDistribution } from '../contract/statistics/score-distribution.ts';
import { reliabilityBins } from '../stats/reliability-diagram.ts';
import type { LabelPair } from './labels.ts';
import { smoothedBandProbabilities, type BandProbabilities } from './smoothed-bands.ts';
import { CONDITIONAL_INDEPENDENCE_CAVEAT, ESTIMATION_NOTE, ESTIMATION_NOTE_RANDOM_PAIRS } from './report-text.ts';
import { figureText } from '../contract/figure-text.ts';

/** Thresholds always reported on the held-out pairs, beside the profile's own Probable and Certain. */
export const CALIBRATION_THRESHOLD_GRID = [0.5, 0.8, 0.9, 0.95, 0.99] as const;

/**
 * Per-field band counts of observed comparisons, by class: index (class * FIELD_COUNT + field) * 4 + band,
 * class 0 = match, 1 = non-match. Only the pairs for which include(i) holds are counted.
 */
export function bandCounts(
  similarity: Float64Array,
  isMatch: Uint8Array,
  include: (index: number) => boolean,
): Uint32Array {
  const counts = new Uint32Array(2 * FIELD_COUNT * BANDS.length);
  for (let i = 0; i < isMatch.length; i++) {
    if (!include(i)) continue;
    const klass = isMatch[i] === 1 ? 0 : 1;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const s = similarity[i * FIELD_COUNT + f] ?? Number.NaN;
      if (Number.isNaN(s)) continue;
      const at = (klass * FIELD_COUNT + f) * BANDS.length + bandIndex(s);
      counts[at] = (counts[at] ?? 0) + 1;
    }
  }
  return counts;
}

/** The m and u distributions of every field from band counts (bandCounts' layout). */
export function estimateFields(counts: Uint32Array, smoothing: number): FellegiSunterModel['fields'] {
  const fields: Partial<Record<FieldName, { m: BandProbabilities; u: BandProbabilities }>> = {};
  FIELD_NAMES.forEach((field, f) => {
    const slice = (klass: number): Uint32Array =>
      counts.subarray((klass * FIELD_COUNT + f) * BANDS.length, (klass * FIELD_COUNT + f + 1) * BANDS.length);
    fields[field] = {
      m: smoothedBandProbabilities(slice(0), smoothing),
      u: smoothedBandProbabilities(slice(1), smoothing),
    };
  });
  return fields;
}

function observations(counts: Uint32Array): CalibrationReport['fieldObservations'] {
  const total = (klass: number, f: number): number => {
    let n = 0;
    for (let b = 0; b < BANDS.length; b++) n += counts[(klass * FIELD_COUNT + f) * BANDS.length + b] ?? 0;
    return n;
  };
  return FIELD_NAMES.map((field, f) => ({ field, matches: total(0, f), nonMatches: total(1, f) }));
}

/** The labels' m of every field with u from random pairs where they compared the field. */
function withU(fields: FellegiSunterModel['fields'], u: RegistryU['u']): FellegiSunterModel['fields'] {
  const out: Partial<Record<FieldName, { m: BandProbabilities; u: BandProbabilities }>> = {};
  for (const field of FIELD_NAMES) {
    const labelled = fields[field];
    if (labelled !== undefined) out[field] = { m: labelled.m, u: u[field] ?? labelled.u };
  }
  return out;
}

/**
 * Whether the model learned anything from the labelled non-matches: with u from the labels it did; with u from random
 * pairs only for a field the random pairs never compared (it keeps the labels' u, withU), if training non-matches
 * compared it. When it did not, every labelled non-match is as unseen as a held-out one.
 */
export function learnsFromNonMatches(counts: Uint32Array, u: RegistryU['u'] | null): boolean {
  if (u === null) return true;
  return FIELD_NAMES.some((field, f) => {
    if (u[field] !== undefined) return false;
    const at = (FIELD_COUNT + f) * BANDS.length;
    return counts.subarray(at, at + BANDS.length).some((n) => n > 0);
  });
}

/** Which pairs go to validation (1) and which to training (0). */
function validationMask(pairs: readonly LabelPair[], fraction: number): Uint8Array {
  const indexOf = new Map<LabelPair, number>();
  pairs.forEach((pair, index) => indexOf.set(pair, index));
  const mask = new Uint8Array(pairs.length);
  for (const pair of splitByClass(pairs, fraction).validation) mask[indexOf.get(pair) ?? 0] = 1;
  return mask;
}

function classCounts(
  data: LoadedDataset,
  include: (index: number) => boolean,
): { pairs: number; matches: number; nonMatches: number; decidedOutsideModel: number } {
  let pairs = 0;
  let matches = 0;
  let outside = 0;
  const scoreCode = DECIDED_BY.indexOf('score');
  for (let i = 0; i < data.isMatch.length; i++) {
    if (!include(i)) continue;
    pairs++;
    matches += data.isMatch[i] ?? 0;
    if (data.decidedBy[i] !== scoreCode) outside++;
  }
  return { pairs, matches, nonMatches: pairs - matches, decidedOutsideModel: outside };
}

export function calibrate(
  env: EngineEnv,
  input: OperationInput<'matching/calibrate'>,
  ctx: CallContext,
  control: RunControl = NO_CONTROL,
): OperationOutput<'matching/calibrate'> {
  const { store } = env;
  const data = loadDataset(
    store,
    ctx,
    input,
    { minimumPerClass: 10, labels: { modelVersion: input.modelVersion } },
    control,
  );
  control.step('estimating m and u', 0, null);
  const { stored, scorer } = data;
  const inValidation = validationMask(data.pairs, input.validationFraction);
  const isValidation = (i: number): boolean => inValidation[i] === 1;
  const isTraining = (i: number): boolean => inValidation[i] === 0;
  const training = classCounts(data, isTraining);
  const validation = classCounts(data, isValidation);
  const emptyParts = [
    ...(training.matches === 0 || training.nonMatches === 0 ? ['training'] : []),
    ...(validation.matches === 0 || validation.nonMatches === 0 ? ['validation'] : []),
  ];
  if (emptyParts.length > 0) {
    throw validationError('the validation fraction leaves a class empty', [
      {
        path: 'validationFraction',
        message: `${String(input.validationFraction)} leaves the ${emptyParts.join(' and ')} set without matches or non-matches (${data.matches} matches, ${data.nonMatches} non-matches); choose a fraction that keeps both classes on both sides`,
      },
    ]);
  }

  const scoreCode = DECIDED_BY.indexOf('score');
  const counts = bandCounts(data.similarity, data.isMatch, (i) => isTraining(i) && data.decidedBy[i] === scoreCode);
  const trainedAgainst = {
    matchingProfileVersion: stored.version,
    comparatorVersion: scorer.comparatorVersion,
    scoreMethod: scorer.method,
    scoreMethodVersion: scorer.methodVersion,
  };
  const fromLabels = estimateFields(counts, input.smoothing);
  // u from random pairs of the registry, and the prior restated for them (registry-u.ts), when asked.
  const registry =
    input.uFrom === 'random-pairs'
      ? store.read(() =>
          registryU(
            env,
            ctx,
            stored,
            { m: fromLabels, candidateShare: input.priorMatchProbability, smoothing: input.smoothing, seed: 1 },
            control,
          ),
        )
      : null;
  const model: FellegiSunterModel = {
    kind: 'fellegi-sunter-model',
    modelVersion: input.modelVersion,
    ...(registry === null
      ? { priorMatchProbability: input.priorMatchProbability }
      : { priorMatchProbability: registry.prior, priorRecords: Math.max(1, registry.population) }),
    smoothing: input.smoothing,
    fields: registry === null ? fromLabels : withU(fromLabels, registry.u),
    trainedAgainst: {
      matchingProfileVersion: trainedAgainst.matchingProfileVersion,
      comparatorVersion: trainedAgainst.comparatorVersion,
      scoreMethodVersion: trainedAgainst.scoreMethodVersion,
    },
    datasetId: input.datasetId,
    datasetDigest: data.digest,
    bands: [...BANDS],
  };

  // Validation scores under the new model, with the scorer's precedence kept.
  const { Probable, Certain } = stored.profile.MatchingRules.Thresholds;
  const compiled = compileModel(model);
  const heldOutScore = new Float64Array(data.pairs.length);
  const examples: ScoredExample[] = [];
  const predictions: { probability: number; isMatch: boolean }[] = [];
  // What the live thresholds are read on (live-thresholds.ts): the held-out matches, and every non-match the model did
  // not learn from, scored by the model and, to set beside it, by the active profile as it scores them today.
  const liveExamples: LiveExample[] = [];
  const profileExamples: ScoredExample[] = [];
  const poolNonMatches = !learnsFromNonMatches(counts, registry?.u ?? null);
  let nonMatchesFromTraining = 0;
  const trustedCode = DECIDED_BY.indexOf('trusted-identifier');
  for (let i = 0; i < data.pairs.length; i++) {
    const isMatch = data.isMatch[i] === 1;
    const unseen = isValidation(i) || (poolNonMatches && !isMatch);
    if (!unseen) continue;
    const decided = data.decidedBy[i];
    const similarity = data.similarity.subarray(i * FIELD_COUNT, (i + 1) * FIELD_COUNT);
    // Scored as the live scorer will once the model is active: its term-frequency adjustment of agreeing names, and
    // the name-evidence and twin limits. The spec's held-out figures hold a limited pair at the active profile's
    // Probable; the live thresholds keep its score and mark it, since live matching holds it at the model's own
    // Probable, which they choose (live-thresholds.ts).
    const raw =
      decided === scoreCode
        ? storedPairScore(compiled, similarity, data.flags[i] ?? 0, data.termReadings, i * TERM_READINGS)
        : null;
    const probability =
      decided === trustedCode ? 1 : raw === null ? 0 : limitedScore(raw, similarity, Probable, data.flags[i]).score;
    liveExamples.push(
      raw === null
        ? { score: probability, isMatch }
        : { score: raw, isMatch, held: scoreLimit(similarity, data.flags[i]) !== undefined },
    );
    profileExamples.push({ score: data.score[i] ?? 0, isMatch });
    if (!isValidation(i)) {
      nonMatchesFromTraining++;
      continue;
    }
    heldOutScore[i] = probability;
    examples.push({ score: probability, isMatch });
    predictions.push({ probability, isMatch });
  }
  const at = (threshold: number): ThresholdMetrics =>
    thresholdMetrics(threshold, heldOutScore, data.isMatch, isValidation);
  const grid = [...new Set<number>([...CALIBRATION_THRESHOLD_GRID, Probable, Certain])].sort((a, b) => a - b);
  const best = f1OptimalThreshold(examples);
  // Placed, like the precision target's, at a simplest number in its gap of held-out scores: same figures, a number a
  // person can use. Every threshold in the gap gives the same held-out F1, so the sample cannot choose among them;
  // theory can: a calibrated model's expected F1 peaks at half the best F1 (Lipton, Elkan & Naryanaswamy 2014,
  // "Optimal thresholding of classifiers to maximize F1 measure"), and the model's probabilities are calibrated to
  // the labels' population, the blocking candidates. So of the simplest numbers in the gap the one nearest F1 / 2.
  const below =
    best === null
      ? null
      : examples.reduce<number | null>(
          (max, e) => (e.score < best.threshold && (max === null || e.score > max) ? e.score : max),
          null,
        );
  const f1Threshold = best === null ? null : simplestThresholdInGap(below, best.threshold, best.f1 / 2);

  // The review budget is read against the registry's candidate pairs, which u from random pairs counts. With u from
  // the labels nothing of the registry is read (calibration of 10,000 labels stays within its 300 ms), so no budget.
  const live = liveThresholds(
    liveExamples,
    input.priorMatchProbability,
    input.targetPrecision,
    registry === null
      ? undefined
      : {
          perThousandRecords: input.reviewBudget ?? DEFAULT_REVIEW_BUDGET,
          records: Math.max(1, registry.population),
          candidatePairs: registryCandidatePairs(registry),
        },
  );
  const againstProfile = live === null ? null : compareWithProfile(profileExamples, { Certain, Probable }, live);

  const report: CalibrationReport = {
    datasetId: input.datasetId,
    datasetDigest: data.digest,
    modelVersion: input.modelVersion,
    trainedAgainst,
    labels: { pairs: data.pairs.length, matches: data.matches, nonMatches: data.nonMatches },
    training,
    validation,
    estimation: registry === null ? ESTIMATION_NOTE : ESTIMATION_NOTE_RANDOM_PAIRS,
    fieldObservations: observations(counts),
    heldOut: {
      brierScore: brierScore(predictions),
      logLoss: logLoss(predictions),
      thresholds: grid.map(at),
      scoreDistribution: scoreDistribution(heldOutScore, data.isMatch, isValidation),
      reliability: reliabilityBins(predictions),
    },
    f1Optimal:
      best === null
        ? { threshold: null, explanation: 'no labelled match in the validation set, so F1 is undefined', metrics: null }
        : {
            threshold: f1Threshold ?? best.threshold,
            explanation: `the simplest number between the validation score that maximises F1 (${figureText(best.threshold)}) and the next lower validation score${below === null ? ' (none: it is the lowest)' : ` (${figureText(below)})`} nearest half the best F1 (${(best.f1 / 2).toFixed(4)}, where a calibrated model's expected F1 peaks): every threshold there gives F1 ${best.f1.toFixed(4)} on the held-out pairs; ties between such ranges go to the highest`,
            metrics: at(f1Threshold ?? best.threshold),
          },
    targetPrecision: input.targetPrecision,
    meetingTargetPrecision: precisionTargetEntry(examples, input.targetPrecision, at),
    uSource:
      registry === null
        ? { from: 'labels' }
        : { from: 'random-pairs', ...uSourceReport(registry, input.priorMatchProbability) },
    liveThresholds:
      live === null
        ? null
        : {
            ...live,
            nonMatchesFromTraining,
            againstProfile,
            explanation: liveThresholdsText(
              live,
              input.targetPrecision,
              { Certain, Probable },
              { validationFraction: input.validationFraction, nonMatchesFromTraining },
              againstProfile,
              registry?.prior ?? null,
            ),
          },
    caveat: CONDITIONAL_INDEPENDENCE_CAVEAT,
    activated: false,
  };

  store.write(() => {
    writeAudit(store, ctx.tenantId, {
      actor: ctx.actor,
      action: 'matching.calibrate',
      subject: 'matching-assurance/calibration',
      detail: {
        datasetId: input.datasetId,
        datasetDigest: data.digest,
        matches: data.matches,
        nonMatches: data.nonMatches,
        modelVersion: input.modelVersion,
      },
    });
  });
  return { model, report };
}
