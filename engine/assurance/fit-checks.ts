/**
 * Whether an unsupervised fit can be trusted, checked before anything is suggested from it. EM always returns
 * numbers; on sparse data (names and birth dates only) it can settle on a degenerate split that explains the
 * candidates as almost all non-matches (λ ≈ 0) or models something other than "one person" (siblings, a common
 * family name), and the numbers look like any other. Each check is one sentence a person can act on:
 *
 *   converged          every EM run behind the model stopped because its parameters settled, not at maxIterations
 *   band-order         for names and birth date, true pairs agree exactly more often than they differ or agree
 *                      partly (m(Exact) is their largest band), exact agreement is evidence for a match and a
 *                      different value evidence against (ln m/u > 0 for Exact, < 0 for Different)
 *   m-apart-from-u     on the fields of the person, the fitted true pairs look unlike random pairs (total variation
 *                      distance of m and u at least MIN_SEPARATION): a field whose m is close to u tells nothing
 *   anchor-lower       the fit expects at least half of the true pairs that exact agreement on full name and birth
 *                      date proves (deterministic-anchor.ts)
 *   anchor-consistent  the fit's own m and λ account for the exact agreements the candidates hold: neither far more
 *                      (a fit of non-matches only would promise them) nor far fewer (a fit that took many true pairs
 *                      for non-matches: its λ, and so its prior, is too small, and it would link too little)
 *   links-kept         made once on the model the best passing start gives (links-kept.ts): applied with its
 *                      suggested thresholds, it takes away no more of the active profile's links than it adds
 *
 * A check that cannot apply (too few pairs, no anchor fields) passes and says why.
 */
import { fieldList, fieldWords } from '../contract/field-title.ts';
import { BANDS, FIELD_INDEX, FIELD_NAMES, type FieldName } from '../contract/fields.ts';
import { anchorRecall, type DeterministicAnchor } from './deterministic-anchor.ts';
import { observedPairs } from './pattern-index.ts';

const B = BANDS.length;
const EXACT = BANDS.indexOf('Exact');
const PARTIAL = BANDS.indexOf('Partial');
const DIFFERENT = BANDS.indexOf('Different');

export const FIT_CHECKS = [
  'converged',
  'band-order',
  'm-apart-from-u',
  'anchor-lower',
  'anchor-consistent',
  'links-kept',
] as const;
export type FitCheckName = (typeof FIT_CHECKS)[number];

export interface FitCheck {
  readonly check: FitCheckName;
  readonly passed: boolean;
  /** What was found, in words (field names and counts, never values). */
  readonly detail: string;
}

/** Fields whose bands must rank and whose m must stand apart from u. */
const PERSON_FIELDS: readonly FieldName[] = ['familyName', 'givenName', 'birthDate'];
/** Fewer candidate pairs comparing a field than this say too little to check it. */
const MIN_FIELD_PAIRS = 50;
/** Total variation distance below which a field's m is "close to u". */
export const MIN_SEPARATION = 0.2;
/** The fit must expect at least this share of the anchor's lower bound. */
const ANCHOR_LOWER_SHARE = 0.5;
/** ... and promise at most this many times the exact agreements observed (plus a margin for small counts) ... */
const ANCHOR_UPPER_FACTOR = 3;
/**
 * ... and at least this share of the true pairs among them (less the margin). A good fit promises about as many as
 * there are or more (errors that come together leave more pairs fully exact than independent fields predict): on
 * the FEBRL sets, the synthetic population and the generated extracts it promised 1.0–1.7 times; a fit that
 * promised 0.49 times had taken half the true pairs for non-matches.
 */
const ANCHOR_LOWER_FACTOR = 0.75;
const ANCHOR_MARGIN = 10;

export interface FitUnderCheck {
  /** m and u of the model at field * 4 + band (u: over non-matches, from random pairs). */
  readonly m: Float64Array;
  readonly u: Float64Array;
  /** Candidate band counts at field * 4 + band (pattern-index.ts bandCounts). */
  readonly candidateCounts: Float64Array;
  /** True pairs the fit expects among the modelled candidates (λ × modelled). */
  readonly expectedMatches: number;
  readonly anchor: DeterministicAnchor;
  /** Every EM run behind the model: its name, whether it converged, and its objective's change in the last iteration. */
  readonly runs: readonly { readonly name: string; readonly converged: boolean; readonly lastChange?: number }[];
}

const round = (n: number): string => (n >= 100 ? n.toFixed(0) : n.toPrecision(2));

/**
 * A run that stopped at the iteration limit with its log-likelihood still rising by at least this much per
 * iteration had not found its maximum. Below it the likelihood has settled and only parameters creep along a flat
 * ridge (several m fit the data equally well): the fit is usable, and the report still says it did not converge.
 */
export const SETTLED_CHANGE = 1e-4;

function convergence(fit: FitUnderCheck): FitCheck {
  const notConverged = fit.runs.filter((r) => !r.converged);
  const stuck = notConverged
    .filter((r) => !(Math.abs(r.lastChange ?? Number.POSITIVE_INFINITY) < SETTLED_CHANGE))
    .map((r) => r.name);
  const settled = notConverged
    .filter((r) => Math.abs(r.lastChange ?? Number.POSITIVE_INFINITY) < SETTLED_CHANGE)
    .map((r) => r.name);
  if (stuck.length > 0)
    return {
      check: 'converged',
      passed: false,
      detail: `${stuck.join(', ')} stopped at the iteration limit with the likelihood still rising, without converging (a larger limit may let it converge: maxIterations, up to 10,000, or --max-iterations on the command line)`,
    };
  return settled.length === 0
    ? { check: 'converged', passed: true, detail: `all ${String(fit.runs.length)} EM runs converged` }
    : {
        check: 'converged',
        passed: true,
        detail: `${settled.join(', ')} stopped at the iteration limit with the likelihood settled (it rose by less than ${String(SETTLED_CHANGE)} in the last iteration) but the parameters still moving: not converged, though the other checks judge the fit`,
      };
}

