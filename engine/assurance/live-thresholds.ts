/**
 * The thresholds to use with a calibrated model in live matching, on the score scale the live scorer gives.
 *
 * Held-out labels are not a sample of what live matching meets: a label set holds every true pair it could find
 * and a chosen number of hard non-matches, so its balance of classes is the analyst's, not the registry's. Precision
 * measured on it says little about live precision. Recall and the false-positive rate do not depend on the balance
 * (each is measured within one class), so live precision follows from them and the live share of true pairs among
 * the pairs the scorer meets, π (the model's priorMatchProbability, which calibration asks for as that share):
 *
 *   precision_live(t) = π · TPR(t) / (π · TPR(t) + (1 − π) · FPR(t))
 *
 * (the standard correction of precision for a class prior different from the sample's; Brabec et al. 2020, "On
 * model evaluation under non-constant class imbalance"). From it:
 *  - Certain: the higher of the cut that maximises live F1 and the lowest cut whose live precision reaches the
 *    target with 95% confidence; so automatic links are at least as precise as asked, and no more cautious than the
 *    best F1 needs. "With 95% confidence": the live precision computed from the lower end of TPR's Wilson interval and
 *    the upper end of FPR's (wilson-interval.ts) reaches the target, as the report's held-out precision target asks
 *    of its own interval. The point estimate alone fails where it matters most: when true pairs are rare among the
 *    candidates, a few hundred held-out non-matches with no false positive among them cannot tell an FPR of 0 from
 *    one of 0.1%, and at a live share of 1% that is the difference between precision 1 and 0.9. On a million-record
 *    sandbox (2,000 labels, prior 0.0125) the point estimate put Certain at 0.0002 with "live precision 1.000";
 *    the ground truth of a uniform sample of its candidate pairs gave 0.90.
 *  - Probable: the lowest cut that keeps the review band (from Probable up to Certain) at a live precision of at
 *    least 0.5 with 95% confidence (bounded as Certain's), piece by piece: a reviewer meets at least as many pairs
 *    that are one person as pairs that are two, at the band's low end as at its high end. Never above Certain (then
 *    there is no review band). On that sandbox, the point estimate put Probable at 3e-8 and the band's live
 *    precision was 0.35: two million review cases.
 * The thresholds are on the model's score, which need not read as a probability of the live population: a model
 * calibrated on labels whose non-matches were drawn hard (the closest candidates) weighs agreement less than the
 * live population warrants, and its Certain can sit far below 0.5 while live precision stays above the target.
 * Each is placed at the simplest number in its gap of held-out scores (simplest-threshold.ts).
 *
 * A pair the scorer's name-evidence or twin limits hold (`held`: scorer.ts limitedScore) is never linked
 * automatically: live matching holds it at the model's own Probable, a review case whenever its score reaches
 * Probable. So it counts at no Certain, and in the review band of every Probable its score reaches, above Certain
 * too, as the estimate's review budget counts such pairs (estimated-metrics.ts).
 *
 * With a review budget (the estimate's: at most so many candidate pairs in the band per 1,000 records), the band also
 * stops growing before the piece that would take it over the budget. The band's live pairs are the registry's
 * candidate pairs C read through the labels' rates, C · (π · TPR_band + (1 − π) · FPR_band), held pairs at or above
 * Certain included: the estimate counts its band's candidates one by one, calibration can only weigh them so. A queue
 * nobody can work through finds no duplicates either.
 */
import { simplestThresholdInGap } from '../stats/simplest-threshold.ts';
import { countsAtThreshold, sweep, type ScoredExample } from '../stats/threshold-sweep.ts';
import { wilsonInterval } from '../stats/wilson-interval.ts';

export interface LiveOperatingPoint {
  readonly threshold: number;
  /** Live precision and recall at the threshold (held-out recall; precision corrected to the live share π). */
  readonly precision: number | null;
  readonly recall: number | null;
  /** The live precision from TPR's lower and FPR's upper 95% Wilson bound: what the labels show with confidence. */
  readonly precisionLowerBound: number | null;
}

