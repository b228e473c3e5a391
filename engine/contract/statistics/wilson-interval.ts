/**
 * Wilson score interval for a binomial proportion, without continuity correction
 * (Wilson 1927, "Probable inference, the law of succession, and statistical inference",
 * JASA 22:209–212; method 3 of Newcombe 1998, "Two-sided confidence intervals for the single
 * proportion: comparison of seven methods", Statistics in Medicine 17:857–872):
 *
 *     p̂ = x / n
 *     centre    = (p̂ + z²/2n) / (1 + z²/n)
 *     halfWidth = z / (1 + z²/n) · sqrt(p̂(1 − p̂)/n + z²/4n²)
 *     interval  = centre ∓ halfWidth
 *
 * Same as R's `prop.test(x, n, correct = FALSE)$conf.int` and SciPy's
 * `binomtest(x, n).proportion_ci(method='wilson')`. The default z is the 0.975 standard normal
 * quantile (a two-sided 95% interval). The bounds are exactly 0 when x = 0 and exactly 1 when
 * x = n, and always lie in [0, 1].
 *
 * Returns null when trials = 0 (no proportion to bound). Throws a RangeError unless trials is a
 * non-negative integer, successes an integer in [0, trials] and z a positive finite number.
 */
export function wilsonInterval(
  successes: number,
  trials: number,
  z = 1.959963984540054,
): { lower: number; upper: number } | null {
  if (!Number.isSafeInteger(trials) || trials < 0) {
    throw new RangeError('trials must be a non-negative integer');
  }
  if (!Number.isSafeInteger(successes) || successes < 0 || successes > trials) {
    throw new RangeError('successes must be an integer between 0 and trials');
  }
  if (!Number.isFinite(z) || z <= 0) {
    throw new RangeError('z must be a positive finite number');
  }
  if (trials === 0) return null;

  const n = trials;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const halfWidth = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return {
    lower: successes === 0 ? 0 : Math.max(0, centre - halfWidth),
    upper: successes === n ? 1 : Math.min(1, centre + halfWidth),
  };
}
