/**
 * Arithmetic mean, summing with Neumaier's compensated summation (Neumaier 1974,
 * "Rundungsfehleranalyse einiger Verfahren zur Summation endlicher Summen", ZAMM 54:39–51;
 * the improved Kahan–Babuška sum that simple-statistics' `sum` uses) so that the result does not
 * drift with the number or order of terms.
 *
 * Returns null for an empty input: the mean of nothing is undefined, not 0.
 */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  let compensation = 0;
  for (const value of values) {
    const next = sum + value;
    if (Math.abs(sum) >= Math.abs(value)) {
      compensation += sum - next + value;
    } else {
      compensation += value - next + sum;
    }
    sum = next;
  }
  return (sum + compensation) / values.length;
}
