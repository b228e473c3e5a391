/**
 * `matching/estimate`: an unsupervised Fellegi-Sunter model of the tenant's own records, no labels needed.
 *
 * 1. u per field and band from random record pairs (random-pair-u.ts).
 * 2. The blocking candidates (blocking-candidates.ts: the pairs candidate discovery brings to the scorer, as
 *    `labels/candidates` and `labels sample` use) are compared with the active profile's comparators; at most
 *    maxCandidatePairs of them, a seeded uniform sample when there are more. Pairs the scorer decides before
 *    the model (trusted identifier, hard conflict) stay out of the fit, as in calibration.
 * 3. m per field from one EM session per blocking rule over fields of the person (session-m.ts: the rule's fields
 *    left out, u held at the random-pair u), where the sessions estimate it; then EM over all the candidates'
 *    band patterns (fellegi-sunter-em.ts) with that m held estimates the candidates' u and λ, the match share
 *    among candidates (Winkler 1988; Jaro 1989). Fields no session estimates take m from the same EM run
 *    first with m free. The candidates' u is estimated rather than fixed at the
 *    random-pair u because blocking selects non-matches that agree on the blocking fields (same family name,
 *    same postcode): random-pair u would read that agreement as evidence of a match and inflate m and λ. It
 *    describes the candidate population only and stays inside the fit; the model takes u from random pairs,
 *    so its prior means what the default model's does (see priorFromCandidates).
 *    Bands are those scoring sees: an agreement that an agreeing address line implies counts as missing, as it
 *    adds nothing to the score (scoring/fellegi-sunter.ts), so EM fits the model production computes.
 * 4. The result is calibration's model object (profile apply takes it unchanged), never activated, with the
 *    model's own estimate of precision and recall per threshold (estimated-metrics.ts). One audit record.
 */
import { createHash } from 'node:crypto';
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { BANDS, FIELD_NAMES, type Band, type FieldName, type MatchFields } from '../contract/fields.ts';
import { MODEL_PRIOR_FLOOR, MODEL_PROBABILITY_FLOOR, type FellegiSunterModel } from '../contract/profile.ts';
import { DEFAULT_ESTIMATE_RECORDS, DEFAULT_RANDOM_PAIRS, type EstimateReport } from '../contract/estimate.ts';
import { DEFAULT_REVIEW_BUDGET } from '../contract/assurance.ts';
import { validationError } from '../contract/errors.ts';
import { keyRingFor } from '../config/key-ring.ts';
import { compileModel, priorAdjustment, registryPrior } from '../scoring/fellegi-sunter.ts';
import { FIELD_COUNT, newScratch, pairFlags } from '../scoring/field-comparison.ts';
import { defaultModel } from '../scoring/default-model.ts';
import {
  copyTermReadings,
  createScorer,
  limitedScore,
  storedPairScore,
  scoreLimit,
  TERM_READINGS,
} from '../scoring/scorer.ts';
import { termFrequencySnapshot } from '../store/term-frequency.ts';
import { NO_CONTROL, type RunControl } from '../run-control.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import { activeProfile } from '../store/profiles.ts';
import { requireTenant } from '../store/tenants.ts';
import { writeAudit } from '../store/audit.ts';
import type { EngineEnv } from '../env.ts';
import { BlockingKeyOverlap } from './blocking-recall.ts';
import { blockingCandidatePairs } from './blocking-candidates.ts';
import { MAX_ENUMERATED_CANDIDATES } from './candidate-pairs.ts';
import { sampleKeys } from '../stats/sample-keys.ts';
import { smoothedBandProbabilities } from './smoothed-bands.ts';
import { readRecordSample } from './record-sample.ts';
import { deterministicAnchor } from './deterministic-anchor.ts';
import { robustFit, type FitAttempt } from './robust-fit.ts';
import type { FitCheck } from './fit-checks.ts';
import { linkChange, linksKeptCheck, profileLinks } from './links-kept.ts';
import { randomPairBandCounts } from './random-pair-u.ts';
import { nonMatchU } from './non-match-u.ts';
import { bandCounts, observedPairs, PatternIndex } from './pattern-index.ts';
import { isPersonRule, ruleFields, type Session } from './session-m.ts';
import { estimatedThresholdMetrics, suggestThresholds } from './estimated-metrics.ts';
import { ESTIMATE_CAVEAT, ESTIMATE_NOTE, FALLBACK_NOTE } from './report-text.ts';
import { countText } from '../contract/count-text.ts';