export interface LiveThresholds {
  readonly Certain: number;
  readonly Probable: number;
  readonly prior: number;
  readonly targetPrecisionMet: boolean;
  /**
   * Where Certain comes from: the target shown with 95% confidence; else the cut where the labels show the most, when
   * that is at least FALLBACK_PRECISION_FLOOR; else the highest held-out score (almost nothing links on its own).
   */
  readonly certainFrom: 'target' | 'best-shown' | 'highest-score';
  readonly atCertain: LiveOperatingPoint;
  readonly atProbable: LiveOperatingPoint;
  /** The held-out non-matches there are, and (when the target is not met) about how many would show it. */
  readonly heldOutNonMatches: number;
  readonly heldOutNonMatchesNeeded: number | null;
  /** The review band's live load against the budget, when one was given (see the file's head). */
  readonly reviewLoad?: ReviewLoad;
}

/**
 * A review budget: at most `perThousandRecords` candidate pairs in the band per 1,000 of the registry's `records`, of
 * its `candidatePairs` blocking candidates (scaled to the registry when counted on a sample).
 */
export interface LiveReviewBudget {
  readonly perThousandRecords: number;
  readonly records: number;
  readonly candidatePairs: number;
}

export interface ReviewLoad {
  readonly budgetPerThousandRecords: number;
  /** The band's expected candidate pairs per 1,000 records at the chosen Probable. */
  readonly pairsPerThousandRecords: number;
  /** Whether the budget stopped the band above where the 0.5 rule would have taken it. */
  readonly budgetRaisedProbable: boolean;
  /** The band's expected pairs per 1,000 records had the budget not stopped it (equal when it did not). */
  readonly unbudgetedPairsPerThousandRecords: number;
}

const Z = 1.959963984540054;

/**
 * When the labels cannot show the target, Certain falls back to the cut where they show the most precision, provided
 * they show at least this there (the console's default target); below it, to the highest held-out score. So an
 * analyst who asks 0.99 of 1,500 held-out non-matches at a prior of 0.07 (which can show 0.968 at most) still gets
 * usable thresholds, marked as short of the target, while labels that show only 0.55 never link on their own.
 */
export const FALLBACK_PRECISION_FLOOR = 0.95;

/**
 * About how many held-out non-matches, none of them at or above the cut, would show live precision `target` with
 * 95% confidence at recall `tpr`: FPR's Wilson upper bound with no false positive is z² / (n + z²), and the target
 * needs FPR ≤ π · TPR · (1 − target) / (target · (1 − π)).
 */
function nonMatchesNeeded(prior: number, tpr: number, target: number): number | null {
  const fpr = (prior * tpr * (1 - target)) / (target * (1 - prior));
  return fpr > 0 && fpr < 1 ? Math.ceil((Z * Z * (1 - fpr)) / fpr) : null;
}

interface Cut {
  readonly score: number;
  readonly below: number | null;
  /** Held-out matches and non-matches at or above the cut, and their rates. */
  readonly tp: number;
  readonly fp: number;
  readonly tpr: number;
  readonly fpr: number;
  /** Live precision with 95% confidence (see the file's head). */
  readonly precisionLowerBound: number | null;
}

/** Live precision with 95% confidence from tp of the positives and fp of the negatives (see the file's head). */
function precisionBound(prior: number, tp: number, positives: number, fp: number, negatives: number): number | null {
  const tpr = wilsonInterval(tp, positives);
  const fpr = wilsonInterval(fp, negatives);
  return tpr === null || fpr === null ? null : livePrecision(prior, tpr.lower, fpr.upper);
}

function livePrecision(prior: number, tpr: number, fpr: number): number | null {
  const positive = prior * tpr + (1 - prior) * fpr;
  return positive > 0 ? (prior * tpr) / positive : null;
}

function liveF1(prior: number, cut: Cut): number {
  const precision = livePrecision(prior, cut.tpr, cut.fpr);
  return precision === null || precision + cut.tpr === 0 ? 0 : (2 * precision * cut.tpr) / (precision + cut.tpr);
}

/** A held-out pair's score under the model, and whether the scorer's limits hold it to review (see the file's head). */
export interface LiveExample extends ScoredExample {
  readonly held?: boolean;
}

