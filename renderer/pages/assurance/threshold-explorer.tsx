/**
 * The threshold explorer: precision, recall and F1 against the threshold with their Wilson 95% bands, and
 * the confusion matrix and metrics at a threshold chosen by dragging or clicking on the chart, with the
 * slider (arrow keys step 0.001, Page Up/Down 0.01) or by typing it. Everything is computed in the page from
 * the report's score distribution by class with the engine's own contract code (score-distribution.ts,
 * threshold-metrics.ts), so a figure here is the figure the engine would give at that threshold.
 * Recharts directly rather than @mantine/charts: Mantine's LineChart cannot draw a range band.
 * Everything decisive for a linkage model happens close to 1 (Certain is 0.97 by default): the range control zooms
 * the chart and the slider to 0.9–1 or 0.99–1, drawn at the distribution's full resolution (every bin edge), so the
 * Certain line and the recall cliff get the width of the chart instead of its last few pixels. Or the axis is the match
 * weight (log2 odds of the score, Splink's threshold axis): every bin edge, each tick with its probability beside it,
 * so 0.5, 0.97 and 0.999 are evenly apart; the threshold picked there is the same score the profile uses.
 */
import {
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Slider,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import type { ThresholdMetrics } from '../../../engine/contract/assurance.ts';
import { thresholdCurve, type ScoreDistribution } from '../../../engine/contract/statistics/score-distribution.ts';
import { formatCount } from '../../format.ts';
import { ExportButtons } from './export-buttons.tsx';
import { placeMarkLabels } from './mark-labels.ts';
import { fixed3, metricsRow, range } from './metric-text.ts';
import {
  CURVE_STRIDE,
  curvePoints,
  matchWeight,
  metricsAt,
  probabilityOfWeight,
  weightPoints,
  weightTick,
} from './score-curves.ts';

export interface ReferenceMark {
  readonly threshold: number;
  readonly label: string;
}

function LegendKey({ colour, dash, text }: { readonly colour: string; readonly dash: string; readonly text: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <svg width="28" height="10" aria-hidden="true">
        <line x1="0" y1="5" x2="28" y2="5" stroke={colour} strokeWidth="2" strokeDasharray={dash} />
      </svg>
      <Text size="sm">{text}</Text>
    </Group>
  );
}

function ConfusionMatrix({ metrics }: { readonly metrics: ThresholdMetrics }) {
  const cell = (label: string, value: number, testId: string, tone: string) => (
    <Table.Td ta="center" bg={tone} data-testid={testId}>
      <Text fw={700} size="lg">
        {formatCount(value)}
      </Text>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Table.Td>
  );
  return (
    <Table
      withTableBorder
      withColumnBorders
      aria-label={`Confusion matrix at threshold ${metrics.threshold.toFixed(3)}`}
      data-testid="confusion-matrix"
      style={{ fontVariantNumeric: 'tabular-nums' }}
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th>
            <VisuallyHidden>Labelled class</VisuallyHidden>
          </Table.Th>
          <Table.Th ta="center">Predicted match (score ≥ {metrics.threshold.toFixed(3)})</Table.Th>
          <Table.Th ta="center">Predicted non-match</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        <Table.Tr>
          <Table.Th scope="row">Labelled match</Table.Th>
          {cell('true positives', metrics.tp, 'cm-tp', 'var(--mantine-color-teal-0)')}
          {cell('false negatives', metrics.fn, 'cm-fn', 'var(--mantine-color-orange-0)')}
        </Table.Tr>
        <Table.Tr>
          <Table.Th scope="row">Labelled non-match</Table.Th>
          {cell('false positives', metrics.fp, 'cm-fp', 'var(--mantine-color-orange-0)')}
          {cell('true negatives', metrics.tn, 'cm-tn', 'var(--mantine-color-teal-0)')}
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

function MetricTile({
  label,
  value,
  interval,
  testId,
}: {
  readonly label: string;
  readonly value: number | null;
  readonly interval?: string;
  readonly testId: string;
}) {
  return (
    <Paper withBorder p="xs">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} data-testid={testId}>
        {fixed3(value)}
      </Text>
      {interval !== undefined ? (
        <Text size="xs" c="dimmed">
          95%: {interval}
        </Text>
      ) : null}
    </Paper>
  );
}

const RANGES = { whole: [0, 1], high: [0.9, 1], top: [0.99, 1], weight: [0, 1] } as const satisfies Record<
  string,
  readonly [number, number]
>;
type RangeName = keyof typeof RANGES;
/** The match-weight axis: log2 odds from −10 (0.001) to 10 (0.999), ticks every 2. */
const WEIGHT_DOMAIN = [-10, 10] as const;
const WEIGHT_TICKS = [-10, -8, -6, -4, -2, 0, 2, 4, 6, 8, 10];
const onWeightAxis = (range: RangeName): boolean => range === 'weight';
/** The plot's insets in the chart: the y axis's width on the left, the margin on the right. */
const PLOT_LEFT = 44;
const PLOT_RIGHT = 24;
/** One row of mark names lower: the 11 px names' line height. */
const MARK_ROW = 13;

function ticksOf([from, to]: readonly [number, number]): number[] {
  const step = (to - from) / 10;
  return Array.from({ length: 11 }, (_, i) => Number((from + i * step).toFixed(4)));
}

export function ThresholdExplorer({
  distribution,
  initial,
  marks = [],
  name,
}: {
  readonly distribution: ScoreDistribution;
  readonly initial: number;
  readonly marks?: readonly ReferenceMark[];
  readonly name: string;
}) {
  const [rangeName, setRangeName] = useState<RangeName>('whole');
  const domain = RANGES[rangeName];
  // The whole range every 0.005; a zoomed one at every bin edge inside it.
  const points = useMemo(
    () =>
      onWeightAxis(rangeName)
        ? weightPoints(distribution)
        : rangeName === 'whole'
          ? curvePoints(distribution)
          : curvePoints(distribution, 1).filter((p) => p.threshold >= domain[0] - 1e-9),
    [distribution, rangeName, domain],
  );
  const weighted = onWeightAxis(rangeName);
  // Where a score sits on the x axis: itself, or its match weight clamped into the weight axis.
  const x = (score: number): number =>
    weighted ? Math.min(WEIGHT_DOMAIN[1], Math.max(WEIGHT_DOMAIN[0], matchWeight(score))) : score;
  // The marks on the axis shown, each named beside its line where its name stays inside the plot and clear of the
  // others' (the plot's width measured, so the names fit a 960 px window as well as a wide one).
  const { ref: plotBox, width: boxWidth } = useElementSize();
  const axis: readonly [number, number] = weighted ? WEIGHT_DOMAIN : domain;
  const shownMarks = marks.filter((mark) => mark.threshold >= domain[0]);
  const plotWidth = Math.max(1, boxWidth - PLOT_LEFT - PLOT_RIGHT);
  const markPlaces = placeMarkLabels(
    shownMarks.map((mark) => ({
      at: ((x(mark.threshold) - axis[0]) / (axis[1] - axis[0])) * plotWidth,
      label: mark.label,
    })),
    plotWidth,
  );
  const [threshold, setThreshold] = useState(() => metricsAt(distribution, initial).threshold);
  const dragging = useRef(false);
  const metrics = useMemo(() => metricsAt(distribution, threshold), [distribution, threshold]);
  const step = 1 / distribution.bins;
  const choose = (value: number): void => {
    setThreshold(metricsAt(distribution, Math.min(1, Math.max(0, value))).threshold);
  };
  const zoom = (next: RangeName): void => {
    setRangeName(next);
    // A threshold outside the new range is brought to its nearest end.
    const [from, to] = RANGES[next];
    if (threshold < from || threshold > to) choose(Math.min(to, Math.max(from, threshold)));
  };
  // The pointer's place on the plot, read from the event itself (not the chart's hover state, which a click made
  // without a prior move does not have yet): its share of the plot's width on the axis shown.
  const fromPointer = (event: PointerEvent<HTMLDivElement>): void => {
    const box = event.currentTarget.getBoundingClientRect();
    const share = (event.clientX - box.left - PLOT_LEFT) / Math.max(1, box.width - PLOT_LEFT - PLOT_RIGHT);
    if (share < 0 || share > 1) return;
    if (weighted) choose(probabilityOfWeight(WEIGHT_DOMAIN[0] + share * (WEIGHT_DOMAIN[1] - WEIGHT_DOMAIN[0])));
    else choose(domain[0] + share * (domain[1] - domain[0]));
  };
  const onSliderKey = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'PageUp' || event.key === 'PageDown') {
      event.preventDefault();
      choose(threshold + (event.key === 'PageUp' ? 0.01 : -0.01));
    }
  };

  return (
    <Stack gap="md" data-testid="threshold-explorer">
      <Group justify="space-between">
        <Text size="sm" c="dimmed" maw={760}>
          Drag or click on the chart, use the slider (arrow keys 0.001, Page Up/Down 0.01) or type a threshold. Shaded
          bands are 95% Wilson intervals; a pair is predicted a match when its score is at least the threshold.
        </Text>
        <ExportButtons
          caption="Curve"
          name={`${name}-threshold-curve`}
          label="the threshold curve"
          rows={() => thresholdCurve(distribution, CURVE_STRIDE).map(metricsRow)}
        />
      </Group>
      <Group gap="sm">
        <Text size="sm" fw={500} id={`${name}-range-label`}>
          Score range shown
        </Text>
        <SegmentedControl
          size="xs"
          value={rangeName}
          onChange={(value) => {
            zoom(value);
          }}
          aria-labelledby={`${name}-range-label`}
          data={[
            { value: 'whole', label: '0–1' },
            { value: 'high', label: '0.9–1' },
            { value: 'top', label: '0.99–1' },
            { value: 'weight', label: 'Match weight' },
          ]}
          data-testid="explorer-range"
        />
      </Group>
      <figure
        style={{ margin: 0 }}
        aria-label={`Precision, recall and F1 against the ${weighted ? 'match weight of the score threshold' : 'score threshold'}, with 95% bands; chosen threshold ${threshold.toFixed(3)}. The numbers are in the tables below and in the CSV.`}
      >
        <div
          ref={plotBox}
          style={{ width: '100%', height: 300, cursor: 'ew-resize', touchAction: 'none' }}
          onPointerDown={(event) => {
            dragging.current = true;
            event.currentTarget.setPointerCapture(event.pointerId);
            fromPointer(event);
          }}
          onPointerMove={(event) => {
            if (dragging.current) fromPointer(event);
          }}
          onPointerUp={() => {
            dragging.current = false;
          }}
          onPointerCancel={() => {
            dragging.current = false;
          }}
        >
          {/* A new chart when the axis changes: recharts keeps the old axis's pointer geometry otherwise. */}
          <ResponsiveContainer key={weighted ? 'weight' : 'score'}>
            <ComposedChart data={points} margin={{ top: 24, right: PLOT_RIGHT, bottom: 20, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="var(--mantine-color-gray-3)" />
              {weighted ? (
                <XAxis
                  dataKey="weight"
                  type="number"
                  domain={[WEIGHT_DOMAIN[0], WEIGHT_DOMAIN[1]]}
                  ticks={WEIGHT_TICKS}
                  tickFormatter={weightTick}
                  allowDataOverflow
                  fontSize={11}
                  label={{ value: 'Match weight, log2 odds (score threshold)', position: 'insideBottom', offset: -10 }}
                />
              ) : (
                <XAxis
                  dataKey="threshold"
                  type="number"
                  domain={[domain[0], domain[1]]}
                  ticks={ticksOf(domain)}
                  allowDataOverflow
                  label={{
                    value: rangeName === 'whole' ? 'Score threshold' : `Score threshold (${String(domain[0])}–1)`,
                    position: 'insideBottom',
                    offset: -10,
                  }}
                />
              )}
              <YAxis domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} width={PLOT_LEFT} />
              <Area
                dataKey="precisionBand"
                stroke="none"
                fill="var(--mantine-color-indigo-3)"
                fillOpacity={0.35}
                isAnimationActive={false}
                name="Precision 95%"
                legendType="none"
              />
              <Area
                dataKey="recallBand"
                stroke="none"
                fill="var(--mantine-color-orange-3)"
                fillOpacity={0.35}
                isAnimationActive={false}
                name="Recall 95%"
                legendType="none"
              />
              <Line
                dataKey="precision"
                name="Precision"
                stroke="var(--mantine-color-indigo-7)"
                strokeWidth={2}
                dot={false}
                isAnimationActive={false}
              />
              <Line
                dataKey="recall"
                name="Recall"
                stroke="var(--mantine-color-orange-8)"
                strokeWidth={2}
                strokeDasharray="8 4"
                dot={false}
                isAnimationActive={false}
              />
              <Line
                dataKey="f1"
                name="F1"
                stroke="var(--mantine-color-teal-8)"
                strokeWidth={2}
                strokeDasharray="2 3"
                dot={false}
                isAnimationActive={false}
              />
              {shownMarks.map((mark, index) => {
                const place = markPlaces[index] ?? { side: 'right', row: 0 };
                return (
                  <ReferenceLine
                    key={mark.label}
                    x={x(mark.threshold)}
                    stroke="var(--mantine-color-gray-7)"
                    strokeDasharray="4 4"
                    label={{
                      value: mark.label,
                      className: 'threshold-mark-name',
                      position: place.side === 'right' ? 'insideTopLeft' : 'insideTopRight',
                      fontSize: 11,
                      dy: place.row * MARK_ROW,
                      fill: 'var(--mantine-color-gray-8)',
                      // A halo of the page's colour keeps the name readable over the curves and bands.
                      stroke: 'var(--mantine-color-body)',
                      strokeWidth: 3,
                      paintOrder: 'stroke',
                    }}
                  />
                );
              })}
              <ReferenceLine
                x={x(threshold)}
                stroke="var(--mantine-color-dark-6)"
                strokeWidth={2}
                label={{
                  value: weighted
                    ? `t = ${threshold.toFixed(3)} (weight ${Number.isFinite(matchWeight(threshold)) ? matchWeight(threshold).toFixed(1) : '∞'})`
                    : `t = ${threshold.toFixed(3)}`,
                  position: 'top',
                  fontSize: 12,
                }}
              />
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      </figure>
      <Group gap="lg" aria-label="Chart key">
        <LegendKey colour="var(--mantine-color-indigo-7)" dash="none" text="Precision (solid line, blue band)" />
        <LegendKey colour="var(--mantine-color-orange-8)" dash="8 4" text="Recall (dashed line, orange band)" />
        <LegendKey colour="var(--mantine-color-teal-8)" dash="2 3" text="F1 (dotted line)" />
      </Group>
      <Group align="flex-end" gap="lg">
        <Stack gap={4} style={{ flex: 1, minWidth: 260 }}>
          <Text size="sm" fw={500} id={`${name}-slider-label`}>
            Threshold
          </Text>
          <Slider
            value={threshold}
            onChange={choose}
            min={domain[0]}
            max={domain[1]}
            step={step}
            precision={3}
            label={(value) => value.toFixed(3)}
            thumbLabel="Threshold"
            onKeyDown={onSliderKey}
            data-testid="threshold-slider"
            marks={[domain[0], (domain[0] + domain[1]) / 2, domain[1]].map((value) => ({
              value,
              label: String(Number(value.toFixed(3))),
            }))}
            mb="md"
          />
        </Stack>
        <NumberInput
          label="Threshold value"
          value={threshold}
          onChange={(value) => {
            if (typeof value !== 'number') return;
            // A value typed outside the range shown widens the view to the whole range.
            if (value < domain[0]) setRangeName('whole');
            choose(value);
          }}
          min={0}
          max={1}
          step={step}
          decimalScale={3}
          w={140}
          data-testid="threshold-input"
        />
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <ConfusionMatrix metrics={metrics} />
        <SimpleGrid cols={3} spacing="xs">
          <MetricTile
            label="Precision"
            value={metrics.precision}
            interval={range(metrics.precisionInterval)}
            testId="explorer-precision"
          />
          <MetricTile
            label="Recall"
            value={metrics.recall}
            interval={range(metrics.recallInterval)}
            testId="explorer-recall"
          />
          <MetricTile label="F1" value={metrics.f1} testId="explorer-f1" />
          <MetricTile label="Specificity" value={metrics.specificity} testId="explorer-specificity" />
          <MetricTile label="NPV" value={metrics.npv} testId="explorer-npv" />
          <MetricTile label="MCC" value={metrics.mcc} testId="explorer-mcc" />
        </SimpleGrid>
      </SimpleGrid>
    </Stack>
  );
}
