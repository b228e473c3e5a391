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

export class PatternIndex {
  private readonly byCode = new Map<number, number>();
  private readonly bands: number[] = [];
  private readonly counts: number[] = [];

  add(similarity: Float64Array): number {
    let code = 0;
    const row: number[] = [];
    for (let f = 0; f < FIELD_COUNT; f++) {
      const s = similarity[f] ?? Number.NaN;
      const band = Number.isNaN(s) || impliedByAddress(f, similarity) ? MISSING_BAND : bandIndex(s);
      row.push(band);
      code = code * (B + 1) + (band === MISSING_BAND ? B : band);
    }
    let index = this.byCode.get(code);
    if (index === undefined) {
      index = this.counts.length;
      this.byCode.set(code, index);
      this.bands.push(...row);
      this.counts.push(0);
    }
    this.counts[index] = (this.counts[index] ?? 0) + 1;
    return index;
  }

  patterns(): BandPatterns {
    return { fieldCount: FIELD_COUNT, bands: Uint8Array.from(this.bands), counts: Float64Array.from(this.counts) };
  }
}
