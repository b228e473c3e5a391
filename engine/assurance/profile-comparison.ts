/**
 * A calibrated model against the active profile, on the same unseen labelled pairs and the same live share of true
 * pairs.
 *
 * The calibration's live thresholds say how the model would do in live matching; an analyst also needs to know
 * whether that is better than what matches today. Both are measured alike (operatingPointAt in live-thresholds.ts):
 * the held-out pairs scored by the active profile at its own Certain and Probable, and by the model at its live
 * Certain and Probable. The profile is to be kept when, at Certain, it links at least as many held-out true pairs
 * (recall) and shows at least as much live precision with 95% confidence: then applying the model links no more
 * true pairs and promises no fewer wrong ones. A tie keeps the profile too: nothing would be gained.
 */
import type { ScoredExample } from '../stats/threshold-sweep.ts';
import { operatingPointAt, type LiveOperatingPoint, type LiveThresholds } from './live-thresholds.ts';

export interface ProfileComparison {
  /** The active profile's thresholds and what its scores show there on the held-out pairs. */
  readonly Certain: number;
  readonly Probable: number;
  readonly atCertain: LiveOperatingPoint;
  readonly atProbable: LiveOperatingPoint;
  /** Whether the active profile does at least as well at Certain (see the file's head): keep it. */
  readonly keepProfile: boolean;
}

/**
 * `profileExamples`: the same unseen labelled pairs scored by the active profile, as the live scorer scores them today.
 * Null when they lack a class (no rate can be measured, as for the live thresholds).
 */
export function compareWithProfile(
  profileExamples: readonly ScoredExample[],
  profile: { readonly Certain: number; readonly Probable: number },
  model: Pick<LiveThresholds, 'prior' | 'atCertain'>,
): ProfileComparison | null {
  const atCertain = operatingPointAt(profileExamples, model.prior, profile.Certain);
  const atProbable = operatingPointAt(profileExamples, model.prior, profile.Probable);
  if (atCertain === null || atProbable === null) return null;
  const keepProfile =
    (atCertain.recall ?? 0) >= (model.atCertain.recall ?? 0) &&
    (atCertain.precisionLowerBound ?? 0) >= (model.atCertain.precisionLowerBound ?? 0);
  return { Certain: profile.Certain, Probable: profile.Probable, atCertain, atProbable, keepProfile };
}
