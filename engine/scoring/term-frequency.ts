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
 * Except where the tenant's names are more alike than the model supposes: a population where one name is carried
 * by a tenth of the people (Nguyen, Kim, 张 or a family practice's own surname) has ū far above the default u. Two
 * people share such a name with chance p(v) whatever the model says, so exact agreement never weighs more than
 * ln(m/p(v)), the population's own reading: the adjustment is at most ln(u/p(v)). A model whose u is above ū (a
 * calibrated one: its u is measured among candidates) keeps the relative form, which is then the lower of the two.
 *
 * Bounds: below MIN_TERM_RECORDS records with the field the counts say too little (one sighting in a few hundred
 * records is not rarity), so no adjustment but the cap, for a value seen MIN_COMMON_COUNT times (a new registry's
 * first records are where a common name would otherwise count in full); above, the relative form is at most
 * ±ln(MAX_RARITY) (50 times rarer or commoner than the average name), so a name seen once in a large registry,
 * often itself a keying error, never outweighs the other fields. Only the Exact band of a family or given name
 * compared straight (not crossed or through a previous family name) is adjusted; every other band keeps its ln(m/u).
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
  /** A family and a given name's counts at once (one statement where a read is a round trip), if the reader can. */
  countNames?(familyName: string, givenName: string): readonly [family: TermCount, given: TermCount];
}

export const MIN_TERM_RECORDS = 1000;
export const MAX_RARITY = 50;
/**
 * In a registry of fewer than MIN_TERM_RECORDS records, a value counted this often is known to be common (20 of
 * a few hundred records say its frequency within a quarter or so), though rarity is not known yet: the cap
 * ln(u / p(v)) applies to it, and nothing else does.
 */
export const MIN_COMMON_COUNT = 20;

/**
 * ln(ū / p(v)) for a value with these counts, bounded; in a registry too small to say what is rare, 0 for a value
 * counted MIN_COMMON_COUNT times or more (only the cap of combinedAdjustment applies) and NaN (no adjustment) for
 * any other.
 */
export function relativeRarity(counts: TermCount): number {
  const { total, sumSquares } = counts;
  if (total < MIN_TERM_RECORDS) return knownCommon(counts) ? 0 : Number.NaN;
  if (sumSquares <= 0) return Number.NaN;
  const average = sumSquares / (total * total);
  const bound = Math.log(MAX_RARITY);
  return Math.max(-bound, Math.min(bound, Math.log(average / valueFrequency(counts))));
}

/**
 * ln p(v); NaN without records. Whether the counts say enough is relativeRarity's to judge: combinedAdjustment
 * reads this only where that is not NaN.
 */
export function logFrequency(counts: TermCount): number {
  return counts.total > 0 ? Math.log(valueFrequency(counts)) : Number.NaN;
}

function knownCommon(counts: TermCount): boolean {
  return counts.count >= MIN_COMMON_COUNT;
}

/** p(v); a value not yet stored (a record compared before it is written) counts as seen once. */
function valueFrequency(counts: TermCount): number {
  return Math.max(counts.count, 1) / counts.total;
}

/**
 * The adjustment under a model whose Exact band has u = e^logModelU (NaN when the model has none: the relative form
 * alone): min(relative, ln(u / p(v))). NaN when there is none, which is when relative is NaN.
 */
export function combinedAdjustment(relative: number, logP: number, logModelU: number): number {
  if (Number.isNaN(relative) || Number.isNaN(logModelU)) return relative;
  return Math.min(relative, logModelU - logP);
}

/** The adjustment of an exactly agreeing value with these counts under a model's u (combinedAdjustment). */
export function termFrequencyAdjustment(counts: TermCount, modelU = Number.NaN): number {
  return combinedAdjustment(relativeRarity(counts), logFrequency(counts), modelU > 0 ? Math.log(modelU) : Number.NaN);
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
