/**
 * A model's own estimate of its precision and recall, without labels: under the fitted mixture each candidate
 * pair is a match with its posterior probability g, so at a threshold t the expected true positives are
 * Σ g over the pairs scoring ≥ t, the expected false positives Σ (1 − g) over them and the expected false
 * negatives Σ g over the pairs below t (Belin & Rubin 1995 estimate error rates from the mixture the same
 * way; Splink's "m/u-estimated" precision-recall chart likewise). These are model-estimated, not measured:
 * they are as good as the model's assumptions (conditional independence, two classes), and a true pair that
 * blocking never brings together is invisible to them.
 */
import type { EstimatedThreshold } from '../contract/estimate.ts';
import { figureText } from '../contract/figure-text.ts';
import { simplestThresholdInGap } from '../stats/simplest-threshold.ts';

function ratio(numerator: number, denominator: number): number | null {
  return denominator > 0 ? numerator / denominator : null;
}

/** score[i] is pair i's score under the model, posterior[i] its match posterior under the mixture. */
export function estimatedThresholdMetrics(
  threshold: number,
  score: Float64Array,
  posterior: Float64Array,
): EstimatedThreshold {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let above = 0;
  for (let i = 0; i < score.length; i++) {
    const g = posterior[i] ?? 0;
    if ((score[i] ?? 0) >= threshold) {
      above++;
      tp += g;
      fp += 1 - g;
    } else fn += g;
  }
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  const f1 =
    precision === null || recall === null || precision + recall === 0
      ? null
      : (2 * precision * recall) / (precision + recall);
  return {
    threshold,
    pairsAtOrAbove: above,
    expectedTruePositives: tp,
    expectedFalsePositives: fp,
    expectedFalseNegatives: fn,
    precision,
    recall,
    f1,
  };
}

export interface SuggestedThresholds {
  readonly Certain: number;
  readonly Probable: number;
  readonly explanation: string;
  /** With a review budget: the band at the suggested thresholds (EstimateReport.reviewBand). */
  readonly reviewBand?: {
    readonly budgetPerThousandRecords: number;
    readonly pairsPerThousandRecords: number;
    readonly budgetRaisedProbable: boolean;
    readonly expectedTruePairsLeftOut: number;
  };
}

/**
 * How many review cases the suggested thresholds may open: at most `perThousandRecords` candidate pairs in the
 * review band per 1,000 of the tenant's `records` (each review case holds one or more pairs, so the cases stay
 * within it too). `pairsPerScoredPair` scales the scored pairs to all candidates when the estimate scored a sample.
 * `rawScore` is each pair's score before the scorer's limits and `limited` marks the pairs the name-evidence or
 * twin limit holds at Probable whenever they reach it (scoring/scorer.ts): at a raised Probable p such a pair is
 * reviewed when its raw score is at least p, whatever Certain is.
 */
export interface ReviewBudget {
  readonly perThousandRecords: number;
  readonly records: number;
  readonly pairsPerScoredPair: number;
  readonly rawScore: Float64Array;
  readonly limited: Uint8Array;
}

/**
 * Thresholds from the model's own estimates, in the spirit of Fellegi & Sunter's rule (link above an upper
 * threshold set by the admissible false-link rate, review between, non-link below one set by the admissible
 * missed-link rate), starting from the profile's thresholds and only ever narrowing the review band:
 *  - Certain moves down to the lowest pair score at which the estimated precision of everything at or above
 *    it is still at least targetPrecision, but never below 0.5, so a pair is only linked when the model holds
 *    a match more likely than not (for calibrated probabilities the F1-optimal threshold is half the best F1,
 *    ≈ 0.5: Lipton, Elkan & Naryanaswamy 2014, "Optimal thresholding of classifiers to maximize F1 measure").
 *  - Probable moves up to the highest pair score at which the estimated recall of auto-links and reviews
 *    together is still at least targetRecall, never above Certain.
 *  - Then, when the band between them would hold more candidate pairs than the review budget allows, Probable
 *    moves up again to the lowest score at which it does not: the pairs reviewed are the ones the model holds
 *    most likely to be one person, and the explanation says how many true pairs the model expects to leave
 *    below Probable, neither linked nor reviewed. A queue nobody can work through finds no duplicates either
 *    (Fellegi & Sunter's rule bounds the clerical-review region by the same trade-off).
 * Each cut lies at a candidate pair's score, and every threshold between it and the next lower score gives the same
 * links and reviews on the candidates, so the one suggested is the simplest number there (simplest-threshold.ts),
 * as calibration's are: 0.9 rather than 0.9095997902292848, a figure a person can read, check and type.
 * Neither moves the other way: the estimates are the model's own, and where correlated fields (a household's
 * shared address, phone and family name) make the mixture less sure of itself than the profile's thresholds
 * assume, widening the band on its word alone floods the review queue (measured on the synthetic population:
 * Certain 0.9999999 and Probable 0.10 took auto-link recall from 0.997 to 0.927 and reviews from 9 to 60 per
 * 1,000 records).
 */
