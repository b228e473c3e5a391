/**
 * m per field and band from one EM session per blocking rule (Splink's `estimate_parameters_using_expectation_
 * maximisation` run once per training blocking rule; Linacre, "Splink", 2022; Enamorado, Fifield and Imai, 2019).
 *
 * Why: blocking candidates are no sample of the population. A pair is a candidate because it agrees on the
 * fields of some rule, so among candidate non-matches those fields agree far more often than the fields'
 * u says, and they agree together, which the two-class mixture cannot express (it assumes the fields independent
 * within each class). When the rules' fields are most of the fields there are (a registry holding names and birth
 * dates only), one EM over all candidates settles on the wrong split: on FEBRL 3 with names and birth dates it
 * took pairs with a different family name for non-matches (m 0.003 against 0.073 among the true pairs) and
 * pairs with a different birth date for matches.
 *
 * How: a session takes the candidates one rule brings together and leaves that rule's fields out (they agree by
 * construction, so they say nothing there), holds u at the random-pair u (within one rule's pairs the other
 * fields are close to independent of the rule's) and fits m and the session's match share λ. Each field's m is
 * the average of its m over the sessions that do not block on it, weighted by each session's expected matches
 * observing the field (λ × pairs with the field compared).
 *
 * Which rules: only those over fields of the person (PERSON_FIELDS: names, birth date, identifier). A rule over
 * a household's fields (address, phone, e-mail, postcode, city) brings household members together, who agree on
 * the household's other fields too; against random-pair u they look like one person with a different given name
 * and birth date, and on the synthetic population that doubled the wrong links.
 */
import { BANDS, FIELD_NAMES, type FieldName } from '../contract/fields.ts';
import type { BlockingRule } from '../contract/profile.ts';
import { fitMixture, type BandPatterns, type EmOptions } from './fellegi-sunter-em.ts';
import { bandCounts, observedPairs } from './pattern-index.ts';

const B = BANDS.length;

export const PERSON_FIELDS: ReadonlySet<FieldName> = new Set<FieldName>([
  'familyName',
  'givenName',
  'birthDate',
  'identifier',
]);
/** A session with fewer pairs says too little to fit m over the other fields. */
export const MIN_SESSION_PAIRS = 50;
/** A field compared in fewer of a session's pairs takes no m from that session. */
export const MIN_FIELD_OBSERVATIONS = 20;

/** Whether a rule is over fields of the person only (a training session). */
export function isPersonRule(rule: BlockingRule): boolean {
  return rule.Parts.every((part) => PERSON_FIELDS.has(part.Field));
}

/** The field indexes a rule blocks on (left out of its session). */
export function ruleFields(rule: BlockingRule): number[] {
  return [...new Set(rule.Parts.map((part) => FIELD_NAMES.indexOf(part.Field)))];
}

export interface Session {
  readonly rule: string;
  /** Field indexes the rule blocks on; their bands are MISSING_BAND in `patterns`. */
  readonly blocked: readonly number[];
  readonly patterns: BandPatterns;
}

export interface SessionFit {
  readonly rule: string;
  readonly pairs: number;
  /** λ of the session, or null when it had too few pairs to be fitted. */
  readonly matchShare: number | null;
  readonly iterations: number;
  readonly converged: boolean;
  /** The change of the objective in the last iteration (null when not fitted). */
  readonly lastLogLikelihoodChange: number | null;
}

export interface SessionOptions {
  readonly smoothing: number;
  readonly tolerance: number;
  readonly maxIterations: number;
  readonly floor: number;
  readonly mPrior?: NonNullable<EmOptions['mPrior']>;
}

export interface SessionM {
  /** m at field * 4 + band, for the fields with `estimated` 1 (the others are copied from startM). */
  readonly m: Float64Array;
  readonly estimated: Uint8Array;
  readonly fits: readonly SessionFit[];
}

function pairCount(patterns: BandPatterns): number {
  let n = 0;
  for (const c of patterns.counts) n += c;
  return n;
}

/** `u`: the random-pair u (held); `startM`: where each session's m starts. */
export function sessionM(
  sessions: readonly Session[],
  u: Float64Array,
  startM: Float64Array,
  options: SessionOptions,
): SessionM {
  const F = startM.length / B;
  const sum = new Float64Array(F * B);
  const weight = new Float64Array(F);
  const fits: SessionFit[] = [];
  for (const session of sessions) {
    const pairs = pairCount(session.patterns);
    if (pairs < MIN_SESSION_PAIRS) {
      fits.push({
        rule: session.rule,
        pairs,
        matchShare: null,
        iterations: 0,
        converged: false,
        lastLogLikelihoodChange: null,
      });
      continue;
    }
    const fit = fitMixture(
      session.patterns,
      { m: Float64Array.from(startM), u: Float64Array.from(u), lambda: 0.5 },
      { ...options, fixU: true, accelerate: true },
    );
    fits.push({
      rule: session.rule,
      pairs,
      matchShare: fit.parameters.lambda,
      iterations: fit.iterations,
      converged: fit.converged,
      lastLogLikelihoodChange: fit.lastObjectiveChange,
    });
    const counts = bandCounts(session.patterns);
    for (let f = 0; f < F; f++) {
      if (session.blocked.includes(f)) continue;
      const observed = observedPairs(counts, f);
      if (observed < MIN_FIELD_OBSERVATIONS) continue;
      const w = fit.parameters.lambda * observed;
      weight[f] = (weight[f] ?? 0) + w;
      for (let b = 0; b < B; b++) sum[f * B + b] = (sum[f * B + b] ?? 0) + w * (fit.parameters.m[f * B + b] ?? 0);
    }
  }
  const m = Float64Array.from(startM);
  const estimated = new Uint8Array(F);
  for (let f = 0; f < F; f++) {
    const w = weight[f] ?? 0;
    if (w <= 0) continue;
    estimated[f] = 1;
    for (let b = 0; b < B; b++) m[f * B + b] = (sum[f * B + b] ?? 0) / w;
  }
  return { m, estimated, fits };
}