const B = BANDS.length;
/** Fewer modelled candidate pairs than this cannot separate two classes over 11 fields. */
const MIN_MODELLED_PAIRS = 20;

/** The checks a start failed: its own, and links-kept when its model was refused (`refused`). */
function failedChecks(attempt: FitAttempt, refused: ReadonlyMap<FitAttempt, FitCheck>): string[] {
  const linksKept = refused.get(attempt);
  return [...attempt.checks, ...(linksKept === undefined ? [] : [linksKept])]
    .filter((c) => !c.passed)
    .map((c) => c.check);
}

/** The checks that failed, by start: "profile model: anchor-lower, converged; deterministic anchor: band-order". */
function failedChecksText(attempts: readonly FitAttempt[], refused: ReadonlyMap<FitAttempt, FitCheck>): string {
  return attempts.map((a) => `${a.start}: ${failedChecks(a, refused).join(', ')}`).join('; ');
}

/**
 * The model's prior in the meaning it has everywhere (scoring adds ln(prior / (1 − prior)) to Σ ln(m/u)):
 * with u = P(band | two records picked at random), Bayes' rule gives a pair's posterior from its bands only
 * when the prior is P(match) for two records picked at random too (default-model.ts; a blocking candidate's
 * posterior follows, since blocking selects pairs by the same field values the bands condition on). EM's λ is
 * P(match | blocking candidate) instead. λ × (candidate pairs) is the expected number of true pairs among the
 * candidates; when blocking brings together (nearly) every true pair, that is the number of true pairs among
 * all N(N − 1)/2, so prior = that count / (N(N − 1)/2). Blocking misses make it a slight under-estimate.
 * Kept within the model's bounds.
 */
export function priorFromCandidates(expectedMatches: number, records: number): number {
  const allPairs = (records * (records - 1)) / 2;
  return Math.min(1 - MODEL_PRIOR_FLOOR, Math.max(MODEL_PRIOR_FLOOR, allPairs > 0 ? expectedMatches / allPairs : 0));
}

/** Whether the two records share a key of the rule whose block is not too common (as candidate discovery needs). */
function sharesUsableKey(overlap: BlockingKeyOverlap, a: MatchFields, b: MatchFields, rule: number): boolean {
  const one = overlap.oneSharedKey(a, b, rule);
  if (one === undefined) return false;
  return overlap.isUsable(one) || overlap.allSharedKeys(a, b, rule).some((key) => overlap.isUsable(key));
}

/** SHA-256 over the records the estimate read: `sourceSystem TAB localId TAB fieldsJson LF`, in record-ID order. */
function recordsDigest(rows: readonly { sourceSystem: string; localId: string; fieldsJson: string }[]): string {
  const hash = createHash('sha256');
  for (const row of rows) hash.update(`${row.sourceSystem}\t${row.localId}\t${row.fieldsJson}\n`, 'utf8');
  return hash.digest('hex');
}

function bounded(p: number): number {
  return Math.min(1 - MODEL_PROBABILITY_FLOOR, Math.max(MODEL_PROBABILITY_FLOOR, p));
}

function bandRecord(values: ArrayLike<number>, offset: number): Record<Band, number> {
  const out = {} as Record<Band, number>;
  BANDS.forEach((band, b) => {
    out[band] = bounded(values[offset + b] ?? 0);
  });
  return out;
}

