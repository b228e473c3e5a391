/**
 * Term-frequency adjustment of exact name agreement (Winkler, "Frequency-based matching in Fellegi-Sunter model
 * of record linkage", 2000; Splink's `term_frequency_adjustments`). The u of a name's Exact band is the chance
 * that two different people agree on the name whatever it is: over a population, ū = Σ p(v)². Given that two
 * records agree on the value v, the chance that two different people do is p(v), so the Exact band's weight
 * ln(m/u) becomes ln(m/u) + ln(ū / p(v)): agreeing on a rare name counts more, on a common one less.
 *
 * Both p(v) and ū come from the tenant's own records (store/term-frequency.ts keeps count(v), the total and
 * Σ count²): p(v) = count(v) / total, ū = Σ count² / total². The adjustment is relative to the tenant's own
 * average name, not to the model's u, because a calibrated model's u is estimated among blocking candidates
 * (labels sample), where names agree far more often than between random records; for the default model, whose u
 * is a random-pair u, ū and u agree (Σ p² is how the default u was estimated) and this is Splink's form.
 *
 * Bounds: below MIN_TERM_RECORDS records with the field the counts say too little (one sighting in a few hundred
 * records is not rarity), so no adjustment; above, it is at most ±ln(MAX_RARITY) (50 times rarer or commoner
 * than the average name), so a name seen once in a large registry, often itself a keying error, never
 * outweighs the other fields. Only the Exact band of a family or given name compared straight (not crossed or
 * through a previous family name) is adjusted; every other band keeps its ln(m/u).
 */
export const TERM_FREQUENCY_FIELDS = ['familyName', 'givenName'] as const;
export type TermFrequencyField = (typeof TERM_FREQUENCY_FIELDS)[number];

export interface TermCount {
  /** Records carrying the value. */
  readonly count: number;
  /** Records carrying any value in the field. */
  readonly total: number;
  /** Σ count² over the field's values. */
  readonly sumSquares: number;
}

/** Reads the tenant's counts (store/term-frequency.ts). */
export interface TermFrequencyReader {
  count(field: TermFrequencyField, value: string): TermCount;
}

export const MIN_TERM_RECORDS = 1000;
export const MAX_RARITY = 50;

/** ln(ū / p(v)) for a value with these counts, bounded; NaN when the counts are too few to say (no adjustment). */
export function termFrequencyAdjustment(counts: TermCount): number {
  const { total, sumSquares } = counts;
  if (total < MIN_TERM_RECORDS || sumSquares <= 0) return Number.NaN;
  // A value not yet stored (a record compared before it is written) counts as seen once.
  const p = Math.max(counts.count, 1) / total;
  const average = sumSquares / (total * total);
  const bound = Math.log(MAX_RARITY);
  return Math.max(-bound, Math.min(bound, Math.log(average / p)));
}

/**
 * A reader that remembers the counts it has read (bounded in two generations: when the young one is full it
 * becomes the old one and the oldest is dropped), for a long read-only pass such as reconciliation's matching
 * phase: common names are read once instead of once per record. The counts are those first read in the pass,
 * as the pass's prepared records already are.
 */
export function rememberedTermFrequencies(reader: TermFrequencyReader, capacity = 200_000): TermFrequencyReader {
  let young = new Map<string, TermCount>();
  let old = new Map<string, TermCount>();
  return {
    count(field, value) {
      const key = `${field}\u0000${value}`;
      let counts = young.get(key) ?? old.get(key);
      if (counts === undefined) counts = reader.count(field, value);
      else if (young.has(key)) return counts;
      if (young.size >= capacity / 2) {
        old = young;
        young = new Map();
      }
      young.set(key, counts);
      return counts;
    },
  };
}
