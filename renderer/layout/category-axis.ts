/**
 * A bar chart's category axis that names every category: each name wraps within its category's width (two lines in
 * the 960 px window, "Family / name") where Recharts would otherwise hide the names that overlap (every other field).
 * The chart's width is measured; before it is known a name gets the width of a laptop's chart.
 */
import { useElementSize } from '@mantine/hooks';

/** The value axis's width beside the plot and the plot's margins (Mantine's BarChart's defaults). */
const BESIDE_PLOT = 60 + 10;

export function useCategoryAxis(count: number) {
  const { ref, width } = useElementSize();
  const each = width === 0 ? 90 : (width - BESIDE_PLOT) / Math.max(1, count);
  return {
    ref,
    xAxisProps: {
      interval: 0,
      height: 44,
      // Mantine's own tick, with the width Recharts wraps the name within.
      tick: { transform: 'translate(0, 10)', fontSize: 12, fill: 'currentColor', width: Math.max(28, each - 6) },
    },
  } as const;
}
