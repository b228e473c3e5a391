/**
 * A count as the engine's, the contract's and the CLI's English sentences write it: grouped by thousands ("12,345"),
 * whatever the machine's locale, so a message reads the same on every workstation and server. Browser-safe.
 */
const grouped = new Intl.NumberFormat('en-US');

export function countText(n: number): string {
  return grouped.format(n);
}

/** A count with its noun, singular for one: "1 match", "12,345 matches". */
export function countOfText(n: number, singular: string, plural = `${singular}s`): string {
  return `${grouped.format(n)} ${n === 1 ? singular : plural}`;
}

/** A figure with a fixed number of decimals, grouped the same way: "1,750.0". */
export function decimalText(n: number, decimals: number): string {
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(n);
}