/**
 * Every distinct score of `examples` as a cut "score ≥ t", highest first, with the next lower score and the rates
 * over all `positives` and `negatives` held out.
 */
function cutsOf(examples: readonly ScoredExample[], prior: number, positives: number, negatives: number): Cut[] {
  const { points } = sweep(examples);
  return points.map((p, i) =>
    cutAt(
      prior,
      { score: p.threshold, below: points[i + 1]?.threshold ?? null, tp: p.tp, fp: p.fp },
      positives,
      negatives,
    ),
  );
}

/** The cut "score ≥ `score`" holding tp matches and fp non-matches, with its rates and its live precision bound. */
function cutAt(
  prior: number,
  at: { readonly score: number; readonly below: number | null; readonly tp: number; readonly fp: number },
  positives: number,
  negatives: number,
): Cut {
  return {
    ...at,
    tpr: positives > 0 ? at.tp / positives : 0,
    fpr: negatives > 0 ? at.fp / negatives : 0,
    precisionLowerBound: precisionBound(prior, at.tp, positives, at.fp, negatives),
  };
}

function point(prior: number, cut: Cut, threshold: number): LiveOperatingPoint {
  return {
    threshold,
    precision: livePrecision(prior, cut.tpr, cut.fpr),
    recall: cut.tpr,
    precisionLowerBound: cut.precisionLowerBound,
  };
}

/**
 * The live operating point of the cut "score ≥ threshold" on held-out examples, as the live thresholds' points are
 * measured (recall and false-positive rate, precision reweighted to the live share `prior`, its 95% lower bound): the
 * active profile's, to set beside a calibrated model's. Null when the examples lack a class.
 */
export function operatingPointAt(
  examples: readonly ScoredExample[],
  prior: number,
  threshold: number,
): LiveOperatingPoint | null {
  const { tp, fp, tn, fn } = countsAtThreshold(examples, threshold);
  const positives = tp + fn;
  const negatives = fp + tn;
  if (positives === 0 || negatives === 0) return null;
  const tpr = tp / positives;
  return {
    threshold,
    precision: livePrecision(prior, tpr, fp / negatives),
    recall: tpr,
    precisionLowerBound: precisionBound(prior, tp, positives, fp, negatives),
  };
}

/**
 * Live thresholds from held-out scores, or null when the held-out pairs lack a class (no rate can be measured) or
 * every one is held (nothing can be linked).
 * `prior`: the live share of true pairs among the pairs the scorer meets, strictly between 0 and 1.
 */
