/** One health metric over the ingests, a line per source, profile version changes marked (its own chunk). */
import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import type { HealthSample } from '../../../engine/contract/health.ts';
import { seriesOf, type HealthMetric } from './health-series.ts';

const COLORS = ['indigo.6', 'teal.7', 'orange.7', 'grape.6', 'cyan.7', 'red.7'];

export default function HealthChart({
  samples,
  metric,
  label,
  unit,
}: {
  readonly samples: readonly HealthSample[];
  readonly metric: HealthMetric;
  readonly label: string;
  readonly unit: string;
}) {
  const { points, sources, versionChanges } = seriesOf(samples, metric);
  return (
    <figure
      style={{ margin: 0 }}
      aria-label={`${label}, per ingest, one line per source${versionChanges.length > 0 ? `; profile versions change at ingests ${versionChanges.map((c) => String(c.index + 1)).join(', ')}` : ''}`}
    >
      <LineChart
        h={200}
        data={points as Record<string, unknown>[]}
        dataKey="index"
        series={sources.map((name, i) => ({ name, label: name, color: COLORS[i % COLORS.length] ?? 'gray.6' }))}
        connectNulls
        curveType="linear"
        withLegend
        unit={unit}
        tooltipAnimationDuration={0}
        lineProps={{ isAnimationActive: false }}
        referenceLines={versionChanges.map((c) => ({
          x: c.index,
          label: `profile v${String(c.version)}`,
          color: 'gray.7',
        }))}
        xAxisProps={{ tickFormatter: (value: number) => String(value + 1) }}
        xAxisLabel="Ingest (oldest first)"
      />
    </figure>
  );
}
