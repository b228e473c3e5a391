/**
 * A usable threshold meeting a precision target, with a margin (calibration's "lowest threshold meeting the
 * target precision", spec "Calibration behaviour" 6).
 *
 * Candidates are the cuts between observed scores (Fawcett 2006, "An introduction to ROC analysis",
 * Pattern Recognition Letters 27:861-874, section 5: equal scores go together, so ties are never split):
 * the cut at score s admits every pair with score >= s. The target counts as met at a cut only when the
 * lower end of the Wilson 95% interval of its precision (wilson-interval.ts) is at least the target, not
 * the point estimate alone: 3 of 3 pairs is precision 1 but could well be 0.44. The lowest such cut is
 * chosen (precision is not monotone in the threshold, so every cut is checked), and its threshold is the
 * simplest number in the gap between its score and the next lower observed score (simplest-threshold.ts):
 * inside the range of scores seen, never extrapolated, and giving exactly the same figures on the
 * observed pairs.
 *
 * When no cut meets the target, the best achievable cut (highest lower bound; ties to the lowest
 * threshold, which admits more matches) is returned instead, with the cut where the point estimate alone
 * reaches the target, and the number of pairs, all matches, a cut would need for its lower bound to reach
 * the target: n / (n + z²) >= target, so n >= z² · target / (1 - target); none for a target of 1, which no
 * finite sample shows.
 */
import { sweep, type ScoredExample } from './threshold-sweep.ts';
import { wilsonInterval } from './wilson-interval.ts';
import { simplestThresholdInGap } from './simplest-threshold.ts';

const Z_95 = 1.959963984540054;

export interface PrecisionCut {
  /** The threshold to use: the simplest number in (highestExcludedScore, lowestAdmittedScore]. */
  readonly threshold: number;
  readonly lowestAdmittedScore: number;
  /** The next lower observed score; null when every pair is admitted. */
  readonly highestExcludedScore: number | null;
  /** Labelled matches and non-matches at or above the threshold. */
  readonly tp: number;
  readonly fp: number;
  readonly precision: number;
  readonly precisionInterval: { readonly lower: number; readonly upper: number };
  /** tp over all labelled matches; null when there is none. */
  readonly recall: number | null;
}

export type PrecisionTarget =
  | {
      readonly met: true;
      readonly cut: PrecisionCut;
      readonly pointEstimateCut: PrecisionCut | null;
      readonly pairs: number;
      readonly matches: number;
    }
  | {
      readonly met: false;
      readonly best: PrecisionCut | null;
      readonly pointEstimateCut: PrecisionCut | null;
      /** Admitted pairs, all matches, needed to show the target; null when no finite number does (target 1). */
      readonly pairsNeeded: number | null;
      readonly pairs: number;
      readonly matches: number;
    };

export function pairsNeededForPrecision(target: number, z = Z_95): number | null {
  if (target >= 1) return null;
  if (target <= 0) return 1;
  return Math.ceil((z * z * target) / (1 - target));
}

export function thresholdMeetingPrecision(
  examples: readonly ScoredExample[],
  targetPrecision: number,
): PrecisionTarget {
  if (!(targetPrecision >= 0 && targetPrecision <= 1))
    throw new RangeError('targetPrecision must be a number between 0 and 1');
  examples.forEach((example, index) => {
    if (!Number.isFinite(example.score)) throw new RangeError(`examples[${index}].score must be a finite number`);
  });
  // Cuts from the highest score down, with cumulative counts (threshold-sweep.ts).
  const { points, positives: matches } = sweep(examples);
  const cuts: PrecisionCut[] = points.map(({ threshold: score, tp, fp }, i) => {
    const below = points[i + 1]?.threshold ?? null;
    return {
      threshold: simplestThresholdInGap(below, score),
      lowestAdmittedScore: score,
      highestExcludedScore: below,
      tp,
      fp,
      precision: tp / (tp + fp),
      precisionInterval: wilsonInterval(tp, tp + fp) as { lower: number; upper: number },
      recall: matches === 0 ? null : tp / matches,
    };
  });
  let met: PrecisionCut | null = null;
  let pointEstimateCut: PrecisionCut | null = null;
  let best: PrecisionCut | null = null;
  for (const cut of cuts) {
    if (cut.precisionInterval.lower >= targetPrecision) met = cut;
    if (cut.precision >= targetPrecision) pointEstimateCut = cut;
    if (best === null || cut.precisionInterval.lower >= best.precisionInterval.lower) best = cut;
  }
  const pairs = examples.length;
  if (met !== null) return { met: true, cut: met, pointEstimateCut, pairs, matches };
  return { met: false, best, pointEstimateCut, pairsNeeded: pairsNeededForPrecision(targetPrecision), pairs, matches };
}
