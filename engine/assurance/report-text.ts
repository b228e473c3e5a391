/**
 * The prose the assurance reports carry (what a rule checks, how a figure is computed, what an estimate cannot
 * know), kept apart from the algorithms that produce the figures, so each reads as code and each text reads whole.
 * Counts and limits come from the code that enforces them.
 */
import { MAX_BLOCK_SIZE, MAX_CANDIDATES } from '../ingest/candidates.ts';

export const BLOCKING_RECALL_RULE = `a true pair is found when its two records share at least one blocking key (same rule, same key material) whose tag is held by at most ${MAX_BLOCK_SIZE} identities in the registry (commoner tags are skipped by candidate discovery); a true pair with no shared key, or sharing only too-common keys, is a missed candidate. Candidate discovery also compares at most ${MAX_CANDIDATES} candidate identities per record (those whose shared tags are rarest), which this figure does not model.`;

export const CONDITIONAL_INDEPENDENCE_CAVEAT =
  'The model assumes the fields are conditionally independent given the match status. Correlated fields (postcode, city and state; address line and postcode; given name and sex) count the same evidence more than once, so probabilities can be over-confident even when the ranking of pairs is good. Check the held-out Brier score and log loss, and re-evaluate against an independent holdout before applying the model.';

export const ESTIMATION_NOTE =
  'm_b = (n_b + s) / (n + 4s) per field and band over the training matches (u_b likewise over the training non-matches), where n_b counts pairs whose similarity falls in band b, n counts pairs where both records have the field and s is the smoothing; a missing comparison is not counted and adds ln(m/u) = 0 when scoring. Pairs decided by a trusted identifier or a hard-conflict rule are left out of the estimate (the scorer decides them before the model) and are scored 1 and 0 on validation. Held-out probabilities use priorMatchProbability, not the class balance of the labels.';

/** ESTIMATION_NOTE for a calibration with u from random pairs of the registry (registry-u.ts). */
export const ESTIMATION_NOTE_RANDOM_PAIRS =
  "m_b = (n_b + s) / (n + 4s) per field and band over the training matches, where n_b counts pairs whose similarity falls in band b, n counts pairs where both records have the field and s is the smoothing; u_b likewise over random pairs of the registry's records, less the pairs of one person the prior and m expect among them (the report says what was read). A missing comparison is not counted and adds ln(m/u) = 0 when scoring. Pairs decided by a trusted identifier or a hard-conflict rule are left out of the estimate (the scorer decides them before the model) and are scored 1 and 0 on validation. Held-out probabilities use the prior restated for random pairs, not the class balance of the labels; the live thresholds are read with priorMatchProbability, the share of true pairs among candidates.";

export const EVALUATION_SCORE_NOTE =
  "The score of a pair is the active scorer's outcome score: 1 when a trusted identifier agrees, 0 when a hard-conflict rule fires, otherwise the score method's score, held to at most the profile's Probable threshold when no name part was compared on both sides; a pair is predicted a match at threshold t when score >= t.";

export const ERROR_EXAMPLE_RULE =
  'False positives: labelled non-matches with score >= the lowest requested threshold, highest score first. False negatives: labelled matches with score < the highest requested threshold, lowest score first. Half of the allowance min(maximumErrorExamples, 100) goes to each kind; a kind with fewer examples leaves its share to the other.';

export const ESTIMATE_NOTE =
  "u per field and band from random record pairs, each counted by 1 − its posterior of being one person under the fitted m and the model's prior (EM over the random pairs with m and the prior held), so the random pairs that are one person do not count as non-matches; m per field from one expectation-maximisation session per blocking rule over names, birth date or identifier (the pairs sharing a key of the rule, the rule's fields left out because they agree by construction, u held at the random-pair u; each field's m averaged over the sessions not blocking on it, weighted by their expected matches), as Splink trains; then the candidates' u and the match share λ among blocking candidates by EM of the Fellegi-Sunter two-class mixture over all candidates with that m held (conditional independence; Winkler 1988, Jaro 1989); a field no session estimates takes its m from that EM with m free; the smoothing is added to every band as a pseudo-count; the model keeps the u from random pairs (not the candidates') and a random-pair prior (see prior). Bands are those scoring sees: a missing comparison, and an agreement implied by an agreeing address line, are not counted. Pairs decided by a trusted identifier or a hard-conflict rule stay out of the fit.";

export const FALLBACK_NOTE =
  "the default model's m and u, which a new tenant matches with, and the prior of the profile's model, never below what exact agreement on full name and birth date proves";

export const ESTIMATE_CAVEAT =
  "Precision and recall here are the model's own estimate from the mixture posteriors over candidate pairs, not measured against labels: they are only as good as the model's assumptions (two classes, fields conditionally independent), and a true pair that blocking never brings together is not counted. Measure with labelled pairs (evaluate) before applying the model, and watch review volumes after.";

export const DRIFT_RULE =
  'A source’s latest ingest is compared with its earlier ingests under the same profile version (or, at a version’s first ingest, with those under the version before): ' +
  'a share (review cases or auto-links per record created, each field’s completeness) is flagged when a two-proportion z-test gives |z| ≥ 3.29 ' +
  '(two-sided 0.001) and it moved by at least 5 percentage points or by half of itself. What matching met is compared with the ingest just before (the registry grows): ' +
  'the shares of compared pairs scored 0.5 or above and of records whose candidates hit the cap by the same rule, and a blocking rule’s candidates per record when they at least tripled, by two or more. ' +
  'The share of identities with 5 or more records is compared between the last two registry snapshots (jobs and daily samples) by the same share rule. A failed job is always flagged.';

export const END_TO_END_EXPLANATION = `End to end, a labelled pair counts as predicted a match only when blocking brings its two records together (they share a usable blocking key) and its score reaches the threshold: in production a pair that blocking never finds is never scored. So a labelled true pair that blocking cannot find is a false negative at every threshold, and a labelled non-match that blocking never compares is a true negative. These are the figures the registry achieves on these labels; the scored-pairs table measures the scorer alone on every labelled pair it is handed. Candidate discovery's limit of ${MAX_CANDIDATES} candidate identities per record is not modelled.`;

export const AUDIT_METHOD =
  'Stratified expansion estimator (Cochran, Sampling Techniques, 1977, §5.3): each stratum’s share of true matches in its labelled pairs, ' +
  'weighted by the stratum’s size. Bounds: a Wilson score interval per stratum at the Bonferroni level 1 − 0.05/k (k strata), combined at ' +
  'their extremes: conservative, at least 95%. Recall is of the true matches among blocking candidates (pairs no blocking key joins are not counted).';
