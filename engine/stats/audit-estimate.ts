/**
 * Registry-wide precision, recall and F1 of the registry's links from a stratified audit sample (pairs labelled by a
 * person), with conservative 95% intervals.
 *
 * The population is record pairs in strata: the linked pairs (the registry says "same person"; one or more strata)
 * and the non-linked candidate pairs (records of two identities sharing a blocking key; strata by score band). In
 * each stratum h a simple random sample of n_h of its N_h pairs is labelled and m_h are true matches. The estimator
 * is the stratified expansion estimator (Cochran, "Sampling Techniques", 3rd ed., 1977, §5.3): T̂_h = N_h · m_h / n_h
 * true matches in stratum h, so
 *
 *     precision = T̂_linked / N_linked
 *     recall    = T̂_linked / (T̂_linked + T̂_not-linked)      (of the true matches among blocking candidates)
 *     F1        = 2 · precision · recall / (precision + recall)
 *
 * Intervals: each stratum's proportion gets a Wilson score interval at level 1 − α/k for k strata (Bonferroni, so all
 * k hold together with probability at least 1 − α), and the figures are bounded by those intervals' extremes (each
 * figure is monotone in every stratum's count). Conservative by construction: it covers at least 95% of the time,
 * also where a stratum shows no error at all, which a normal or bootstrap interval would collapse to a point. As each
 * stratum's interval narrows like 1/√n, halving the widest interval takes about four times the labels.
 */
import { wilsonInterval } from '../contract/statistics/wilson-interval.ts';
import { normalQuantile } from './normal-quantile.ts';

export interface AuditStratum {
  readonly name: string;
  /** True for the strata of linked pairs (the registry's links). */
  readonly linked: boolean;
  /** Pairs in the stratum. */
  readonly population: number;
  /** Pairs labelled. */
  readonly labelled: number;
  /** Labelled pairs that are true matches. */
  readonly matches: number;
}

export interface Bounded {
  readonly estimate: number | null;
  readonly lower: number | null;
  readonly upper: number | null;
}

export interface AuditEstimate {
  readonly precision: Bounded;
  readonly recall: Bounded;
  readonly f1: Bounded;
  /** Estimated true matches among linked and among non-linked candidate pairs. */
  readonly trueMatches: { readonly linked: number; readonly notLinked: number };
  readonly confidence: number;
  /** Labels (in all) that would roughly halve the widest interval: four times those labelled. */
  readonly labelsToHalveInterval: number;
}

const f1Of = (p: number, r: number): number => (p + r === 0 ? 0 : (2 * p * r) / (p + r));

export function auditEstimate(strata: readonly AuditStratum[], alpha = 0.05): AuditEstimate {
  for (const s of strata) {
    if (!(
      Number.isSafeInteger(s.population) &&
      s.population >= 0 &&
      Number.isSafeInteger(s.labelled) &&
      s.labelled >= 0 &&
      s.labelled <= s.population
    )) {
      throw new RangeError(`stratum ${s.name}: 0 ≤ labelled ≤ population, as integers`);
    }
    if (!(Number.isSafeInteger(s.matches) && s.matches >= 0 && s.matches <= s.labelled))
      throw new RangeError(`stratum ${s.name}: 0 ≤ matches ≤ labelled`);
  }
  const sampled = strata.filter((s) => s.population > 0);
  const z = normalQuantile(1 - alpha / (2 * Math.max(1, sampled.length)));
  const totals = (
    pick: (s: AuditStratum, p: { estimate: number; lower: number; upper: number }) => number,
    linked: boolean,
  ): number =>
    sampled
      .filter((s) => s.linked === linked)
      .reduce((sum, s) => {
        const interval = wilsonInterval(s.matches, s.labelled, z) ?? { lower: 0, upper: 1 };
        const estimate = s.labelled === 0 ? 0.5 : s.matches / s.labelled;
        return sum + s.population * pick(s, { estimate, ...interval });
      }, 0);
  const linkedPairs = sampled.filter((s) => s.linked).reduce((sum, s) => sum + s.population, 0);
  const t = {
    est: totals((_, p) => p.estimate, true),
    lo: totals((_, p) => p.lower, true),
    hi: totals((_, p) => p.upper, true),
  };
  const u = {
    est: totals((_, p) => p.estimate, false),
    lo: totals((_, p) => p.lower, false),
    hi: totals((_, p) => p.upper, false),
  };
  const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);
  const precision: Bounded = {
    estimate: ratio(t.est, linkedPairs),
    lower: ratio(t.lo, linkedPairs),
    upper: ratio(t.hi, linkedPairs),
  };
  const recall: Bounded = {
    estimate: ratio(t.est, t.est + u.est),
    lower: ratio(t.lo, t.lo + u.hi),
    upper: ratio(t.hi, t.hi + u.lo),
  };
  const both = (pick: (b: Bounded) => number | null): number | null => {
    const p = pick(precision);
    const r = pick(recall);
    return p === null || r === null ? null : f1Of(p, r);
  };
  const labelled = strata.reduce((sum, s) => sum + s.labelled, 0);
  return {
    precision,
    recall,
    f1: { estimate: both((b) => b.estimate), lower: both((b) => b.lower), upper: both((b) => b.upper) },
    trueMatches: { linked: t.est, notLinked: u.est },
    confidence: 1 - alpha,
    labelsToHalveInterval: 4 * labelled,
  };
}
