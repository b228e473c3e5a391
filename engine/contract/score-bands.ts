/**
 * Score bands for counting pairs by score (health figures, impact preview): fine where decisions are made, near 0
 * and near 1, where a linear axis crushes them. Browser-safe.
 */
/** Upper edges of the bands (the last band runs to 1): one more band than edges. */
export const SCORE_BAND_EDGES = [0.001, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999] as const;
/** The band a score falls in: the number of edges at or below it. */
export function scoreBand(score: number): number {
  let band = 0;
  while (band < SCORE_BAND_EDGES.length && score >= (SCORE_BAND_EDGES[band] ?? 1)) band++;
  return band;
}

/** A band's name from its lower and upper edge ("0.5–0.9", the last "0.999–1"). */
export function scoreBandName(band: number): string {
  const low = band === 0 ? 0 : SCORE_BAND_EDGES[band - 1];
  const high = SCORE_BAND_EDGES[band];
  return high === undefined ? `${String(low)}–1` : `${String(low)}–${String(high)}`;
}