export function suggestThresholds(
  score: Float64Array,
  posterior: Float64Array,
  targets: { precision: number; recall: number },
  profile: { Certain: number; Probable: number },
  budget?: ReviewBudget,
): SuggestedThresholds {
  const order = Array.from(score.keys()).sort((a, b) => (score[b] ?? 0) - (score[a] ?? 0));
  let total = 0;
  for (const g of posterior) total += g;
  let tp = 0;
  let fp = 0;
  // The cuts at pair scores (the score and the next lower one), made simple below, once the profile's are weighed.
  let certainCut: { score: number; below: number | null } | undefined;
  let probableCut: { score: number; below: number | null } | undefined;
  for (let k = 0; k < order.length; k++) {
    const i = order[k] ?? 0;
    const s = score[i] ?? 0;
    const g = posterior[i] ?? 0;
    tp += g;
    fp += 1 - g;
    // Only at the last pair of a run of equal scores: a threshold takes every pair with that score.
    if (k + 1 < order.length && score[order[k + 1] ?? 0] === s) continue;
    const below = k + 1 < order.length ? (score[order[k + 1] ?? 0] ?? 0) : null;
    if (s >= 0.5 && tp / (tp + fp) >= targets.precision) certainCut = { score: s, below };
    if (probableCut === undefined && total > 0 && tp / total >= targets.recall) probableCut = { score: s, below };
  }
  const certain = certainCut?.score;
  // Below the profile's Certain, the simplest number in the cut's gap: at least 0.5, since it is the score cut to
  // fewer decimals and the score is at least 0.5. At or above it, the profile's stays.
  const Certain =
    certainCut === undefined || certainCut.score >= profile.Certain
      ? profile.Certain
      : simplestThresholdInGap(certainCut.below, certainCut.score);
  // Above the profile's Probable, the simplest number in the cut's gap, unless the profile's lies in that gap: it
  // reviews the same pairs, so it stays.
  const probable =
    probableCut === undefined
      ? undefined
      : probableCut.score > profile.Probable && (probableCut.below === null || probableCut.below >= profile.Probable)
        ? simplestThresholdInGap(probableCut.below, probableCut.score)
        : Math.min(probableCut.score, profile.Probable);
  const fromRecall = Math.min(Math.max(probable ?? profile.Probable, profile.Probable), Certain);
  const band = budget === undefined ? null : withinBudget(posterior, Certain, fromRecall, budget);
  const capped = band?.raised ?? null;
  const Probable = capped?.Probable ?? fromRecall;
  const reviewBand =
    budget === undefined || band === null
      ? undefined
      : {
          budgetPerThousandRecords: budget.perThousandRecords,
          pairsPerThousandRecords: (1000 * band.pairs) / budget.records,
          budgetRaisedProbable: capped !== null,
          expectedTruePairsLeftOut: capped?.leftOut ?? 0,
        };
  const explanation = [
    certain === undefined
      ? `Certain stays at the profile's ${String(profile.Certain)}: no score of at least 0.5 reaches the model-estimated precision ${String(targets.precision)}`
      : certain >= profile.Certain
        ? `Certain stays at the profile's ${String(profile.Certain)}: the model-estimated precision reaches ${String(targets.precision)} only from ${figureText(certain)} up`
        : `Certain ${figureText(Certain)}: the lowest score (at least 0.5) at which the model-estimated precision of auto-links is at least ${String(targets.precision)}`,
    probable === undefined || probable <= profile.Probable
      ? `Probable ${capped === null ? 'stays at' : 'would stay at'} the profile's ${String(profile.Probable)}${fromRecall < profile.Probable ? `, capped at Certain (${figureText(fromRecall)})` : ''}: above it the model-estimated recall of auto-links and reviews would fall below ${String(targets.recall)}`
      : `Probable ${capped === null ? '' : 'would be '}${figureText(fromRecall)}: the highest score at which the model-estimated recall of auto-links and reviews together is at least ${String(targets.recall)}${probable > Certain ? ', capped at Certain' : ''}`,
    ...(capped === null ? [] : [capped.explanation]),
  ].join('; ');
  return { Certain, Probable, explanation, ...(reviewBand === undefined ? {} : { reviewBand }) };
}

