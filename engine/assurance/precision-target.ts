/**
 * Calibration's "lowest threshold meeting the target precision" as a report entry a person can use
 * (spec "Calibration behaviour" 6): the threshold, its margin and the held-out pairs behind it, in plain
 * words. The choice itself is engine/stats/precision-target-threshold.ts: the lowest cut between held-out
 * scores whose precision has a Wilson 95% lower bound at or above the target, placed at the simplest number
 * in the gap between observed scores, so it is inside the range of scores seen and gives exactly the
 * reported held-out figures.
 */
import type { RecommendedThreshold, ThresholdMetrics } from '../contract/assurance.ts';
import { thresholdMeetingPrecision, type PrecisionCut } from '../stats/precision-target-threshold.ts';
import type { ScoredExample } from '../stats/threshold-sweep.ts';

function score(x: number): string {
  const fixed = x.toFixed(6);
  return Number(fixed) === x || (Number(fixed) !== 1 && Number(fixed) !== 0) ? fixed.replace(/\.?0+$/, '') : String(x);
}

const four = (x: number): string => x.toFixed(4);

function figures(cut: PrecisionCut, matches: number): string {
  const n = cut.tp + cut.fp;
  return `${n} held-out ${n === 1 ? 'pair scores' : 'pairs score'} at or above it (${cut.tp} labelled ${cut.tp === 1 ? 'match' : 'matches'}, ${cut.fp} ${cut.fp === 1 ? 'non-match' : 'non-matches'}): precision ${four(cut.precision)}, 95% interval ${four(cut.precisionInterval.lower)}–${four(cut.precisionInterval.upper)}; recall ${cut.recall === null ? '— (no held-out match)' : `${four(cut.recall)} (${cut.tp} of ${matches} held-out matches)`}.`;
}

function gap(cut: PrecisionCut): string {
  return cut.highestExcludedScore === null
    ? `It is the lowest held-out score: a lower threshold would go beyond the scores seen.`
    : `Any threshold above ${score(cut.highestExcludedScore)} (the next lower held-out score) and at most ${score(cut.lowestAdmittedScore)} (the lowest score it admits) gives these same held-out figures; ${String(cut.threshold)} is the simplest number in that range.`;
}

function support(cut: PrecisionCut, heldOutPairs: number): NonNullable<RecommendedThreshold['support']> {
  return {
    heldOutPairs,
    atOrAbove: cut.tp + cut.fp,
    lowestAdmittedScore: cut.lowestAdmittedScore,
    highestExcludedScore: cut.highestExcludedScore,
  };
}

export function precisionTargetEntry(
  examples: readonly ScoredExample[],
  targetPrecision: number,
  at: (threshold: number) => ThresholdMetrics,
): RecommendedThreshold {
  const result = thresholdMeetingPrecision(examples, targetPrecision);
  const target = String(targetPrecision);
  const pointNote = (cut: PrecisionCut | null, chosen: number | null): string =>
    cut === null || cut.threshold === chosen
      ? ''
      : ` The point estimate alone reaches ${target} from threshold ${score(cut.threshold)} (precision ${four(cut.precision)} on ${cut.tp + cut.fp} pairs), but there its 95% interval, ${four(cut.precisionInterval.lower)}–${four(cut.precisionInterval.upper)}, still reaches below ${target}.`;
  if (result.met) {
    const { cut } = result;
    return {
      threshold: cut.threshold,
      criterion: 'precision-lower-95-bound',
      explanation: `${String(cut.threshold)} is the lowest threshold among the held-out scores at which precision is at least ${target} with 95% confidence (the lower end of its Wilson interval is at least ${target}, not only the point estimate). ${figures(cut, result.matches)} ${gap(cut)}${pointNote(result.pointEstimateCut, cut.threshold)}`,
      metrics: at(cut.threshold),
      support: support(cut, result.pairs),
      bestAchievable: null,
    };
  }
  const { best } = result;
  const needed =
    result.pairsNeeded === null
      ? ' Precision 1 can never be shown with 95% confidence from a sample: the lower end of the interval stays below 1.'
      : ` Showing ${target} takes at least ${result.pairsNeeded} held-out pairs at or above the threshold, all of them matches.`;
  const bestText =
    best === null
      ? ' There are no held-out pairs.'
      : ` The best achievable is threshold ${score(best.threshold)}: ${figures(best, result.matches)} So precision there could be as low as ${four(best.precisionInterval.lower)}.`;
  return {
    threshold: null,
    criterion: 'precision-lower-95-bound',
    explanation: `No threshold among the held-out scores reaches precision ${target} with 95% confidence (the lower end of its Wilson interval).${bestText}${pointNote(result.pointEstimateCut, null)}${needed} Add labels (more held-out pairs near the threshold), lower the target or review the comparators.`,
    metrics: null,
    support: null,
    bestAchievable:
      best === null
        ? null
        : { threshold: best.threshold, metrics: at(best.threshold), support: support(best, result.pairs) },
  };
}