/**
 * A band no pair fell in, neither a candidate nor a random pair (a level the field's comparator never
 * produces on this data, e.g. Strong for sex): smoothing alone sets its m and u, from different totals (s / (n
 * + 4s) over thousands of candidates against hundreds of thousands of random pairs), which would give it an
 * unearned ln(m/u) of several units. It gets equal m and u (the smaller of the two), i.e. no evidence, as the
 * default model gives such bands; the field's other bands are rescaled so each distribution still sums to 1.
 */
export function neutralUnseenBands(
  m: Float64Array,
  u: Float64Array,
  candidateCounts: Float64Array,
  randomCounts: Float64Array,
): { m: Float64Array; u: Float64Array } {
  const outM = Float64Array.from(m);
  const outU = Float64Array.from(u);
  for (let f = 0; f < m.length / B; f++) {
    const unseen: number[] = [];
    for (let b = 0; b < B; b++)
      if ((candidateCounts[f * B + b] ?? 0) === 0 && (randomCounts[f * B + b] ?? 0) === 0) unseen.push(b);
    if (unseen.length === 0 || unseen.length === B) continue;
    for (const out of [outM, outU]) {
      let seenMass = 0;
      let unseenMass = 0;
      for (let b = 0; b < B; b++) {
        if (unseen.includes(b)) {
          out[f * B + b] = Math.min(m[f * B + b] ?? 0, u[f * B + b] ?? 0);
          unseenMass += out[f * B + b] ?? 0;
        } else seenMass += out[f * B + b] ?? 0;
      }
      for (let b = 0; b < B; b++)
        if (!unseen.includes(b)) out[f * B + b] = ((out[f * B + b] ?? 0) * (1 - unseenMass)) / seenMass;
    }
  }
  return { m: outM, u: outU };
}

