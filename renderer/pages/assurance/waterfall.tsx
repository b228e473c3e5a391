/**
 * A pair's score taken apart field by field: each field's contribution (log-likelihood ln(m/u) for
 * Fellegi-Sunter, weight × similarity over the denominator otherwise) as a waterfall, with comparator,
 * similarity and band in a table beside it. The steps come from the contract's scoreWaterfall (the scorer's
 * own terms), so they end on the score the engine gave. Recharts range bars: @mantine/charts has no waterfall.
 */
import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Rectangle,
  ReferenceLine,
  ResponsiveContainer,
  XAxis,
  YAxis,
  type BarShapeProps,
} from 'recharts';
import type { FieldEvidence } from '../../../engine/contract/matching.ts';
import {
  householdOnlyReason,
  scoreWaterfall,
  type ScoreBasis,
  type ScoredEvidence,
  type Waterfall,
  type WaterfallStep,
} from '../../../engine/contract/score-explanation.ts';
import { fieldTitle } from '../../../engine/contract/field-title.ts';
import { IconAlert } from '../../icons.tsx';
import { ExportButtons } from './export-buttons.tsx';
import { FieldBandCell } from './evidence-marks.tsx';
import { signed } from './metric-text.ts';

function similarity(evidence: FieldEvidence | undefined): string {
  return evidence?.similarity == null ? 'missing' : evidence.similarity.toFixed(3);
}

/**
 * A step as the console names it: a field by its title ("Family name"), as the comparison viewer above it does; the
 * prior and a limit by their labels. The exports keep the field's key, as the API's do.
 */
function stepName(step: WaterfallStep): string {
  return step.kind === 'field' && step.evidence !== undefined ? fieldTitle(step.evidence.field) : step.label;
}

/** Why an agreeing field adds nothing: one household's evidence, counted once or not at all. */
function noEffect(evidence: FieldEvidence | undefined, all: readonly FieldEvidence[]): string {
  if (evidence?.householdOnly === true) return `0 (household evidence: ${householdOnlyReason(all)})`;
  if (evidence?.impliedBy !== undefined) return '0 (implied by the agreeing address line)';
  return '0 (no effect)';
}

export function WaterfallView({
  pair,
  basis,
  name,
}: {
  readonly pair: ScoredEvidence;
  readonly basis: ScoreBasis | undefined;
  readonly name: string;
}) {
  const waterfall: Waterfall | null = basis === undefined ? null : scoreWaterfall(pair, basis);
  if (waterfall === null) {
    return (
      <Note color="orange" variant="light" icon={<IconAlert />} title="No per-field explanation">
        <Text size="sm">
          This report does not carry the scorer's constant terms, so the contributions cannot be added up to the score.
        </Text>
      </Note>
    );
  }
  const digits = waterfall.scale === 'log-odds' ? 2 : 3;
  const data = waterfall.steps.map((step) => ({
    label: stepName(step),
    range: [Math.min(step.from, step.to), Math.max(step.from, step.to)] as [number, number],
    delta: step.delta,
    kind: step.kind,
  }));
  const rows = () =>
    waterfall.steps.map((step) => ({
      step: step.label,
      comparator: step.evidence?.comparator ?? null,
      similarity: step.evidence?.similarity ?? null,
      band: step.evidence?.band ?? null,
      contribution: step.delta,
      runningTotal: step.to,
    }));
  return (
    <Stack gap="sm" data-testid="waterfall">
      <Group justify="space-between">
        <Group gap="xs">
          <Badge variant="light" radius="sm">
            Score {pair.score.toFixed(6)}
          </Badge>
          <Badge variant="light" color="gray" radius="sm">
            Scale: {waterfall.scale === 'log-odds' ? 'log-odds' : 'score'}
          </Badge>
        </Group>
        <ExportButtons name={`${name}-waterfall`} label="the waterfall" rows={rows} />
      </Group>
      <figure
        style={{ margin: 0 }}
        aria-label={`Waterfall of the score: ${String(waterfall.steps.length)} steps ending on ${waterfall.scale === 'log-odds' ? `log-odds ${waterfall.steps.at(-1)?.to.toFixed(2) ?? ''}` : `score ${waterfall.score.toFixed(3)}`}; the table lists every step.`}
      >
        <div style={{ width: '100%', height: Math.max(200, 28 * data.length + 40) }}>
          <ResponsiveContainer>
            <BarChart data={data} layout="vertical" margin={{ top: 18, right: 24, bottom: 4, left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="var(--mantine-color-gray-3)" />
              <XAxis type="number" domain={['auto', 'auto']} />
              <YAxis type="category" dataKey="label" width={170} interval={0} tick={{ fontSize: 12 }} />
              <ReferenceLine x={0} stroke="var(--mantine-color-gray-6)" />
              {basis === undefined
                ? null
                : [
                    ['Probable', basis.thresholds.probable] as const,
                    ['Certain', basis.thresholds.certain] as const,
                  ].map(([label, t]) => (
                    <ReferenceLine
                      key={label}
                      x={waterfall.scale === 'log-odds' ? Math.log(t / (1 - t)) : t}
                      stroke="var(--mantine-color-gray-7)"
                      strokeDasharray="4 4"
                      label={{ value: label, position: 'top', fontSize: 11 }}
                    />
                  ))}
              <Bar
                dataKey="range"
                isAnimationActive={false}
                shape={(props: BarShapeProps) => {
                  const d = data[props.index];
                  const fill =
                    d === undefined || d.kind === 'start'
                      ? 'var(--mantine-color-gray-5)'
                      : d.delta >= 0
                        ? 'var(--mantine-color-teal-6)'
                        : 'var(--mantine-color-red-6)';
                  return <Rectangle x={props.x} y={props.y} width={props.width} height={props.height} fill={fill} />;
                }}
              />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </figure>
      <Table
        striped
        aria-label="Contribution of every field to the score"
        style={{ fontVariantNumeric: 'tabular-nums' }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Step</Table.Th>
            <Table.Th>Comparator</Table.Th>
            <Table.Th>Similarity</Table.Th>
            <Table.Th>Band</Table.Th>
            <Table.Th>Contribution</Table.Th>
            <Table.Th>Running total</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {waterfall.steps.map((step, index) => (
            <Table.Tr key={`${step.label}:${String(index)}`}>
              <Table.Td>{stepName(step)}</Table.Td>
              <Table.Td>{step.evidence?.comparator ?? '—'}</Table.Td>
              <Table.Td>{step.kind === 'field' ? similarity(step.evidence) : '—'}</Table.Td>
              <Table.Td>{step.evidence === undefined ? '—' : <FieldBandCell evidence={step.evidence} />}</Table.Td>
              <Table.Td>
                {step.delta === 0
                  ? step.kind === 'start'
                    ? '—'
                    : noEffect(step.evidence, pair.evidence)
                  : `${signed(step.delta, digits)} (${step.delta > 0 ? 'raises' : 'lowers'})`}
              </Table.Td>
              <Table.Td>{step.to.toFixed(digits)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" data-testid="waterfall-total">
        {waterfall.scale === 'log-odds'
          ? `Total log-odds ${(waterfall.steps.at(-1)?.to ?? 0).toFixed(4)} → probability ${waterfall.methodScore.toFixed(6)}`
          : `Sum ${waterfall.methodScore.toFixed(6)}`}
        ; the pair's score: {waterfall.score.toFixed(6)}.
      </Text>
      <Text size="sm" c="dimmed">
        {waterfall.note}
      </Text>
    </Stack>
  );
}
