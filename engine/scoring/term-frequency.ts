/**
 * Term-frequency adjustment of exact name agreement (Winkler, "Using the EM algorithm for weight computation in
 * the Fellegi-Sunter model of record linkage", 1988, and "Frequency-based matching in Fellegi-Sunter model of
 * record linkage", 2000; as in Splink's `term_frequency_adjustments`). The model's u of the Exact band is the
 * chance that two people agree on a name whatever the name: Σ p(v)² over the population. Given that two records
 * agree on the value v, the chance that two different people do is p(v), so the Exact band's ln(m/u) becomes
 * ln(m / p(v)) = ln(m/u) + ln(u / p(v)): agreeing on a rare name counts more, on a common one less.
 *
 * p(v) comes from the tenant's own records (store/term-frequency.ts), shrunk towards the model's u so that a
 * small registry does not turn one sighting into strong evidence: a beta prior with mean u worth 1/u records,
 *
 *   p̂(v) = (count(v) + 1) / (total + 1/u)
 *
 * (with no records p̂ = u and the adjustment is 0; from some thousands of records the tenant's own frequencies
 * dominate). The adjustment is bounded above by ln(MAX_RARITY) (a name at most 50 times rarer than u), so a
 * name seen once in a large registry, often itself a keying error copied between systems, never outweighs the
 * other fields. It applies only to the Exact band of family and given names of one person's values compared
 * straight (not crossed or through a previous family name); every other band keeps its ln(m/u).
 */
export const TERM_FREQUENCY_FIELDS = ['familyName', 'givenName'] as const;
export type TermFrequencyField = (typeof TERM_FREQUENCY_FIELDS)[number];

export interface TermCount {
  /** Records carrying the value. */
  readonly count: number;
  /** Records carrying any value in the field. */
  readonly total: number;
}

/** Reads the tenant's counts (store/term-frequency.ts). */
export interface TermFrequencyReader {
  count(field: TermFrequencyField, value: string): TermCount;
}

export const MAX_RARITY = 50;

/** The adjustment ln(u / p̂(v)) added to the Exact band's ln(m/u), for a value with these counts and the model's u. */
export function termFrequencyAdjustment(exactU: number, counts: TermCount): number {
  if (!(exactU > 0 && exactU < 1)) return 0;
  const p = (counts.count + 1) / (counts.total + 1 / exactU);
  return Math.min(Math.log(exactU / p), Math.log(MAX_RARITY));
}
