/**
 * A chart's legend in the order its series are drawn (Exact, Strong, Partial, Different), not recharts' default,
 * which sorts the legend alphabetically and so reads it against the bars.
 */
import type { LegendPayload } from 'recharts';

export function legendInSeriesOrder(series: readonly { readonly name: string }[]): {
  readonly itemSorter: (item: LegendPayload) => number;
} {
  const order = new Map(series.map((s, i) => [s.name, i]));
  return { itemSorter: (item) => order.get(String(item.dataKey)) ?? series.length };
}
