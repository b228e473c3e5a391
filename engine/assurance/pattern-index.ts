/**
 * Compared pairs grouped by band pattern for EM (fellegi-sunter-em.ts): each distinct vector of bands, one per
 * field (base-5 codes: the four bands or missing), with how many pairs have it. Bands are those scoring sees: a
 * missing comparison, and an agreement an agreeing address line implies (scoring gives it no weight), are not
 * counted (MISSING_BAND).
 */
import { BANDS } from '../contract/fields.ts';
import { bandIndex, impliedByAddress } from '../scoring/fellegi-sunter.ts';
import { FIELD_COUNT } from '../scoring/field-comparison.ts';
import { MISSING_BAND, type BandPatterns } from './fellegi-sunter-em.ts';

const B = BANDS.length;

/** The field's band index, or B (the code's digit for missing) when scoring does not count it. */
function bandOf(field: number, similarity: Float64Array): number {
  const s = similarity[field] ?? Number.NaN;
  return Number.isNaN(s) || impliedByAddress(field, similarity) ? B : bandIndex(s);
}

export class PatternIndex {
  private readonly byCode = new Map<number, number>();
  private readonly bands: number[] = [];
  private readonly counts: number[] = [];

  add(similarity: Float64Array): number {
    let code = 0;
    for (let f = 0; f < FIELD_COUNT; f++) code = code * (B + 1) + bandOf(f, similarity);
    let index = this.byCode.get(code);
    if (index === undefined) {
      // Only a new pattern stores its bands (most pairs repeat one already seen).
      index = this.counts.length;
      this.byCode.set(code, index);
      for (let f = 0; f < FIELD_COUNT; f++) {
        const band = bandOf(f, similarity);
        this.bands.push(band === B ? MISSING_BAND : band);
      }
      this.counts.push(0);
    }
    this.counts[index] = (this.counts[index] ?? 0) + 1;
    return index;
  }

  patterns(): BandPatterns {
    return { fieldCount: FIELD_COUNT, bands: Uint8Array.from(this.bands), counts: Float64Array.from(this.counts) };
  }
}

/** The pairs with the field compared, from bandCounts. */
export function observedPairs(counts: ArrayLike<number>, field: number): number {
  let total = 0;
  for (let b = 0; b < B; b++) total += counts[field * B + b] ?? 0;
  return total;
}

/** How many pairs fell in each field's band, at field * 4 + band (missing comparisons are not counted). */
export function bandCounts(patterns: BandPatterns): Float64Array {
  const { fieldCount: F, bands, counts } = patterns;
  const out = new Float64Array(F * B);
  for (let p = 0; p < counts.length; p++) {
    for (let f = 0; f < F; f++) {
      const band = bands[p * F + f] ?? MISSING_BAND;
      if (band !== MISSING_BAND) out[f * B + band] = (out[f * B + band] ?? 0) + (counts[p] ?? 0);
    }
  }
  return out;
}