export function liveThresholds(
  examples: readonly LiveExample[],
  prior: number,
  targetPrecision: number,
  budget?: LiveReviewBudget,
): LiveThresholds | null {
  if (!(prior > 0 && prior < 1)) throw new RangeError('prior must be strictly between 0 and 1');
  if (!examples.some((e) => e.isMatch) || !examples.some((e) => !e.isMatch)) return null;
  const positives = examples.filter((e) => e.isMatch).length;
  const negatives = examples.length - positives;
  // Certain's cuts over the pairs it can link; a held pair counts against recall at every one.
  const linkable = examples.filter((e) => e.held !== true);
  if (linkable.length === 0) return null;
  const cuts = cutsOf(linkable, prior, positives, negatives);
  let bestF1: Cut | undefined;
  let lowestMeeting: Cut | undefined;
  // The cut where the labels show the most precision (the higher of equals).
  let bestShown: Cut | undefined;
  for (const cut of cuts) {
    if (bestF1 === undefined || liveF1(prior, cut) > liveF1(prior, bestF1)) bestF1 = cut;
    // Cuts run from the highest score down, so the last that meets the target is the lowest.
    if ((cut.precisionLowerBound ?? 0) >= targetPrecision) lowestMeeting = cut;
    if ((cut.precisionLowerBound ?? 0) > (bestShown?.precisionLowerBound ?? 0)) bestShown = cut;
  }
  const top = cuts[0] as Cut;
  const f1Cut = bestF1 ?? top;
  const fallback =
    bestShown !== undefined && (bestShown.precisionLowerBound ?? 0) >= FALLBACK_PRECISION_FLOOR ? bestShown : undefined;
  const certainFrom: LiveThresholds['certainFrom'] =
    lowestMeeting !== undefined ? 'target' : fallback !== undefined ? 'best-shown' : 'highest-score';
  const certainCut =
    lowestMeeting !== undefined ? (lowestMeeting.score > f1Cut.score ? lowestMeeting : f1Cut) : (fallback ?? top);
  const certain = simplestThresholdInGap(certainCut.below, certainCut.score);
  // The review band [Probable, Certain) grows down in pieces, each showing live precision 0.5 with 95% confidence on
  // its own held-out pairs, so a tail of mostly two people never rides on the pairs of one person above it. A piece
  // that shows 0.5 is taken as soon as it does (the next piece begins). One that does not yet grows on until it is
  // large enough to show 0.5 with one non-match in it; then, still short, the band ends above it. So one stray
  // non-match does not end the band, and a piece with two or more must carry them. Ending the band at the first cut
  // whose band did not show 0.5, however small, left no band at all below a fallback Certain; judging a piece once it
  // could show 0.5 with no non-match let one stray non-match among its first few pairs end the band (the names-and-
  // dates extract: 0.5 cases per 1,000 records where 9.2, 88% of them one person, are there); letting a piece grow
  // until it showed 0.5 or showed less flooded review (twice the cases, on names and dates with ten records a person).
  // The band's cuts are over every pair, held ones at their score: a held pair reaching Probable goes to review. Held
  // pairs at or above Certain go to review at any Probable, so the pieces start below Certain.
  const above = countsAtThreshold(examples, certain);
  const bandTop = cutAt(prior, { score: certain, below: null, tp: above.tp, fp: above.fp }, positives, negatives);
  // The band's expected live pairs down to a cut: every pair at or above it but those Certain links (so the held
  // pairs at or above Certain too).
  const linked = countsAtThreshold(linkable, certain);
  const load = (cut: Cut): number =>
    budget === undefined
      ? 0
      : (1000 / budget.records) *
        budget.candidatePairs *
        (prior * ((cut.tp - linked.tp) / positives) + (1 - prior) * ((cut.fp - linked.fp) / negatives));
  const allowed = budget?.perThousandRecords ?? Number.POSITIVE_INFINITY;
  let probableCut = bandTop;
  let unbudgeted: Cut | undefined;
  for (const cut of cutsOf(examples, prior, positives, negatives)) {
    const from = unbudgeted ?? probableCut;
    if (cut.score >= from.score) continue;
    const tp = cut.tp - from.tp;
    const fp = cut.fp - from.fp;
    if ((precisionBound(prior, tp, positives, fp, negatives) ?? 0) >= 0.5) {
      // Past the budget the band stops; the 0.5 rule's own end is still followed, to say what the budget left out.
      if (unbudgeted === undefined && load(cut) <= allowed) probableCut = cut;
      else unbudgeted = cut;
    } else if ((precisionBound(prior, tp, positives, 1, negatives) ?? 0) >= 0.5) break;
  }
  const probable =
    probableCut === bandTop ? certain : Math.min(certain, simplestThresholdInGap(probableCut.below, probableCut.score));
  return {
    Certain: certain,
    Probable: probable,
    prior,
    targetPrecisionMet: lowestMeeting !== undefined,
    certainFrom,
    atCertain: point(prior, certainCut, certain),
    atProbable: point(prior, probableCut, probable),
    heldOutNonMatches: negatives,
    heldOutNonMatchesNeeded: lowestMeeting === undefined ? nonMatchesNeeded(prior, f1Cut.tpr, targetPrecision) : null,
    ...(budget === undefined
      ? {}
      : {
          reviewLoad: {
            budgetPerThousandRecords: budget.perThousandRecords,
            pairsPerThousandRecords: load(probableCut),
            budgetRaisedProbable: unbudgeted !== undefined,
            unbudgetedPairsPerThousandRecords: load(unbudgeted ?? probableCut),
          },
        }),
  };
}
