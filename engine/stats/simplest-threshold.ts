/**
 * The simplest threshold between two adjacent observed scores. With "predicted match when score >= t",
 * every t in (below, atMost] gives the same predictions on the observed pairs, so the one a person can read,
 * type and remember is the decimal with the fewest digits in that range: the shortest-decimal ("simplest
 * number in an interval") choice of axis-tick and rounding algorithms. Among equally short decimals the one
 * nearest `toward` is taken (ties to the larger). By default that is atMost: the largest, nearest the lowest
 * admitted score, so new pairs just below it are not admitted (what a precision target wants). A caller with a
 * reason to prefer another point of the gap passes it (calibration's F1-optimal threshold: calibrate.ts).
 *
 * 1 is never chosen unless atMost is 1 and nothing shorter fits: a threshold of exactly 1 admits only pairs
 * decided by a trusted identifier or whose probability rounds to 1, an edge rather than an operating
 * point. When below is null (atMost is the lowest observed score) atMost itself is returned: anything
 * lower would go beyond the scores seen.
 */
const MAX_DIGITS = 17;

export function simplestThresholdInGap(below: number | null, atMost: number, toward: number = atMost): number {
  if (!Number.isFinite(atMost)) throw new RangeError('atMost must be a finite number');
  if (below !== null && !(below < atMost)) throw new RangeError('below must be lower than atMost');
  if (Number.isNaN(toward)) throw new RangeError('toward must be a number');
  if (below === null) return atMost;
  const target = Math.min(Math.max(toward, below), atMost);
  for (let digits = 0; digits <= MAX_DIGITS; digits++) {
    const scale = 10 ** digits;
    const at = (steps: number): number => Number((steps / scale).toFixed(digits));
    // The largest multiple of 10^-digits at most the target (floor can be a step off after rounding: 0.29 * 100),
    // and below 1.
    let steps = Math.floor(target * scale);
    if (at(steps + 1) <= target) steps += 1;
    if (at(steps) > target) steps -= 1;
    if (steps >= scale) steps = scale - 1;
    const fits = (candidate: number): boolean => candidate > below && candidate <= atMost && candidate < 1;
    const down = at(steps);
    const up = at(steps + 1);
    if (fits(up) && (!fits(down) || up - target <= target - down)) return up;
    if (fits(down)) return down;
  }
  return atMost;
}
