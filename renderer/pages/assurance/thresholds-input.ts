/** The evaluation's thresholds as typed in chips: each a number from 0 to 1, 1 to 50 of them, sorted, no repeats. */
export function parseThresholds(chips: readonly string[]): { values: number[]; error: string | undefined } {
  const values: number[] = [];
  for (const chip of chips) {
    const value = Number(chip);
    if (chip.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1)
      return { values, error: `“${chip.slice(0, 12)}” is not a threshold: each is a number from 0 to 1` };
    values.push(value);
  }
  if (values.length === 0) return { values, error: 'Give at least one threshold' };
  const distinct = [...new Set(values)].sort((a, b) => a - b);
  if (distinct.length > 50) return { values, error: 'At most 50 thresholds' };
  return { values: distinct, error: undefined };
}
