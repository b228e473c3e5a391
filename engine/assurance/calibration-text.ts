/**
 * The calibration report's sentences about its live thresholds (report prose kept out of the algorithm files).
 */
import { MAX_DATASET_PAIRS } from '../contract/assurance.ts';
import { FALLBACK_PRECISION_FLOOR, type LiveThresholds, type ReviewLoad } from './live-thresholds.ts';
import type { ProfileComparison } from './profile-comparison.ts';
import type { RegistryU } from './registry-u.ts';
import { countText, rateText } from '../contract/count-text.ts';
import { reviewLoadState } from '../contract/review-load.ts';

function share(value: number | null): string {
  return value === null ? 'undefined' : value.toFixed(4);
}

function prior(value: number): string {
  return value >= 0.01 ? value.toFixed(3) : value.toPrecision(2);
}

/** How the labels were split for the live figures: the validation fraction, and the training non-matches pooled. */
export interface LiveSplit {
  readonly validationFraction: number;
  /**
   * Training non-matches the live false-positive rate is also measured on: with u from random pairs the model learns
   * from the labelled matches only, so its training non-matches are as unseen as held-out ones (calibrate.ts).
   */
  readonly nonMatchesFromTraining: number;
}

/**
 * About how many labelled non-matches would give `unseen` of them the model never learned from (all of them when the
 * training non-matches are pooled, else the validation fraction's share), and whether one label set can hold that many.
 */
function nonMatchAdvice(unseen: number, split: LiveSplit): string {
  const pooled = split.nonMatchesFromTraining > 0;
  const labelled = pooled ? unseen : Math.ceil(unseen / split.validationFraction);
  const would = `about ${countText(unseen)} with none scored at Certain would${pooled ? '' : `, about ${countText(labelled)} labelled at this validation fraction`}`;
  return labelled > MAX_DATASET_PAIRS
    ? `${would}: more than a label set holds (${countText(MAX_DATASET_PAIRS)} pairs), so keep the profile or ask a lower target precision`
    : would;
}

/** The non-matches the live false-positive rate is read on, in words: in full the first time, then short. */
function nonMatchesText(live: LiveThresholds, split: LiveSplit, full: boolean): string {
  const all = countText(live.heldOutNonMatches);
  const fromTraining = split.nonMatchesFromTraining;
  if (fromTraining === 0) return `${all} held-out non-matches`;
  return full
    ? `${all} non-matches the model never learned from: ${countText(live.heldOutNonMatches - fromTraining)} held out and ${countText(fromTraining)} of training, since with u from random pairs it learned from the labelled matches only`
    : `these ${all} unseen non-matches`;
}

/**
 * The model against the active profile on the same unseen labelled pairs (profile-comparison.ts), in one or two
 * sentences.
 */
export function againstProfileText(live: LiveThresholds, against: ProfileComparison): string {
  const theirs = `at its Certain ${String(against.Certain)} the active profile shows live recall ${share(against.atCertain.recall)} and precision at least ${share(against.atCertain.precisionLowerBound ?? null)} with 95% confidence; this model at its Certain ${String(live.Certain)}, recall ${share(live.atCertain.recall)} and at least ${share(live.atCertain.precisionLowerBound ?? null)}`;
  return against.keepProfile
    ? `Keep the active profile: on the same labelled pairs the model never learned from, ${theirs}. Applied, this model would link no more true pairs and promise no fewer wrong links; label more pairs, or pairs nearer the registry's own, before calibrating again.`
    : `On the same labelled pairs the model never learned from, ${theirs}: the model links more true pairs or shows more precision.`;
}

