/**
 * The Health page's bar charts (its own chunk): compared pairs by score band, identities by size, the review cases
 * each ingest and job opened by what held them.
 */
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { HealthSample, ReviewHoldKey } from '../../../engine/contract/health.ts';
import { holdKeyName, identitySizeBars, scoreBandBars, type HoldBar } from './health-series.ts';
import { formatCount, formatCountOf } from '../../format.ts';
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

const HOLD_COLORS: Record<ReviewHoldKey, string> = {
  none: 'gray.6',
  NamesOnly: 'orange.6',
  PossibleTwin: 'grape.6',
  NoNameEvidence: 'yellow.7',
  BirthDateConflict: 'red.7',
  MiddleNameConflict: 'pink.6',
  SharedIdentifier: 'cyan.7',
  BareRecord: 'teal.7',
  IdentitiesApart: 'indigo.6',
  'link-quality': 'blue.6',
};

/** One bar's make-up in words: '33 cases: possible twin 28, no rule 5'. */
function barText(bar: HoldBar, holds: readonly ReviewHoldKey[]): string {
  const parts = holds
    .filter((key) => Number(bar[key]) > 0)
    .map((key) => `${holdKeyName(key)} ${formatCount(Number(bar[key]))}`);
  return `${bar.what}, ${formatCountOf(bar.cases, 'case')}: ${parts.join(', ')}`;
}

/** The bars holdBars made (the page makes them once, to know whether there is any). */
export function ReviewHoldChart({
  bars,
  holds,
}: {
  readonly bars: readonly HoldBar[];
  readonly holds: readonly ReviewHoldKey[];
}) {
  const last = bars.at(-1);
  return (
    <figure
      style={{ margin: 0 }}
      aria-label={`Review cases each ingest and job opened, by what held them, in percent of its cases, oldest first; the latest: ${last === undefined ? 'none' : barText(last, holds)}`}
    >
      <BarChart
        h={220}
        data={[...bars]}
        dataKey="n"
        type="percent"
        series={holds.map((key) => ({ name: key, label: holdKeyName(key), color: HOLD_COLORS[key] }))}
        withLegend
        tooltipAnimationDuration={0}
        tooltipProps={{
          labelFormatter: (_label: unknown, payload: readonly { payload?: HoldBar }[]) => {
            const bar = payload[0]?.payload;
            return bar === undefined
              ? ''
              : `${bar.what}${bar.tick === 'job' ? '' : ` (ingest ${bar.tick})`}: ${formatCountOf(bar.cases, 'case')}`;
          },
        }}
        barProps={{ isAnimationActive: false }}
        xAxisProps={{ tickFormatter: (n: number) => bars[n - 1]?.tick ?? '' }}
        xAxisLabel="Ingest (numbered as above) or job, oldest first"
      />
    </figure>
  );
}
