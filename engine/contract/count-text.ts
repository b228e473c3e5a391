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

const withDecimals = new Map<number, Intl.NumberFormat>();

/** A figure with a fixed number of decimals, grouped the same way: "1,750.0". */
export function decimalText(n: number, decimals: number): string {
  let format = withDecimals.get(decimals);
  if (format === undefined) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    withDecimals.set(decimals, format);
  }
  return format.format(n);
}

/**
 * A share (0 to 1) as a person reads it: "82.4%", one decimal. A share above zero but below a tenth of a percent keeps
 * one significant digit ("0.04%"), so it never reads as the "0.0%" of none.
 */
export function percentText(share: number): string {
  const value = 100 * share;
  return value > 0 && value < 0.1 ? `${value.toPrecision(1)}%` : `${value.toFixed(1)}%`;
}

/**
 * A rate (per 1,000, say) as a person reads it: one decimal ("12.6"). A rate above zero but below a tenth keeps one
 * significant digit ("0.03"), so 11 flagged identities among 335,551 never read as the "0.0" of none.
 */
export function rateText(value: number): string {
  return value > 0 && value < 0.1 ? value.toPrecision(1) : decimalText(value, 1);
}
