/**
 * What deterministic evidence says about the number of true pairs among blocking candidates, without any model:
 * the candidate pairs that agree exactly on every anchor field (family name, given name and birth date, the
 * fields of the person that registries hold most often). Two different people agree on all three only by
 * coincidence, and the random-pair u bounds how often that happens, so
 *
 *     true pairs ≥ D − C,    C = (all record pairs) × Π_f u_f(Exact)
 *
 * where D is the exact-agreement count among the candidates and C the expected coincidences among all pairs
 * (independence of the fields among non-matches, as the model assumes). Splink anchors the prior the same way
 * (`estimate_probability_two_random_records_match` from deterministic rules and their recall); here the anchor's
 * recall is not supplied by the analyst but read from a fit's m (Π_f m_f(Exact), conditional independence), which
 * gives the anchor's estimate of all true pairs, D / recall.
 *
 * The anchor applies when at least two anchor fields are compared in most candidate pairs; otherwise it says so.
 */
import { BANDS, FIELD_INDEX, FIELD_NAMES, type FieldName } from '../contract/fields.ts';
import type { BandPatterns } from './fellegi-sunter-em.ts';
import { bandCounts, observedPairs } from './pattern-index.ts';

const B = BANDS.length;
const EXACT = BANDS.indexOf('Exact');
export const ANCHOR_FIELDS: readonly FieldName[] = ['familyName', 'givenName', 'birthDate'];
/** An anchor field takes part when compared in at least this share of the candidate pairs. */
const MIN_OBSERVED_SHARE = 0.5;

export interface DeterministicAnchor {
  /** The anchor fields that take part (at least two, or the anchor does not apply). */
  readonly fields: readonly FieldName[];
  readonly applies: boolean;
  /** Modelled candidate pairs agreeing exactly on every anchor field. */
  readonly exactPairs: number;
  /** Expected coincidental exact agreements among all record pairs of the tenant. */
  readonly coincidences: number;
  /** max(0, exactPairs − coincidences): a lower bound on the true pairs among the modelled candidates. */
  readonly lowerBound: number;
}

/** `randomU`: P(band | random pair) at field * 4 + band. `allPairs`: N(N − 1)/2 for the tenant's N records. */
export function deterministicAnchor(
  patterns: BandPatterns,
  randomU: Float64Array,
  allPairs: number,
): DeterministicAnchor {
  const counts = bandCounts(patterns);
  let total = 0;
  for (const c of patterns.counts) total += c;
  const indexes = ANCHOR_FIELDS.map((name) => FIELD_INDEX[name]).filter(
    (f) => total > 0 && observedPairs(counts, f) >= MIN_OBSERVED_SHARE * total,
  );
  const fields = indexes.map((f) => FIELD_NAMES[f] as FieldName);
  if (indexes.length < 2) return { fields, applies: false, exactPairs: 0, coincidences: 0, lowerBound: 0 };
  let exactPairs = 0;
  for (let p = 0; p < patterns.counts.length; p++) {
    if (indexes.every((f) => patterns.bands[p * patterns.fieldCount + f] === EXACT))
      exactPairs += patterns.counts[p] ?? 0;
  }
  let chance = 1;
  for (const f of indexes) chance *= randomU[f * B + EXACT] ?? 1;
  const coincidences = allPairs * chance;
  return { fields, applies: true, exactPairs, coincidences, lowerBound: Math.max(0, exactPairs - coincidences) };
}

/** P(every anchor field Exact | match) under m (conditional independence): the anchor's recall among true pairs. */
export function anchorRecall(anchor: DeterministicAnchor, m: Float64Array): number {
  let recall = 1;
  for (const field of anchor.fields) recall *= m[FIELD_INDEX[field] * B + EXACT] ?? 0;
  return recall;
}