export function liveThresholdsText(
  live: LiveThresholds,
  targetPrecision: number,
  profile: { Certain: number; Probable: number },
  split: LiveSplit,
  against: ProfileComparison | null = null,
  /** The model's own prior when u came from random pairs (restated over all record pairs); null: u from the labels. */
  randomPairPrior: number | null = null,
): string {
  const bound = live.atCertain.precisionLowerBound;
  const atCertain = `where the live precision is ${share(live.atCertain.precision)} (at least ${share(bound)} with 95% confidence) and recall ${share(live.atCertain.recall)}`;
  const target = live.targetPrecisionMet
    ? `Certain ${String(live.Certain)} is the higher of the cut with the best live F1 and the lowest cut whose live precision reaches the target ${String(targetPrecision)} with 95% confidence, ${atCertain}`
    : `no held-out cut shows the target precision ${String(targetPrecision)} in live matching with 95% confidence` +
      (live.heldOutNonMatchesNeeded === null
        ? ''
        : ` (${nonMatchesText(live, split, false)} cannot rule out enough false links when true pairs are this rare; ${nonMatchAdvice(live.heldOutNonMatchesNeeded, split)})`) +
      (live.certainFrom === 'best-shown'
        ? `, so Certain ${String(live.Certain)} is the cut where they show the most, at least ${share(bound)} with 95% confidence (short of the target, at least ${String(FALLBACK_PRECISION_FLOOR)}), where the live precision is ${share(live.atCertain.precision)} and recall ${share(live.atCertain.recall)}`
        : `, so Certain ${String(live.Certain)} is the highest held-out score (it links almost nothing automatically: label more non-matches, or keep the profile), ${atCertain}`);
  return (
    (against?.keepProfile === true
      ? `${againstProfileText(live, against)} If you apply the model all the same, apply these with it`
      : `Apply these with the model`) +
    ` ({"MatchingRules": {"FellegiSunter": model, "Thresholds": {"Certain": ${String(live.Certain)}, "Probable": ${String(live.Probable)}}}}; ` +
    `the profile's are Certain ${String(profile.Certain)}, Probable ${String(profile.Probable)}). ` +
    (randomPairPrior === null
      ? `They are on the score the live scorer gives with this model, whose prior ${prior(live.prior)} is the share of true pairs among the pairs the scorer meets (the blocking candidates). `
      : `They are on the score the live scorer gives with this model, whose prior ${smallPrior(randomPairPrior)} is restated for random pairs (see where u comes from); ${prior(live.prior)}, the share of true pairs among the pairs the scorer meets (the blocking candidates), is the share live precision is read at. `) +
    `Held-out labels hold the classes in the proportion they were drawn, not that share, so live precision is held-out recall and false-positive rate reweighted to it` +
    (split.nonMatchesFromTraining > 0 ? ` (the false-positive rate over ${nonMatchesText(live, split, true)})` : '') +
    ': ' +
    `${target}; ` +
    probableText(live) +
    (live.Certain < 0.5 && live.targetPrecisionMet
      ? randomPairPrior === null
        ? `Certain is below 0.5: the model's score understates the live chance of a match (its u came from labelled non-matches drawn among the closest candidates), yet at this cut live precision meets the target. `
        : `Certain is below 0.5: held-out true pairs score that low and no held-out non-match comes near, so live precision meets the target at this cut, yet the model itself holds a pair below 0.5 more likely two people than one. The held-out figures are pair by pair, while ingestion links a record to the best of all its candidates: where a wrong link would cost most, prefer Certain 0.5 and review the pairs below it. `
      : '') +
    `Recall counts the true pairs among the labels: a true pair blocking never brings together is missed at every threshold (see evaluation's end-to-end figures).` +
    (against !== null && !against.keepProfile ? ` ${againstProfileText(live, against)}` : '')
  );
}

