/** Test data for the Fellegi-Sunter mixture (engine/assurance/fellegi-sunter-em.ts). */
import { MISSING_BAND, type BandPatterns, type MixtureParameters } from '../../engine/assurance/fellegi-sunter-em.ts';
import { createRng } from '../../engine/synthetic/prng.ts';

/** Pairs drawn from a known mixture, one row of bands per pair (a field is missing with probability `missing`). */
export function drawPairs(
  truth: MixtureParameters,
  fields: number,
  pairs: number,
  seed: number,
  missing = 0,
): number[][] {
  const rng = createRng(seed);
  const draw = (p: Float64Array, f: number): number => {
    let x = rng.next();
    for (let b = 0; b < 4; b++) {
      x -= p[f * 4 + b] ?? 0;
      if (x < 0) return b;
    }
    return 3;
  };
  const rows: number[][] = [];
  for (let i = 0; i < pairs; i++) {
    const match = rng.next() < truth.lambda;
    const row: number[] = [];
    for (let f = 0; f < fields; f++) row.push(rng.next() < missing ? MISSING_BAND : draw(match ? truth.m : truth.u, f));
    rows.push(row);
  }
  return rows;
}

/** Rows of bands grouped into patterns, each distinct row once with how many pairs have it. */
export function groupPatterns(rows: readonly (readonly number[])[], fields: number): BandPatterns {
  const byKey = new Map<string, number>();
  const bands: number[] = [];
  const counts: number[] = [];
  for (const row of rows) {
    const key = row.join(',');
    const at = byKey.get(key);
    if (at === undefined) {
      byKey.set(key, counts.length);
      bands.push(...row);
      counts.push(1);
    } else counts[at] = (counts[at] ?? 0) + 1;
  }
  return { fieldCount: fields, bands: Uint8Array.from(bands), counts: Float64Array.from(counts) };
}

/** Pairs drawn from a known mixture, grouped into patterns. */
export function drawPatterns(
  truth: MixtureParameters,
  fields: number,
  pairs: number,
  seed: number,
  missing = 0,
): BandPatterns {
  return groupPatterns(drawPairs(truth, fields, pairs, seed, missing), fields);
}
