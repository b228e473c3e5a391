/**
 * The assurance run shared by the quality test, the bench and `npm run quality -- --calibrated`: load a labelled
 * data set (a FEBRL benchmark, or a generated extract) into a tenant with its ground truth, draw labels (every true
 * pair plus hard non-matches from blocking candidates, at most 10,000 pairs), calibrate a Fellegi-Sunter model with
 * the candidate population's match share as the prior, evaluate the held-out part under the applied model, then
 * re-ingest everything into a fresh tenant whose profile carries the model and measure population-level pairwise
 * quality against the ground truth.
 */
import type { LocalEngine } from '../local-engine.ts';
import type { CalibrationReport, EvaluationReport, USource } from '../contract/assurance.ts';
import type { FellegiSunterModel, MatchingProfile } from '../contract/profile.ts';
import { splitByClass } from '../assurance/split.ts';
import type { FebrlSource } from './febrl-run.ts';
import { febrlLoader, type Loader } from './estimate-run.ts';
import { populationQuality, type PopulationQuality } from './population-quality.ts';

export const FEBRL_VALIDATION_FRACTION = 0.3;
export const FEBRL_SMOOTHING = 1;
export const FEBRL_TARGET_PRECISION = 0.99;
/** A link needs the pair more likely one person than two: Probable, and the floor under Certain. */
export const CALIBRATED_PROBABLE = 0.5;

/**
 * The thresholds an analyst takes from a calibration report: its live thresholds (live-thresholds.ts: held-out
 * recall and false-positive rate, precision reweighted to the candidates' share of true pairs, which is the
 * calibrated model's prior), as `calibrate --with-thresholds` writes them; a report without them (a held-out set
 * lacking a class) keeps the F1-optimal threshold, never below Probable 0.5.
 */
export function calibratedThresholds(report: CalibrationReport): { Certain: number; Probable: number } {
  if (report.liveThresholds != null)
    return { Certain: report.liveThresholds.Certain, Probable: report.liveThresholds.Probable };
  const f1Optimal = report.f1Optimal.threshold;
  return { Certain: Math.max(f1Optimal ?? 1, CALIBRATED_PROBABLE), Probable: CALIBRATED_PROBABLE };
}

export interface AssuranceRun {
  readonly labels: { readonly pairs: number; readonly matches: number; readonly nonMatches: number };
  readonly prior: number;
  /** The thresholds of the population run (calibratedThresholds). */
  readonly thresholds: { readonly Certain: number; readonly Probable: number };
  readonly model: FellegiSunterModel;
  readonly calibration: CalibrationReport;
  /** The held-out pairs evaluated through matching/evaluate with the model applied. */
  readonly heldOut: EvaluationReport;
  /** Pairwise quality of a fresh tenant ingested with the model applied (auto-links, and auto-links + reviews). */
  readonly population: PopulationQuality;
  readonly rejectedRecords: number;
}

export function febrlAssurance(
  engine: LocalEngine,
  tenantPrefix: string,
  sources: readonly FebrlSource[],
  uFrom: USource = 'random-pairs',
): Promise<AssuranceRun> {
  return assuranceRun(engine, tenantPrefix, febrlLoader(engine, sources), uFrom);
}

/**
 * The run on any labelled data set: `load` writes its records and ground truth into a tenant (estimate-run.ts).
 * `uFrom`: random pairs by default, as the console and the CLI calibrate (registry-u.ts); `labels` is the
 * specification's method.
 */
export async function assuranceRun(
  engine: LocalEngine,
  tenantPrefix: string,
  data: { readonly profile: MatchingProfile; readonly load: Loader },
  uFrom: USource = 'random-pairs',
): Promise<AssuranceRun> {
  const ctx = { tenantId: `${tenantPrefix}-labels`, actor: 'febrl-assurance' };
  await data.load(ctx, data.profile);
  const sample = await engine.call('labels/sample', { maxPairs: 10_000, seed: 1 }, ctx);
  const prior = sample.candidates.matchShare ?? 0.5;
  const { model, report: calibration } = await engine.call(
    'matching/calibrate',
    {
      datasetId: `${tenantPrefix}-labels`,
      modelVersion: `${tenantPrefix}-fs-1`,
      pairs: sample.pairs,
      priorMatchProbability: prior,
      smoothing: FEBRL_SMOOTHING,
      validationFraction: FEBRL_VALIDATION_FRACTION,
      targetPrecision: FEBRL_TARGET_PRECISION,
      uFrom,
    },
    ctx,
  );
  await engine.call('profile/apply', { document: model, reason: 'calibrated on FEBRL labels' }, ctx);
  const { Probable, Certain } = (await engine.call('profile/get', {}, ctx)).profile.MatchingRules.Thresholds;
  const heldOut = await engine.call(
    'matching/evaluate',
    {
      datasetId: `${tenantPrefix}-held-out`,
      pairs: splitByClass(sample.pairs, FEBRL_VALIDATION_FRACTION).validation,
      thresholds: [0.5, Probable, Certain],
      maximumErrorExamples: 20,
    },
    ctx,
  );

  const fresh = { tenantId: `${tenantPrefix}-calibrated`, actor: 'febrl-assurance' };
  const Thresholds = calibratedThresholds(calibration);
  const load = await data.load(fresh, { ...data.profile, MatchingRules: { Thresholds, FellegiSunter: model } });
  const matches = sample.pairs.filter((p) => p.isMatch).length;
  return {
    labels: { pairs: sample.pairs.length, matches, nonMatches: sample.pairs.length - matches },
    prior,
    thresholds: Thresholds,
    model,
    calibration,
    heldOut,
    population: await populationQuality(engine, fresh, load.truth),
    rejectedRecords: load.rejected,
  };
}
