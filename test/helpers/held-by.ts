/** The counts a "held by" text gives ('possible twin 59, names only 55, fits two people 17'), in its order. */
export function heldByCounts(text: string): number[] {
  return [...text.matchAll(/ (\d[\d,]*)(,|$)/g)].map((m) => Number((m[1] ?? '').replaceAll(',', '')));
}
