/**
 * Ground-truth evaluation of the active matching profile on labelled record pairs (spec "Evaluation
 * request", "Evaluation report (contents)", Endpoints rule 3, Events rule 3).
 *
 * The score of a pair is the active scorer's outcome score, precedence included: 1 when a trusted
 * identifier agrees, 0 when a hard-conflict rule fires, otherwise the score method's score (the
 * weighted similarity, or the Fellegi-Sunter probability when a model is configured), held to at most
 * Thresholds.Probable without name evidence (engine/scoring/scorer.ts). A pair is predicted
 * a match at threshold t when score >= t.
 *
 * Beside these scored-pairs metrics, `endToEnd` gives the same metrics with blocking counted: a pair is
 * predicted a match only when blocking finds it and its score reaches the threshold (end-to-end-metrics.ts).
 * One candidate mask serves blocking recall (over the matches) and the end-to-end counts (over all pairs).
 *
 * Error examples (at most min(maximumErrorExamples, 100) in all): a false positive is a labelled
 * non-match predicted a match at the LOWEST requested threshold (so it is wrong at one threshold at
 * least); the most confident are those with the highest score. A false negative is a labelled match
 * predicted a non-match at the HIGHEST requested threshold; the most confident are those with the lowest
 * score. Half of the allowance goes to each kind (the first half to false positives when it is odd); a
 * kind with fewer examples leaves its share to the other. Ties keep dataset order. Examples carry record
 * references, the score and field evidence (comparator, similarity, band, weight or ln(m/u)): never a
 * demographic value.
 *
 * Evaluation changes no patient, link or configuration. It writes one audit record holding only the
 * dataset ID, the dataset digest, the class counts and the action: no record identifier.
 */
import { NO_CONTROL, type RunControl } from '../run-control.ts';
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { MAX_ERROR_EXAMPLES, type EvaluationReport } from '../contract/assurance.ts';
import { FIELD_NAMES } from '../contract/fields.ts';
import { keyRingFor } from '../config/key-ring.ts';
import { FIELD_COUNT } from '../scoring/field-comparison.ts';
import { writeAudit } from '../store/audit.ts';
import type { EngineEnv } from '../env.ts';
import { BlockingKeyOverlap, blockingCandidateMask, blockingRecallOf } from './blocking-recall.ts';
import { endToEndMetrics } from './end-to-end-metrics.ts';
import { DECIDED_BY, loadDataset, type LoadedDataset } from './load-pairs.ts';
import { thresholdMetrics } from './threshold-metrics.ts';
import { scoreDistribution } from '../contract/statistics/score-distribution.ts';
import { scoreBasis } from '../scoring/score-basis.ts';
import { outcomeDetails } from '../scoring/scorer.ts';
import { ERROR_EXAMPLE_RULE, EVALUATION_SCORE_NOTE } from './report-text.ts';

/** Mean similarity per field and class over the pairs where both records have the field. */
export function fieldSimilarity(similarity: Float64Array, isMatch: Uint8Array): EvaluationReport['fieldSimilarity'] {
  const sums = new Float64Array(FIELD_COUNT * 2);
  const counts = new Uint32Array(FIELD_COUNT * 2);
  for (let i = 0; i < isMatch.length; i++) {
    const offset = isMatch[i] === 1 ? 0 : FIELD_COUNT;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const s = similarity[i * FIELD_COUNT + f] ?? Number.NaN;
      if (Number.isNaN(s)) continue;
      sums[offset + f] = (sums[offset + f] ?? 0) + s;
      counts[offset + f] = (counts[offset + f] ?? 0) + 1;
    }
  }
  const meanAt = (index: number): number | null => {
    const n = counts[index] ?? 0;
    return n === 0 ? null : (sums[index] ?? 0) / n;
  };
  return FIELD_NAMES.map((field, f) => ({
    field,
    matchMean: meanAt(f),
    matchObserved: counts[f] ?? 0,
    nonMatchMean: meanAt(FIELD_COUNT + f),
    nonMatchObserved: counts[FIELD_COUNT + f] ?? 0,
  }));
}

