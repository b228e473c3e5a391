/**
 * The simplest threshold between two adjacent observed scores. With "predicted match when score >= t",
 * every t in (below, atMost] gives the same predictions on the observed pairs, so the one a person can read,
 * type and remember is the decimal with the fewest digits in that range: the shortest-decimal ("simplest
 * number in an interval") choice of axis-tick and rounding algorithms. Among equally short decimals the
 * largest is taken (nearest the lowest admitted score, so new pairs just below it are not admitted).
 *
 * 1 is never chosen unless atMost is 1 and nothing shorter fits: a threshold of exactly 1 admits only pairs
 * decided by a trusted identifier or whose probability rounds to 1, an edge rather than an operating
 * point. When below is null (atMost is the lowest observed score) atMost itself is returned: anything
 * lower would go beyond the scores seen.
 */
const MAX_DIGITS = 17;

export function simplestThresholdInGap(below: number | null, atMost: number): number {
  if (!Number.isFinite(atMost)) throw new RangeError('atMost must be a finite number');
  if (below !== null && !(below < atMost)) throw new RangeError('below must be lower than atMost');
  if (below === null) return atMost;
  for (let digits = 0; digits <= MAX_DIGITS; digits++) {
    const scale = 10 ** digits;
    const at = (steps: number): number => Number((steps / scale).toFixed(digits));
    // The largest multiple of 10^-digits at most atMost (floor can be a step off after rounding: 0.29 * 100).
    let steps = Math.floor(atMost * scale);
    if (at(steps + 1) <= atMost) steps += 1;
    if (at(steps) > atMost) steps -= 1;
    if (steps >= scale) steps = scale - 1; // below 1
    const candidate = at(steps);
    if (candidate > below && candidate <= atMost) return candidate;
  }
  return atMost;
}