/** Whether a Probable below Certain would leave the pair to review: a limited pair always, else one the score alone does not link. */
function reviewable(budget: ReviewBudget, Certain: number, i: number): boolean {
  return budget.limited[i] === 1 || (budget.rawScore[i] ?? 0) < Certain;
}

/** The candidate pairs (scaled to all candidates) a Probable of p sends to review. */
function reviewPairs(budget: ReviewBudget, Certain: number, p: number): number {
  let n = 0;
  for (let i = 0; i < budget.rawScore.length; i++)
    if ((budget.rawScore[i] ?? 0) >= p && reviewable(budget, Certain, i)) n++;
  return n * budget.pairsPerScoredPair;
}

/**
 * The review band within the budget: `pairs` a Probable sends to review (scaled to all candidates), and `raised`
 * when the band from the recall target did not fit: Probable moved to the lowest raw pair score p below Certain at
 * which the pairs a Probable of p sends to review fit the budget (the unlimited pairs scoring in [p, Certain) and
 * the limited pairs whose raw score is at least p), Certain itself when not even the highest of them fit.
 */
function withinBudget(
  posterior: Float64Array,
  Certain: number,
  Probable: number,
  budget: ReviewBudget,
): { pairs: number; raised: { Probable: number; explanation: string; leftOut: number } | null } {
  const { rawScore, pairsPerScoredPair } = budget;
  const allowed = (budget.perThousandRecords * budget.records) / 1000;
  const reviewed = (i: number): boolean => reviewable(budget, Certain, i);
  const before = reviewPairs(budget, Certain, Probable);
  if (before <= allowed) return { pairs: before, raised: null };
  const order = Array.from(rawScore.keys())
    .filter(reviewed)
    .sort((a, b) => (rawScore[b] ?? 0) - (rawScore[a] ?? 0));
  let raised = Certain;
  let inBand = 0;
  for (let k = 0; k < order.length; k++) {
    const s = rawScore[order[k] ?? 0] ?? 0;
    inBand += pairsPerScoredPair;
    // Only at the last pair of a run of equal scores, and only below Certain (held pairs above it always go to review).
    if (k + 1 < order.length && rawScore[order[k + 1] ?? 0] === s) continue;
    if (inBand > allowed) break;
    // The simplest number down to the next reviewed pair's score sends the same pairs to review.
    const below = k + 1 < order.length ? (rawScore[order[k + 1] ?? 0] ?? 0) : null;
    if (s < Certain) raised = Math.max(Probable, simplestThresholdInGap(below, s));
  }
  let leftOut = 0;
  for (let i = 0; i < rawScore.length; i++) {
    const s = rawScore[i] ?? 0;
    if (reviewed(i) && s >= Probable && s < raised) leftOut += posterior[i] ?? 0;
  }
  leftOut *= pairsPerScoredPair;
  const pairs = reviewPairs(budget, Certain, raised);
  const rate = (n: number): string => ((1000 * n) / budget.records).toFixed(1);
  const budgetText = `${String(budget.perThousandRecords)} per 1,000 of the ${String(budget.records)} records`;
  const left = `the model expects about ${leftOut.toFixed(0)} true pairs among the pairs it leaves below Probable, neither linked nor reviewed`;
  return {
    pairs,
    raised: {
      Probable: raised,
      leftOut,
      explanation:
        raised >= Certain
          ? `Probable raised to Certain (${figureText(raised)}): even the highest-scoring pairs below Certain exceed the review budget (${budgetText}), so only the pairs the name-evidence and twin limits hold go to review (${rate(pairs)} per 1,000 records); ${left}`
          : `Probable raised to ${figureText(raised)} to keep the review band within the review budget (${budgetText}): ${rate(pairs)} candidate pairs per 1,000 records instead of ${rate(before)}; ${left}`,
    },
  };
}
