/**
 * u-probabilities from random record pairs (Splink's `estimate_u_using_random_sampling`; Fellegi & Sunter
 * 1969 define u over all non-matching pairs, and two records picked at random are almost never one person:
 * the chance is the random-pair prior, about 1e-4). Pairs are drawn uniformly with replacement from the
 * N(N−1)/2 distinct pairs by a seeded PRNG, compared with the active profile's comparators and counted per
 * field and band exactly as scoring sees them: a missing comparison is not counted, nor is an agreement that
 * an agreeing address line implies (scoring gives it no weight, scoring/fellegi-sunter.ts), and a pair the
 * scorer decides before the model (trusted identifier, hard conflict) stays out, as in calibration. The pairs'
 * band patterns are kept too, so the pairs of one person among them can be weighted out (non-match-u.ts).
 */
import { BANDS } from '../contract/fields.ts';
import type { BandPatterns } from './fellegi-sunter-em.ts';
import { bandCounts, PatternIndex } from './pattern-index.ts';
import { FIELD_COUNT, newScratch } from '../scoring/field-comparison.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import type { Scorer } from '../scoring/scorer.ts';
import { createRng, deriveSeed } from '../synthetic/prng.ts';
import { NO_CONTROL, type RunControl } from '../run-control.ts';

const RANDOM_PAIR_STREAM = 47;

export interface RandomPairCounts {
  /** Band counts at field * 4 + band. */
  readonly counts: Float64Array;
  /** The compared pairs (those scored by the model) by band pattern. */
  readonly patterns: BandPatterns;
  readonly compared: number;
  readonly decidedOutsideModel: number;
}

export function randomPairBandCounts(
  scorer: Scorer,
  records: readonly PreparedRecord[],
  pairs: number,
  seed: number,
  control: RunControl = NO_CONTROL,
): RandomPairCounts {
  const n = records.length;
  const index = new PatternIndex();
  if (n < 2)
    return {
      counts: new Float64Array(FIELD_COUNT * BANDS.length),
      patterns: index.patterns(),
      compared: 0,
      decidedOutsideModel: 0,
    };
  const rng = createRng(deriveSeed(seed, RANDOM_PAIR_STREAM));
  const scratch = newScratch();
  let outside = 0;
  for (let k = 0; k < pairs; k++) {
    if ((k & 8191) === 0) control.step('comparing random pairs', k, pairs);
    const a = rng.int(n);
    let b = rng.int(n - 1);
    if (b >= a) b++;
    // Only the bands count here, never the score: decidedBy() compares the fields without scoring them.
    if (scorer.decidedBy(records[a] as PreparedRecord, records[b] as PreparedRecord, scratch) !== 'score') {
      outside++;
      continue;
    }
    index.add(scratch.similarity);
  }
  const patterns = index.patterns();
  return { counts: bandCounts(patterns), patterns, compared: pairs, decidedOutsideModel: outside };
}
