/** The Health page's distributions (its own chunk): compared pairs by score band, identities by size. */
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { HealthSample } from '../../../engine/contract/health.ts';
import { identitySizeBars, scoreBandBars } from './health-series.ts';
import { percentText } from '../../../engine/contract/count-text.ts';

export function ScoreBandChart({ samples }: { readonly samples: readonly HealthSample[] }) {
  const bars = scoreBandBars(samples);
  const withBefore = bars.some((b) => b.before !== null);
  return (
    <figure
      style={{ margin: 0 }}
      aria-label={`Compared pairs of the last ingest by score band, in percent${withBefore ? ', beside the ingest before it from the same source' : ''}: ${bars.map((b) => `${b.band} ${percentText(b.latest / 100)}`).join(', ')}`}
    >
      <BarChart
        h={200}
        data={bars}
        dataKey="band"
        unit="%"
        series={[
          ...(withBefore ? [{ name: 'before', label: 'Ingest before', color: 'gray.5' }] : []),
          { name: 'latest', label: 'Last ingest', color: 'indigo.6' },
        ]}
        withLegend
        tooltipAnimationDuration={0}
        barProps={{ isAnimationActive: false }}
        xAxisLabel="Score band"
      />
    </figure>
  );
}

export function IdentitySizeChart({ samples }: { readonly samples: readonly HealthSample[] }) {
  const bars = identitySizeBars(samples);
  return (
    <figure
      style={{ margin: 0 }}
      aria-label={`Identities by their number of records, in percent: ${bars.map((b) => `${b.size}: ${percentText(b.percent / 100)} (${String(b.identities)})`).join(', ')}`}
    >
      <BarChart
        h={200}
        data={bars}
        dataKey="size"
        unit="%"
        series={[{ name: 'percent', label: 'Identities', color: 'teal.7' }]}
        tooltipAnimationDuration={0}
        barProps={{ isAnimationActive: false }}
        xAxisLabel="Records per identity"
      />
    </figure>
  );
}