function checkedFields(fit: FitUnderCheck): number[] {
  return PERSON_FIELDS.map((name) => FIELD_INDEX[name]).filter(
    (f) => observedPairs(fit.candidateCounts, f) >= MIN_FIELD_PAIRS,
  );
}

function bandOrder(fit: FitUnderCheck): FitCheck {
  const fields = checkedFields(fit);
  if (fields.length === 0)
    return {
      check: 'band-order',
      passed: true,
      detail: 'no name or birth date is compared in enough candidate pairs to check',
    };
  const wrong: string[] = [];
  for (const f of fields) {
    const m = (b: number): number => fit.m[f * B + b] ?? 0;
    const w = (b: number): number => Math.log(m(b) / (fit.u[f * B + b] ?? 1));
    const name = fieldWords(FIELD_NAMES[f] ?? '');
    const above = (
      [
        [PARTIAL, 'Partial'],
        [DIFFERENT, 'Different'],
      ] as const
    )
      .filter(([band]) => m(EXACT) < m(band))
      .map(([band, text]) => `m(${text}) ${m(band).toFixed(3)}`);
    if (above.length > 0) wrong.push(`${name}: m(Exact) ${m(EXACT).toFixed(3)} is below ${above.join(' and ')}`);
    else if (!(w(EXACT) > 0) || !(w(DIFFERENT) < 0))
      wrong.push(
        `${name}: exact agreement weighs ${w(EXACT).toFixed(2)} and a different value ${w(DIFFERENT).toFixed(2)} (expected > 0 and < 0)`,
      );
  }
  return wrong.length === 0
    ? {
        check: 'band-order',
        passed: true,
        detail: `the bands of ${fieldList(fields.map((f) => FIELD_NAMES[f] ?? ''))} rank as expected`,
      }
    : { check: 'band-order', passed: false, detail: wrong.join('; ') };
}

function separation(fit: FitUnderCheck): FitCheck {
  const fields = checkedFields(fit);
  if (fields.length === 0)
    return {
      check: 'm-apart-from-u',
      passed: true,
      detail: 'no name or birth date is compared in enough candidate pairs to check',
    };
  const close: string[] = [];
  for (const f of fields) {
    let distance = 0;
    for (let b = 0; b < B; b++) distance += Math.abs((fit.m[f * B + b] ?? 0) - (fit.u[f * B + b] ?? 0));
    distance /= 2;
    if (distance < MIN_SEPARATION) close.push(`${fieldWords(FIELD_NAMES[f] ?? '')} (distance ${distance.toFixed(2)})`);
  }
  return close.length === 0
    ? {
        check: 'm-apart-from-u',
        passed: true,
        detail: `m stands apart from u on ${fieldList(fields.map((f) => FIELD_NAMES[f] ?? ''))}`,
      }
    : {
        check: 'm-apart-from-u',
        passed: false,
        detail: `m is close to u (total variation below ${String(MIN_SEPARATION)}) on ${close.join(', ')}: the fit does not tell true pairs from random ones there`,
      };
}

function anchorLower(fit: FitUnderCheck): FitCheck {
  const { anchor } = fit;
  if (!anchor.applies)
    return {
      check: 'anchor-lower',
      passed: true,
      detail:
        'fewer than two of family name, given name and birth date are compared in most candidate pairs: no deterministic anchor',
    };
  const what = fieldList(anchor.fields);
  if (anchor.lowerBound < ANCHOR_MARGIN)
    return {
      check: 'anchor-lower',
      passed: true,
      detail: `${round(anchor.exactPairs)} candidate pairs agree exactly on ${what}: too few to bound the fit`,
    };
  const passed = fit.expectedMatches >= ANCHOR_LOWER_SHARE * anchor.lowerBound;
  return {
    check: 'anchor-lower',
    passed,
    detail: `${round(anchor.exactPairs)} candidate pairs agree exactly on ${what} (about ${round(anchor.coincidences)} by coincidence), so at least ${round(anchor.lowerBound)} are true pairs; the fit expects ${round(fit.expectedMatches)} true pairs in all${passed ? '' : ', far fewer'}`,
  };
}

function anchorConsistent(fit: FitUnderCheck): FitCheck {
  const { anchor } = fit;
  if (!anchor.applies) return { check: 'anchor-consistent', passed: true, detail: 'no deterministic anchor' };
  const promised = fit.expectedMatches * anchorRecall(anchor, fit.m);
  const tooMany = promised > ANCHOR_UPPER_FACTOR * anchor.exactPairs + ANCHOR_MARGIN;
  const tooFew = promised < ANCHOR_LOWER_FACTOR * anchor.lowerBound - ANCHOR_MARGIN;
  const verdict = tooMany
    ? ': the fit describes pairs that are not there'
    : tooFew
      ? ': the fit takes many true pairs for non-matches, so it expects too few'
      : '';
  return {
    check: 'anchor-consistent',
    passed: !tooMany && !tooFew,
    detail: `the fit's m says ${round(promised)} of its true pairs agree exactly on ${fieldList(anchor.fields)}; the candidates hold ${round(anchor.exactPairs)} such pairs${verdict}`,
  };
}

export function fitChecks(fit: FitUnderCheck): FitCheck[] {
  return [convergence(fit), bandOrder(fit), separation(fit), anchorLower(fit), anchorConsistent(fit)];
}

export function fitPasses(checks: readonly FitCheck[]): boolean {
  return checks.every((c) => c.passed);
}
