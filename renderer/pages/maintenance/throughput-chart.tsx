/** The throughput of a running job over time (its own chunk: the chart library loads only when needed). */
import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';
import { Text } from '@mantine/core';
import type { Sample } from '../../hooks/throughput.ts';
import { axisTicks, rateAxisTop, ratePoints, secondTicks } from '../../hooks/throughput.ts';
import { formatCount } from '../../format.ts';

export default function ThroughputChart({
  samples,
  running,
}: {
  readonly samples: readonly Sample[];
  readonly running: boolean;
}) {
  const points = ratePoints(samples);
  if (points.length < 2) {
    return (
      <Text size="sm" c="dimmed" data-testid="throughput-empty">
        {running
          ? 'The chart appears after a few batches.'
          : 'The job ended before this page saw enough batches to draw a chart.'}
      </Text>
    );
  }
  const peak = Math.max(...points.map((p) => p.rate));
  const top = rateAxisTop(points.map((p) => p.rate));
  return (
    <figure
      style={{ margin: 0 }}
      aria-label={`Throughput over the last ${String(points.at(-1)?.second ?? 0)} seconds, peak ${formatCount(peak)} identities per second`}
    >
      <AreaChart
        h={180}
        data={points}
        dataKey="second"
        series={[{ name: 'rate', label: 'Identities per second', color: 'indigo.6' }]}
        curveType="linear"
        withDots={false}
        xAxisLabel="Seconds since watching began"
        tooltipAnimationDuration={0}
        areaProps={{ isAnimationActive: false }}
        gridAxis="x"
        valueFormatter={(value) => formatCount(Math.round(value))}
        yAxisProps={{ domain: [0, top], ticks: axisTicks(top), interval: 0, allowDataOverflow: true }}
        xAxisProps={{
          type: 'number',
          domain: ['dataMin', 'dataMax'],
          ticks: secondTicks(points[0]?.second ?? 0, points.at(-1)?.second ?? 0),
          allowDecimals: false,
          tickFormatter: (value: number) => `${String(Math.round(value))} s`,
        }}
      />
    </figure>
  );
}