/** Indexes of the most confident errors, within the allowance; see the module comment. */
export function errorExampleIndexes(
  score: Float64Array,
  isMatch: Uint8Array,
  thresholds: readonly number[],
  maximumErrorExamples: number,
): { falsePositives: number[]; falseNegatives: number[] } {
  const allowance = Math.min(maximumErrorExamples, MAX_ERROR_EXAMPLES);
  const lowest = Math.min(...thresholds);
  const highest = Math.max(...thresholds);
  const fps: number[] = [];
  const fns: number[] = [];
  for (let i = 0; i < score.length; i++) {
    const s = score[i] ?? Number.NaN;
    if (isMatch[i] === 1) {
      if (s < highest) fns.push(i);
    } else if (s >= lowest) fps.push(i);
  }
  fps.sort((a, b) => (score[b] ?? 0) - (score[a] ?? 0) || a - b);
  fns.sort((a, b) => (score[a] ?? 0) - (score[b] ?? 0) || a - b);
  let fpTake = Math.min(fps.length, Math.ceil(allowance / 2));
  const fnTake = Math.min(fns.length, allowance - fpTake);
  fpTake = Math.min(fps.length, allowance - fnTake);
  return { falsePositives: fps.slice(0, fpTake), falseNegatives: fns.slice(0, fnTake) };
}

function example(data: LoadedDataset, index: number): EvaluationReport['errorExamples']['falsePositives'][number] {
  const pair = data.pairs[index];
  const a = data.prepared[data.left[index] ?? 0];
  const b = data.prepared[data.right[index] ?? 0];
  if (pair === undefined || a === undefined || b === undefined)
    throw new Error('unreachable: example index out of range');
  const explained = data.scorer.explain(a, b);
  return {
    left: { sourceSystem: pair.left.sourceSystem, localId: pair.left.localId },
    right: { sourceSystem: pair.right.sourceSystem, localId: pair.right.localId },
    isMatch: pair.isMatch,
    score: data.score[index] ?? explained.score,
    decidedBy: explained.decidedBy,
    evidence: explained.evidence,
    decision: explained.decision,
    ...outcomeDetails(explained),
  };
}

export function evaluate(
  env: EngineEnv,
  input: OperationInput<'matching/evaluate'>,
  ctx: CallContext,
  control: RunControl = NO_CONTROL,
): OperationOutput<'matching/evaluate'> {
  const { store } = env;
  const maximumErrorExamples = input.maximumErrorExamples ?? 10;
  const report = store.read((): EvaluationReport => {
    const data = loadDataset(store, ctx, input, { minimumPerClass: 1 }, control);
    const { stored, scorer } = data;
    const ring = keyRingFor(stored.profile.Blocking, env.settings(), ctx.tenantId);
    const overlap = new BlockingKeyOverlap(store, ctx.tenantId, stored.profile.Blocking, ring);
    const decided = [0, 0, 0];
    for (const code of data.decidedBy) decided[code] = (decided[code] ?? 0) + 1;
    control.step('checking blocking recall', 0, null);
    const candidate = blockingCandidateMask(overlap, data.fields, data.left, data.right, data.isMatch);
    control.step('computing the metrics', 0, null);
    const examples = errorExampleIndexes(data.score, data.isMatch, input.thresholds, maximumErrorExamples);
    return {
      datasetId: input.datasetId,
      datasetDigest: data.digest,
      versions: {
        matchingProfileVersion: stored.version,
        comparatorVersion: scorer.comparatorVersion,
        scoreMethod: scorer.method,
        scoreMethodVersion: scorer.methodVersion,
      },
      labels: {
        pairs: data.pairs.length,
        matches: data.matches,
        nonMatches: data.nonMatches,
        distinctRecords: data.prepared.length,
      },
      decidedBy: {
        trustedIdentifier: decided[DECIDED_BY.indexOf('trusted-identifier')] ?? 0,
        hardConflict: decided[DECIDED_BY.indexOf('hard-conflict')] ?? 0,
        score: decided[DECIDED_BY.indexOf('score')] ?? 0,
      },
      scoreNote: EVALUATION_SCORE_NOTE,
      blockingRecall: blockingRecallOf(candidate, data.isMatch),
      thresholds: input.thresholds.map((t) => thresholdMetrics(t, data.score, data.isMatch)),
      endToEnd: endToEndMetrics(input.thresholds, data.score, data.isMatch, candidate),
      fieldSimilarity: fieldSimilarity(data.similarity, data.isMatch),
      errorExamples: {
        rule: ERROR_EXAMPLE_RULE,
        requested: maximumErrorExamples,
        falsePositives: examples.falsePositives.map((i) => example(data, i)),
        falseNegatives: examples.falseNegatives.map((i) => example(data, i)),
      },
      scoreDistribution: scoreDistribution(data.score, data.isMatch),
      scoreBasis: scoreBasis(stored.profile),
    };
  });
  store.write(() => {
    writeAudit(store, ctx.tenantId, {
      actor: ctx.actor,
      action: 'matching.evaluate',
      subject: 'matching-assurance/evaluation',
      detail: {
        datasetId: report.datasetId,
        datasetDigest: report.datasetDigest,
        matches: report.labels.matches,
        nonMatches: report.labels.nonMatches,
      },
    });
  });
  return report;
}