export function estimate(
  env: EngineEnv,
  input: OperationInput<'matching/estimate'>,
  ctx: CallContext,
  control: RunControl = NO_CONTROL,
): OperationOutput<'matching/estimate'> {
  const { store } = env;
  requireTenant(store, ctx.tenantId);
  const seed = input.seed ?? 1;
  const smoothing = input.smoothing ?? 1;
  const tolerance = input.tolerance ?? 1e-6;
  const maxIterations = input.maxIterations ?? 1_000;
  const {
    stored,
    scorerVersions,
    rows,
    population,
    random,
    enumerated,
    compared,
    trusted,
    conflicts,
    pairSimilarity,
    pairTermReadings,
    pairFlags: flagsOfPairs,
    pairPattern,
    patterns,
    sessions,
  } = store.read(() => {
    const stored = activeProfile(store, ctx.tenantId);
    control.step('reading the records', 0, null);
    const { rows, population } = readRecordSample(
      store,
      ctx.tenantId,
      input.maxRecords ?? DEFAULT_ESTIMATE_RECORDS,
      seed,
    );
    if (rows.length < 2)
      throw validationError('the tenant has fewer than two records: there is nothing to estimate from', [
        { path: 'tenant', message: `${rows.length} records; ingest the registry's records first` },
      ]);
    const scorer = createScorer(stored.profile, termFrequencySnapshot(store, ctx.tenantId));
    const fields: MatchFields[] = new Array<MatchFields>(rows.length);
    const prepared: PreparedRecord[] = new Array<PreparedRecord>(rows.length);
    rows.forEach((row, i) => {
      if ((i & 4095) === 0) control.step('preparing the records', i, rows.length);
      const f = JSON.parse(row.fieldsJson) as MatchFields;
      fields[i] = f;
      prepared[i] = scorer.prepare(f);
    });
    const random = randomPairBandCounts(scorer, prepared, input.randomPairs ?? DEFAULT_RANDOM_PAIRS, seed, control);

    const ring = keyRingFor(stored.profile.Blocking, env.settings(), ctx.tenantId);
    const overlap = new BlockingKeyOverlap(store, ctx.tenantId, stored.profile.Blocking, ring);
    const enumerated = blockingCandidatePairs(overlap, fields, MAX_ENUMERATED_CANDIDATES, control, {
      sampled: population > rows.length,
    });
    const keys = sampleKeys(enumerated.pairs.keys(), input.maxCandidatePairs ?? 300_000, seed);
    const n = rows.length;
    const scratch = newScratch();
    const index = new PatternIndex();
    // Similarities of the modelled pairs at pair * FIELD_COUNT + field (one allocation, not one per pair).
    const similarities = new Float64Array(keys.length * FIELD_COUNT);
    // The live scorer's term-frequency readings of each modelled pair, for the adjustment under the fitted model.
    const termReadings = new Float64Array(keys.length * TERM_READINGS);
    // Each modelled pair's flags (field-comparison.ts pairFlags): a personal identifier system compared, two given
    // names alike (by sound only, or but for their first sound), and the other twin hints.
    const flags = new Uint8Array(keys.length);
    const pattern: number[] = [];
    let trusted = 0;
    let conflicts = 0;
    // One session per rule over fields of the person (session-m.ts): the modelled pairs sharing a usable key of
    // the rule, with the rule's fields left out.
    const sessionRules = stored.profile.Blocking.Rules.flatMap((rule, r) =>
      isPersonRule(rule) ? [{ rule, r, blocked: ruleFields(rule), index: new PatternIndex() }] : [],
    );
    const masked = new Float64Array(FIELD_COUNT);
    keys.forEach((key, k) => {
      if ((k & 4095) === 0) control.step('comparing candidate pairs', k, keys.length);
      const a = Math.floor(key / n);
      const b = key % n;
      const outcome = scorer.outcome(prepared[a] as PreparedRecord, prepared[b] as PreparedRecord, scratch);
      if (outcome.decidedBy === 'trusted-identifier') trusted++;
      else if (outcome.decidedBy === 'hard-conflict') conflicts++;
      else {
        similarities.set(scratch.similarity, pattern.length * FIELD_COUNT);
        copyTermReadings(scratch, termReadings, pattern.length * TERM_READINGS);
        flags[pattern.length] = pairFlags(scratch);
        pattern.push(index.add(scratch.similarity));
        // The rules whose usable keys the pair shares, as enumerated; worked out again only past the enumeration's cap.
        const rules = enumerated.truncated ? undefined : enumerated.pairs.get(key);
        for (const session of sessionRules) {
          const shares =
            rules === undefined
              ? sharesUsableKey(overlap, fields[a] as MatchFields, fields[b] as MatchFields, session.r)
              : ((rules >>> session.r) & 1) === 1;
          if (!shares) continue;
          masked.set(scratch.similarity);
          for (const f of session.blocked) masked[f] = Number.NaN;
          session.index.add(masked);
        }
      }
    });
    const sessions: Session[] = sessionRules.map((s) => ({
      rule: s.rule.Name,
      blocked: s.blocked,
      patterns: s.index.patterns(),
    }));
    return {
      stored,
      scorerVersions: { method: scorer.method, methodVersion: scorer.methodVersion },
      rows,
      population,
      random,
      enumerated,
      compared: keys.length,
      trusted,
      conflicts,
      pairSimilarity: similarities,
      pairTermReadings: termReadings,
      pairFlags: flags,
      pairPattern: pattern,
      patterns: index.patterns(),
      sessions,
    };
  });
  if (pairPattern.length < MIN_MODELLED_PAIRS) {
    throw validationError('too few blocking candidates to estimate a model from', [
      {
        path: 'tenant',
        message: `${pairPattern.length} candidate pairs reach the model (at least ${MIN_MODELLED_PAIRS} are needed); ingest more records or widen the blocking rules`,
      },
    ]);
  }

  // Starting values: m from the active model (or the default model's reasoned m), u of the candidates from
  // the random pairs; EM moves both.
  const comparatorVersion = stored.profile.Comparators.Version;
  const startModel = stored.profile.MatchingRules.FellegiSunter ?? defaultModel(comparatorVersion);
  const randomU = new Float64Array(FIELD_COUNT * B);
  const startM = new Float64Array(FIELD_COUNT * B);
  const fallback = defaultModel(comparatorVersion);
  FIELD_NAMES.forEach((field, f) => {
    const u = smoothedBandProbabilities(random.counts.subarray(f * B, (f + 1) * B), smoothing);
    const m = (startModel.fields[field] ?? fallback.fields[field])?.m;
    BANDS.forEach((band, b) => {
      randomU[f * B + b] = bounded(u[band]);
      startM[f * B + b] = bounded(m?.[band] ?? 1 / B);
    });
  });
  control.step('fitting the model (EM)', 0, null);
  const emOptions = { smoothing, tolerance, maxIterations, floor: MODEL_PROBABILITY_FLOOR };
  const modelledPairs = pairPattern.length;
  // The fit ran on a sample when there were more candidates than maxCandidatePairs: the anchor's coincidences are
  // counted over the sample's share of all pairs.
  const sampleShare = enumerated.pairs.size > 0 ? compared / enumerated.pairs.size : 1;
  const allPairs = (rows.length * (rows.length - 1)) / 2;
  const anchor = deterministicAnchor(patterns, randomU, allPairs * sampleShare);
  const candidateCounts = bandCounts(patterns);
  const { attempts, passed, shown } = robustFit({
    patterns,
    candidateCounts,
    sessions,
    randomU,
    startM,
    anchor,
    modelled: modelledPairs,
    seed,
    em: emOptions,
    onStart: (i, of) => {
      control.step('fitting the model (EM, several starts)', i, of);
    },
  });
  // A failed fit's λ is not evidence either: the fallback keeps the prior the tenant matches with today (the
  // profile's model), never below what exact agreement on full name and birth date proves.
  const todaysPrior = registryPrior(startModel.priorMatchProbability, startModel.priorRecords, population);
  // The true pairs that prior expects among the sample's record pairs.
  const todaysPairs = todaysPrior * allPairs * sampleShare;
  const anchorRaisesPrior = anchor.lowerBound > todaysPairs;
  const fallbackLambda = Math.max(todaysPairs, anchor.lowerBound) / Math.max(1, modelledPairs);
  const modelled = pairPattern.length;
  // The fit ran on a sample when there were more candidates than maxCandidatePairs: scale to all of them.
  const scale = compared > 0 ? enumerated.pairs.size / compared : 1;
  // Read on a sample of the records: each record pair of the registry is among the sample's with this chance, so
  // the sample's pair counts, divided by it, are the registry's (1 when every record was read).
  const pairShare = (rows.length * (rows.length - 1)) / (population * (population - 1));
  const datasetDigest = recordsDigest(rows);
  // The model of a fit that passed its checks, or with none (accepted undefined) the fallback; `fit` is the fit whose
  // m the non-match u weighs out (the accepted one, or the one the report describes).
  const modelOf = (accepted: FitAttempt | undefined, fit: FitAttempt['fit']) => {
    const fitLambda = accepted === undefined ? Math.min(1, fallbackLambda) : fit.parameters.lambda;
    const expectedMatches = ((fitLambda * modelled + trusted) * scale) / pairShare;
    const prior = priorFromCandidates(expectedMatches, population);
    // u over non-matches: the random pairs the fitted model takes for one person weighted out (non-match-u.ts).
    const nonMatch = nonMatchU(random.patterns, fit.parameters.m, randomU, prior, emOptions);
    const { m: modelM, u: modelU } = neutralUnseenBands(fit.parameters.m, nonMatch.u, candidateCounts, random.counts);
    const fieldsOut: Partial<Record<FieldName, { m: Record<Band, number>; u: Record<Band, number> }>> = {};
    FIELD_NAMES.forEach((field, f) => {
      // A failed fit sets no weight: the fallback is the default model's m and u (FALLBACK_NOTE).
      const kept = accepted === undefined ? fallback.fields[field] : undefined;
      fieldsOut[field] = kept ?? { m: bandRecord(modelM, f * B), u: bandRecord(modelU, f * B) };
    });
    const model: FellegiSunterModel = {
      kind: 'fellegi-sunter-model',
      modelVersion: input.modelVersion,
      // A fallback the anchor leaves alone keeps the profile's prior as the profile states it, with the registry size
      // it was set for: re-stated at today's size it would never be raised again in a smaller registry (the live
      // scorer only lowers a prior past its size), and a fresh registry ingested under it linked 0.021 of F1 less
      // than under the default on a 50,000-record names-and-dates extract. Otherwise the prior is this registry's, at
      // its size today: the live scorer lowers it as the registry grows past it.
      ...(accepted === undefined && !anchorRaisesPrior
        ? {
            priorMatchProbability: startModel.priorMatchProbability,
            ...(startModel.priorRecords === undefined ? {} : { priorRecords: startModel.priorRecords }),
          }
        : { priorMatchProbability: prior, priorRecords: Math.max(1, population) }),
      smoothing,
      fields: fieldsOut,
      trainedAgainst: {
        matchingProfileVersion: stored.version,
        comparatorVersion,
        scoreMethodVersion: scorerVersions.methodVersion,
      },
      datasetId: `unsupervised-estimate:seed-${seed}`,
      datasetDigest,
      bands: [...BANDS],
    };
    return { model, fitLambda, expectedMatches, prior, nonMatch };
  };

  const { Probable, Certain } = stored.profile.MatchingRules.Thresholds;
  // A fit that passed its checks: the model-estimated figures and suggested thresholds (a failed fit has none, so
  // its candidates are not scored).
  const fittedFigures = (
    model: FellegiSunterModel,
    fit: FitAttempt['fit'],
  ): {
    figures: Pick<
      EstimateReport,
      'thresholds' | 'suggestedThresholds' | 'suggestedThresholdsAt' | 'reviewBand' | 'suggestion'
    >;
    rawScore: Float64Array;
    limited: Uint8Array;
    certain: number;
  } => {
    // Each candidate pair's score under the estimated model as the live scorer will give it (its term-frequency
    // adjustment of agreeing names, its name-evidence and twin limits) beside its posterior under the fitted
    // mixture; trusted-identifier pairs are certain matches.
    const compiled = compileModel(model);
    const score = new Float64Array(modelled + trusted);
    const rawScore = new Float64Array(modelled + trusted);
    const limited = new Uint8Array(modelled + trusted);
    const posterior = new Float64Array(modelled + trusted);
    for (let i = 0; i < modelled; i++) {
      if ((i & 8191) === 0) control.step('scoring candidate pairs under the model', i, modelled);
      const similarity = pairSimilarity.subarray(i * FIELD_COUNT, (i + 1) * FIELD_COUNT);
      const raw = storedPairScore(compiled, similarity, flagsOfPairs[i] ?? 0, pairTermReadings, i * TERM_READINGS);
      rawScore[i] = raw;
      limited[i] = scoreLimit(similarity, flagsOfPairs[i]) === undefined ? 0 : 1;
      score[i] = limitedScore(raw, similarity, Probable, flagsOfPairs[i]).score;
      posterior[i] = fit.posterior[pairPattern[i] ?? 0] ?? 0;
    }
    score.fill(1, modelled);
    rawScore.fill(1, modelled);
    posterior.fill(1, modelled);
    const suggested = suggestThresholds(
      score,
      posterior,
      { precision: input.targetPrecision ?? 0.999, recall: input.targetRecall ?? 0.999 },
      { Certain, Probable },
      {
        perThousandRecords: input.reviewBudget ?? DEFAULT_REVIEW_BUDGET,
        records: population,
        pairsPerScoredPair: scale / pairShare,
        rawScore,
        limited,
      },
    );
    const grid = [...new Set<number>([...(input.thresholds ?? []), Probable, Certain])].sort((a, b) => a - b);
    const figures = {
      thresholds: grid.map((t) => estimatedThresholdMetrics(t, score, posterior)),
      suggestedThresholds: { Certain: suggested.Certain, Probable: suggested.Probable },
      suggestedThresholdsAt: [...new Set([suggested.Probable, suggested.Certain])].map((t) =>
        estimatedThresholdMetrics(t, score, posterior),
      ),
      ...(suggested.reviewBand === undefined ? {} : { reviewBand: suggested.reviewBand }),
      suggestion: `${suggested.explanation}. The scores are the estimated model's as live matching will give them (with the tenant's name frequencies, and the profile's Probable for the name-evidence and twin limits); apply the thresholds with the model as one profile document {"MatchingRules": {"FellegiSunter": model, "Thresholds": suggestedThresholds}} only after checking them.`,
    };
    return { figures, rawScore, limited, certain: suggested.Certain };
  };

  // The starts that passed their checks, best first: the first whose model, applied with its suggested thresholds,
  // takes away no more of the active profile's links than it adds (links-kept.ts) is the estimate; with none, the
  // fallback, as when no start passed.
  const activeModel = stored.profile.MatchingRules.FellegiSunter;
  const compiledActive = activeModel === null ? null : compileModel(activeModel);
  const refused = new Map<FitAttempt, FitCheck>();
  // The pairs the active profile links, read once when a first start needs them.
  let byProfile: Uint8Array | undefined;
  let accepted: FitAttempt | undefined;
  let fitted: ReturnType<typeof fittedFigures> | undefined;
  let built: ReturnType<typeof modelOf> | undefined;
  let linksKept: FitCheck | undefined;
  for (const attempt of passed) {
    const candidate = modelOf(attempt, attempt.fit);
    const figures = fittedFigures(candidate.model, attempt.fit);
    if (compiledActive !== null)
      byProfile ??= profileLinks(
        { count: modelled, similarity: pairSimilarity, termReadings: pairTermReadings, flags: flagsOfPairs },
        { model: compiledActive, certain: Certain, priorShift: priorAdjustment(compiledActive, population) },
      );
    const check =
      byProfile === undefined
        ? undefined
        : linksKeptCheck(
            linkChange(byProfile, { score: figures.rawScore, held: figures.limited, certain: figures.certain }),
          );
    if (check === undefined || check.passed) {
      accepted = attempt;
      fitted = figures;
      built = candidate;
      linksKept = check;
      break;
    }
    refused.set(attempt, check);
    linksKept ??= check;
  }
  // The fit the report describes: the accepted start; else the best start the links check refused; else, when none
  // passed its checks, the first (the profile's model), whose checks and EM the report shows. The default model
  // (what a new tenant matches with) then sets the weights, and no figure comes from a mixture that was refused.
  const described = accepted ?? passed[0] ?? shown;
  const fit = described.fit;
  const bySession = described.bySession;
  const sessionFields = FIELD_NAMES.filter((_, f) => bySession.estimated[f] === 1);
  const { model, fitLambda, expectedMatches, prior, nonMatch } = built ?? modelOf(undefined, fit);
  const allConverged = accepted?.converged ?? false;

  const report: EstimateReport = {
    modelVersion: input.modelVersion,
    trainedAgainst: {
      matchingProfileVersion: stored.version,
      comparatorVersion,
      scoreMethod: scorerVersions.method,
      scoreMethodVersion: scorerVersions.methodVersion,
    },
    records: population,
    ...(population > rows.length ? { sampledRecords: rows.length } : {}),
    randomPairs: {
      compared: random.compared,
      decidedOutsideModel: random.decidedOutsideModel,
      seed,
      matchesWeightedOut: nonMatch.matchesWeightedOut,
    },
    candidates: {
      enumerated: enumerated.pairs.size,
      truncated: enumerated.truncated,
      compared,
      decidedByTrustedIdentifier: trusted,
      decidedByHardConflict: conflicts,
      modelled,
      distinctPatterns: patterns.counts.length,
    },
    convergence: {
      converged: allConverged,
      iterations: fit.iterations,
      maxIterations,
      tolerance,
      logLikelihood: fit.logLikelihood,
      finalObjectiveChange: fit.lastObjectiveChange,
      finalParameterChange: fit.lastParameterChange,
    },
    mSessions: { fields: sessionFields, sessions: [...bySession.fits] },
    candidateMatchShare: fitLambda,
    fit: {
      status: accepted === undefined ? 'fallback' : 'fitted',
      start: accepted?.start ?? null,
      checks: [...described.checks, ...(linksKept === undefined ? [] : [linksKept])],
      attempts: attempts.map((a) => ({
        start: a.start,
        passed: a.passed && !refused.has(a),
        logLikelihood: a.fit.logLikelihood,
        failedChecks: failedChecks(a, refused),
      })),
      anchor: {
        fields: [...anchor.fields],
        applies: anchor.applies,
        exactPairs: anchor.exactPairs,
        coincidences: anchor.coincidences,
        lowerBound: anchor.lowerBound,
      },
      ...(accepted === undefined ? { fallback: FALLBACK_NOTE } : {}),
    },
    expectedMatches,
    priorMatchProbability: prior,
    prior: `λ ${fitLambda.toPrecision(4)} of ${countText(modelled)} modelled candidate pairs${trusted > 0 ? ` plus ${countText(trusted)} trusted-identifier pairs` : ''}${scale === 1 ? '' : `, scaled to the ${countText(enumerated.pairs.size)} candidates`}${population > rows.length ? ` of a seeded sample of ${countText(rows.length)} of the ${countText(population)} records, and from the sample's record pairs to the registry's` : ''} is about ${countText(Math.round(expectedMatches))} true pairs; over all ${countText(population)} × ${countText(population - 1)} / 2 record pairs that is a random-pair prior of ${prior.toPrecision(4)} (the meaning the model's prior has with random-pair u)${enumerated.truncated ? '; candidate enumeration stopped at its cap, so the prior is an under-estimate' : ''}`,
    fieldObservations: FIELD_NAMES.map((field, f) => ({
      field,
      candidatePairs: observedPairs(candidateCounts, f),
      randomPairs: observedPairs(random.counts, f),
    })),
    ...(fitted === undefined
      ? {
          // A failed fit supports no thresholds of its own and no figures: its mixture's posterior is what the checks
          // refused (on a names-and-birth-dates extract it put a precision of 0.0000 at every threshold). The
          // profile's thresholds stay, no precision or recall is estimated, and the report says why.
          thresholds: [],
          suggestedThresholds: { Certain, Probable },
          suggestedThresholdsAt: [],
          suggestion: `No thresholds are suggested: the fit did not pass its checks (${failedChecksText(attempts, refused)}), so the model is the fallback (${FALLBACK_NOTE}), the suggested thresholds are the profile's own (Certain ${String(Certain)}, Probable ${String(Probable)}) and no precision or recall is estimated. Label a few hundred pairs and calibrate, or keep the default profile.`,
        }
      : fitted.figures),
    estimation: ESTIMATE_NOTE,
    caveat: ESTIMATE_CAVEAT,
    activated: false,
  };

  store.write(() => {
    writeAudit(store, ctx.tenantId, {
      actor: ctx.actor,
      action: 'matching.estimate',
      subject: 'matching-assurance/estimate',
      detail: {
        modelVersion: input.modelVersion,
        records: population,
        sampledRecords: rows.length,
        candidatePairs: modelled,
        iterations: fit.iterations,
        converged: allConverged,
        fit: accepted === undefined ? 'fallback' : 'fitted',
        datasetDigest: model.datasetDigest,
      },
    });
  });
  return { model, report };
}
