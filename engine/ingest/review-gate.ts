/**
 * The one rule for opening a review case, shared by every path that opens one (ingestion, imports, the
 * reconciliation matching phase): the pair must be Probable or Certain under the active profile, by decision
 * and by score. The scorer already decides no-match below Thresholds.Probable; checking the score as well keeps
 * a future decision rule (or a score method whose decision and score drift apart) from filling the queue with
 * pairs the model itself scores below Probable.
 */
import type { PairOutcome } from '../scoring/scorer.ts';

export function opensReviewCase(outcome: Pick<PairOutcome, 'score' | 'decision'>, probableThreshold: number): boolean {
  return outcome.decision !== 'no-match' && outcome.score >= probableThreshold;
}