/** Where Probable is and why (live-thresholds.ts), with the review band's load against the review budget. */
function probableText(live: LiveThresholds): string {
  const raised = live.reviewLoad?.budgetRaisedProbable === true;
  const where =
    live.Probable < live.Certain
      ? raised
        ? `Probable ${String(live.Probable)} is as far down from Certain as the review band can grow within the review budget, piece by piece, each piece more often one person than two with 95% confidence (live recall with reviews ${share(live.atProbable.recall)}). `
        : `Probable ${String(live.Probable)} is the lowest cut that keeps the review band between it and Certain more often one person than two with 95% confidence, piece by piece down from Certain (live recall with reviews ${share(live.atProbable.recall)}). `
      : raised
        ? `Probable ${String(live.Probable)} is Certain itself: the first piece of the pairs below Certain that is more often one person than two would take the review band over the review budget, so none of them goes to review (only the pairs the name-evidence and twin limits hold do). `
        : `Probable ${String(live.Probable)} is Certain itself: no piece of the pairs below Certain shows more pairs of one person than of two with 95% confidence, so none of them goes to review (only the pairs the name-evidence and twin limits hold do). `;
  return (
    where +
    (live.reviewLoad === undefined
      ? "No review budget bounds the band: with u from the labels the registry's candidate pairs are not read (profile apply --preview counts the review cases the model with these thresholds would open). "
      : reviewLoadText(live.reviewLoad))
  );
}

/** The review band's expected load against the review budget (live-thresholds.ts), in one sentence. */
export function reviewLoadText(load: ReviewLoad): string {
  const budget = `the review budget of ${String(load.budgetPerThousandRecords)} per 1,000`;
  const holds = `about ${rateText(load.pairsPerThousandRecords)} of the registry's candidate pairs per 1,000 records go to review`;
  return {
    over: `Even so ${holds}, over ${budget}: the pairs the name-evidence and twin limits hold at or above Certain go to review at any Probable. `,
    stopped: `With it ${holds}, within ${budget}; without the budget the band would hold about ${rateText(load.unbudgetedPairsPerThousandRecords)} per 1,000, and the pairs between are neither linked nor reviewed (ask a larger review budget if your team can work through more). `,
    within: `With it ${holds}, within ${budget}. `,
  }[reviewLoadState(load)];
}

/** What the report says of u from random pairs (registry-u.ts): what was read, and the prior set from it. */
export function uSourceReport(
  registry: RegistryU,
  candidateShare: number,
): Omit<RegistryU, 'u'> & { candidateShare: number; explanation: string } {
  const sample =
    registry.sampledRecords < registry.population
      ? `a seeded sample of ${count(registry.sampledRecords)} of the registry's ${count(registry.population)} records`
      : `the registry's ${count(registry.population)} records`;
  const candidates = `${count(registry.candidatePairs)}${registry.truncated ? ' or more (enumeration stopped at its bound, so the prior is a lower bound)' : ''}`;
  return {
    prior: registry.prior,
    population: registry.population,
    sampledRecords: registry.sampledRecords,
    randomPairs: registry.randomPairs,
    matchesWeightedOut: registry.matchesWeightedOut,
    candidatePairs: registry.candidatePairs,
    truncated: registry.truncated,
    candidateShare,
    explanation:
      `u comes from ${count(registry.randomPairs)} random pairs of ${sample} (about ${count(registry.matchesWeightedOut)} of them, which the labels' m and the prior take for one person, weighted out); m comes from the labelled matches. ` +
      `The prior is restated for random pairs: the share of true pairs among blocking candidates you gave (${prior(candidateShare)}) times the share of the ${registry.sampledRecords < registry.population ? "sample's" : "registry's"} record pairs that are candidates (${candidates} of ${count((registry.sampledRecords * (registry.sampledRecords - 1)) / 2)}): ${smallPrior(registry.prior)}, set for a registry of ${count(registry.population)} records: the live scorer lowers it as the registry grows. ` +
      'The live thresholds are read on the held-out labels with the share you gave, as before.',
  };
}

/** A random-pair prior, about 1e-5, in e-notation. */
function smallPrior(value: number): string {
  return value >= 0.001 ? prior(value) : value.toExponential(1);
}

function count(n: number): string {
  return countText(Math.round(n));
}
