/**
 * Additive (Lidstone) smoothing of band counts, m_b = (n_b + s) / (n + 4s): the estimate of one field's band
 * probabilities that calibration (from labels), the estimate and u from random pairs (registry-u.ts) share.
 */
import { BANDS, type Band } from '../contract/fields.ts';

export type BandProbabilities = Record<Band, number>;

/** Smoothed band probabilities from band counts (in BANDS order); smoothing must be positive. */
export function smoothedBandProbabilities(counts: ArrayLike<number>, smoothing: number): BandProbabilities {
  if (!(smoothing > 0)) throw new RangeError('smoothing must be positive');
  let n = 0;
  for (let b = 0; b < BANDS.length; b++) n += counts[b] ?? 0;
  const denominator = n + BANDS.length * smoothing;
  const out = {} as BandProbabilities;
  BANDS.forEach((band, b) => {
    out[band] = ((counts[b] ?? 0) + smoothing) / denominator;
  });
  return out;
}
