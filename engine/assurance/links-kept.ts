/**
 * The estimate's last check, made on the model it would hand over rather than on the mixture: applied with its
 * suggested thresholds, does it take away more of the active profile's links than it adds? Both are scored on the
 * estimate's own candidate pairs as the live scorer scores them (term frequencies, the registry's size, the holds), a
 * pair counting as linked when it reaches its model's Certain and no rule holds it.
 *
 * Without labels nothing shows that a link the profile makes today is wrong; a model whose only effect is to unmake
 * such links cannot justify itself. Measured on every set of `npm run quality` and its generated extracts under other
 * seeds, a fit that passed the other checks never took away more links than it added, except on names and birth dates
 * among people most of whom carry one of a few common names (names-dates-common): there it would have unmade 68 of the
 * profile's 873 links among the candidates and added none, and linking less cost 0.040 of F1 against the default.
 * That fit's mixture took many true pairs for non-matches (docs/matching.md), which none of fit-checks.ts's checks
 * sees. The check fails when the links taken away outnumber those added by more than MAX_NET_LOSS_SHARE of the
 * profile's links, and by at least MIN_NET_LOSS pairs, so a small registry's handful of pairs does not decide it.
 */
import { FIELD_COUNT } from '../scoring/field-comparison.ts';
import type { CompiledModel } from '../scoring/fellegi-sunter.ts';
import { storedPairScore, TERM_READINGS } from '../scoring/scorer.ts';
import { countText } from '../contract/count-text.ts';
import type { FitCheck } from './fit-checks.ts';

/** The share of the profile's links the estimate may take away beyond those it adds. */
export const MAX_NET_LOSS_SHARE = 0.01;
/** ... and the number of pairs below which a net loss never fails the check. */
export const MIN_NET_LOSS = 10;

/** The modelled candidate pairs, as the estimate holds them (pair i at i * FIELD_COUNT and i * TERM_READINGS). */
export interface ModelledPairs {
  readonly count: number;
  readonly similarity: Float64Array;
  readonly termReadings: Float64Array;
  readonly flags: Uint8Array;
}

export interface LinkChange {
  /** Pairs the active profile links. */
  readonly profileLinks: number;
  /** Pairs the estimated model links at its suggested Certain. */
  readonly estimateLinks: number;
  /** Linked by the profile and not by the estimate. */
  readonly takenAway: number;
  /** Linked by the estimate and not by the profile. */
  readonly added: number;
}

/**
 * Which pairs the active profile links (1): `profile` is its model, its Certain and the log-odds its prior moves by at
 * the registry's size (fellegi-sunter.ts priorAdjustment), each pair scored as the live scorer scores it. It does not
 * depend on the estimate, so the estimate reads it once for all the starts it tries.
 */
export function profileLinks(
  pairs: ModelledPairs,
  profile: { readonly model: CompiledModel; readonly certain: number; readonly priorShift: number },
): Uint8Array {
  const linked = new Uint8Array(pairs.count);
  for (let i = 0; i < pairs.count; i++) {
    const similarity = pairs.similarity.subarray(i * FIELD_COUNT, (i + 1) * FIELD_COUNT);
    const score = storedPairScore(
      profile.model,
      similarity,
      pairs.flags[i] ?? 0,
      pairs.termReadings,
      i * TERM_READINGS,
      profile.priorShift,
    );
    linked[i] = score >= profile.certain ? 1 : 0;
  }
  return linked;
}

/**
 * `byProfile`: the pairs the active profile links (profileLinks). `estimate`: each pair's score under the estimated
 * model before any hold (the estimate's own, as the live scorer gives it), whether a rule holds the pair (scorer.ts
 * scoreLimit: it reads the fields, not the score, so it holds the pair under either model) and the model's suggested
 * Certain.
 */
export function linkChange(
  byProfile: Uint8Array,
  estimate: { readonly score: Float64Array; readonly held: Uint8Array; readonly certain: number },
): LinkChange {
  let profileLinks = 0;
  let estimateLinks = 0;
  let takenAway = 0;
  let added = 0;
  for (let i = 0; i < byProfile.length; i++) {
    // A held pair is a review case under either model.
    if (estimate.held[i] === 1) continue;
    const linkedByProfile = byProfile[i] === 1;
    const byEstimate = (estimate.score[i] ?? 0) >= estimate.certain;
    if (linkedByProfile) profileLinks++;
    if (byEstimate) estimateLinks++;
    if (linkedByProfile && !byEstimate) takenAway++;
    if (byEstimate && !linkedByProfile) added++;
  }
  return { profileLinks, estimateLinks, takenAway, added };
}

export function linksKeptCheck(change: LinkChange): FitCheck {
  const netLoss = change.takenAway - change.added;
  const passed = !(netLoss >= MIN_NET_LOSS && netLoss > MAX_NET_LOSS_SHARE * change.profileLinks);
  return {
    check: 'links-kept',
    passed,
    detail: `with its suggested thresholds the model would stop linking ${countText(change.takenAway)} of the ${countText(change.profileLinks)} candidate pairs the active profile links and link ${countText(change.added)} it does not${passed ? '' : ': it only takes links away, and without labels nothing shows they were wrong'}`,
  };
}
