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

function ratio(numerator: number, denominator: number): number | null {
  return denominator > 0 ? numerator / denominator : null;
}

/** score[i] is pair i's score under the model, posterior[i] its match posterior under the mixture. */
export function estimatedThresholdMetrics(threshold: number, score: Float64Array, posterior: Float64Array): EstimatedThreshold {
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
  const f1 = precision === null || recall === null || precision + recall === 0 ? null : (2 * precision * recall) / (precision + recall);
  return { threshold, pairsAtOrAbove: above, expectedTruePositives: tp, expectedFalsePositives: fp, expectedFalseNegatives: fn, precision, recall, f1 };
}

export interface SuggestedThresholds {
  readonly Certain: number;
  readonly Probable: number;
  readonly explanation: string;
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
 * Neither moves the other way: the estimates are the model's own, and where correlated fields (a household's
 * shared address, phone and family name) make the mixture less sure of itself than the profile's thresholds
 * assume, widening the band on its word alone floods the review queue (measured on the synthetic population:
 * Certain 0.9999999 and Probable 0.10 took auto-link recall from 0.997 to 0.927 and reviews from 9 to 60 per
 * 1,000 records).
 */
export function suggestThresholds(score: Float64Array, posterior: Float64Array, targets: { precision: number; recall: number }, profile: { Certain: number; Probable: number }): SuggestedThresholds {
  const order = Array.from(score.keys()).sort((a, b) => (score[b] ?? 0) - (score[a] ?? 0));
  let total = 0;
  for (const g of posterior) total += g;
  let tp = 0;
  let fp = 0;
  let certain: number | undefined;
  let probable: number | undefined;
  for (let k = 0; k < order.length; k++) {
    const i = order[k] ?? 0;
    const s = score[i] ?? 0;
    const g = posterior[i] ?? 0;
    tp += g;
    fp += 1 - g;
    // Only at the last pair of a run of equal scores: a threshold takes every pair with that score.
    if (k + 1 < order.length && score[order[k + 1] ?? 0] === s) continue;
    if (s >= 0.5 && tp / (tp + fp) >= targets.precision) certain = s;
    if (probable === undefined && total > 0 && tp / total >= targets.recall) probable = s;
  }
  const Certain = Math.min(certain ?? profile.Certain, profile.Certain);
  const Probable = Math.min(Math.max(probable ?? profile.Probable, profile.Probable), Certain);
  const explanation = [
    certain === undefined
      ? `Certain stays at the profile's ${String(profile.Certain)}: no score of at least 0.5 reaches the model-estimated precision ${String(targets.precision)}`
      : certain >= profile.Certain
        ? `Certain stays at the profile's ${String(profile.Certain)}: the model-estimated precision reaches ${String(targets.precision)} only from ${certain.toPrecision(6)} up`
        : `Certain ${Certain.toPrecision(6)}: the lowest score (at least 0.5) at which the model-estimated precision of auto-links is at least ${String(targets.precision)}`,
    probable === undefined || probable <= profile.Probable
      ? `Probable stays at the profile's ${String(profile.Probable)}${Probable < profile.Probable ? `, capped at Certain (${Probable.toPrecision(6)})` : ''}: above it the model-estimated recall of auto-links and reviews would fall below ${String(targets.recall)}`
      : `Probable ${Probable.toPrecision(6)}: the highest score at which the model-estimated recall of auto-links and reviews together is at least ${String(targets.recall)}${probable > Certain ? ', capped at Certain' : ''}`,
  ].join('; ');
  return { Certain, Probable, explanation };
}
