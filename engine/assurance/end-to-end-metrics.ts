/**
 * End-to-end metrics of a labelled dataset: the registry's outcome on each pair, blocking included. In
 * production a pair is scored only when candidate discovery brings its records together, so a pair is
 * predicted a match at threshold t exactly when blocking finds it AND its score >= t. A labelled true pair
 * blocking cannot find is then a false negative at every threshold, and a labelled non-match blocking never
 * compares a true negative. The counts feed the same metrics, Wilson intervals and null rules as the
 * scored-pairs table (contract/statistics/threshold-metrics.ts).
 *
 * This answers a known gap of scored-pairs-only evaluation (the common practice of linkage libraries, which
 * report recall among the pairs blocking produced, so a blocking miss never shows): recall here is at most
 * blocking recall.
 */
import type { EndToEndMetrics } from '../contract/assurance.ts';
import { thresholdMetrics } from './threshold-metrics.ts';
import { END_TO_END_EXPLANATION } from './report-text.ts';

/**
 * candidate[i] is 1 when blocking finds pair i (blocking-recall.ts, blockingCandidateMask). A pair blocking
 * misses gets score -Infinity, below every threshold in [0, 1].
 */
export function endToEndMetrics(
  thresholds: readonly number[],
  score: Float64Array,
  isMatch: Uint8Array,
  candidate: Uint8Array,
): EndToEndMetrics {
  const endToEndScore = new Float64Array(score.length);
  let missedMatches = 0;
  let missedNonMatches = 0;
  for (let i = 0; i < score.length; i++) {
    if (candidate[i] === 1) {
      endToEndScore[i] = score[i] ?? Number.NaN;
      continue;
    }
    endToEndScore[i] = Number.NEGATIVE_INFINITY;
    if (isMatch[i] === 1) missedMatches++;
    else missedNonMatches++;
  }
  return {
    explanation: END_TO_END_EXPLANATION,
    notCandidates: { matches: missedMatches, nonMatches: missedNonMatches },
    thresholds: thresholds.map((t) => thresholdMetrics(t, endToEndScore, isMatch)),
  };
}
