/**
 * The registry audit's answer: precision, recall and F1 of the registry's links, each a point with its 95% interval
 * drawn on one axis (so how sure the figure is shows at a glance), the true matches estimated in each stratum, how
 * many labels would halve the widest interval, and the estimator named with its reference.
 */
import { Card, Stack, Table, Text, Title } from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import { AUDIT_STRATUM_TEXT, type AuditEstimateOutput } from '../../../engine/contract/audit.ts';
import { formatCount, formatDateTime } from '../../format.ts';
import { fixed3 } from './metric-text.ts';

type Bounded = AuditEstimateOutput['precision'];
const FIGURES = [
  ['precision', 'Precision', 'of the registry’s links, the share joining records of one person'],
  ['recall', 'Recall', 'of the true matches among blocking candidates, the share the registry links'],
  ['f1', 'F1', 'the balance of the two'],
] as const;

/** The axis: from a round tenth below the lowest bound to 1, so intervals near 1 are not crushed. */
export function axisFloor(figures: readonly Bounded[]): number {
  const lows = figures.map((b) => b.lower).filter((v): v is number => v !== null);
  const lowest = lows.length === 0 ? 0 : Math.min(...lows);
  return Math.max(0, Math.floor(lowest * 10 - 1e-9) / 10);
}

function IntervalChart({ estimate }: { readonly estimate: AuditEstimateOutput }) {
  const figures = FIGURES.map(([key]) => estimate[key]);
  const floor = axisFloor(figures);
  const width = 560;
  const left = 90;
  const plot = width - left - 20;
  const x = (v: number): number => left + ((v - floor) / (1 - floor)) * plot;
  const ticks = Array.from({ length: 6 }, (_, i) => floor + ((1 - floor) * i) / 5);
  return (
    <svg
      role="img"
      aria-label={`Precision, recall and F1 with their 95% intervals, on an axis from ${floor.toFixed(1)} to 1`}
      viewBox={`0 0 ${String(width)} 150`}
      width="100%"
      style={{ maxWidth: width }}
      data-testid="audit-chart"
    >
      {ticks.map((t) => (
        <g key={t}>
          <line x1={x(t)} x2={x(t)} y1={10} y2={118} stroke="var(--mantine-color-gray-3)" />
          <text x={x(t)} y={134} fontSize={11} textAnchor="middle" fill="var(--mantine-color-text)">
            {t.toFixed(2)}
          </text>
        </g>
      ))}
      {FIGURES.map(([key, name], i) => {
        const b = estimate[key];
        const y = 28 + i * 36;
        return (
          <g key={key}>
            <text x={left - 8} y={y + 4} fontSize={12} textAnchor="end" fill="var(--mantine-color-text)">
              {name}
            </text>
            {b.lower !== null && b.upper !== null ? (
              <line
                x1={x(b.lower)}
                x2={x(b.upper)}
                y1={y}
                y2={y}
                stroke="var(--mantine-color-blue-7)"
                strokeWidth={6}
                strokeLinecap="round"
                opacity={0.45}
              />
            ) : null}
            {b.estimate !== null ? <circle cx={x(b.estimate)} cy={y} r={5} fill="var(--mantine-color-blue-9)" /> : null}
          </g>
        );
      })}
    </svg>
  );
}

export function AuditReport({
  estimate,
  reopened,
}: {
  readonly estimate: AuditEstimateOutput;
  readonly reopened: string | null;
}) {
  const labelled = estimate.byStratum.reduce((sum, s) => sum + s.labelled, 0);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="audit-report-title" data-testid="audit-report">
      <Title order={2} size="h4" id="audit-report-title" mb={4}>
        The registry's accuracy, from {formatCount(labelled)} labelled pairs
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Profile v{estimate.versions.matchingProfileVersion} ({estimate.versions.scoreMethod}{' '}
        {estimate.versions.scoreMethodVersion}). Each figure with its {Math.round(estimate.confidence * 100)}% interval.
      </Text>
      {(estimate.labelsFromGroundTruth ?? 0) > 0 ? (
        <Text size="sm" mb="sm" data-testid="audit-report-truth">
          {estimate.labelsFromGroundTruth === labelled
            ? 'Every label came from the ground truth, not a person'
            : `${formatCount(estimate.labelsFromGroundTruth ?? 0)} of the ${formatCount(labelled)} labels came from the ground truth, not a person`}
          : these figures are the registry's accuracy against the truth a synthetic sandbox or a benchmark load knows.
        </Text>
      ) : null}
      {reopened !== null ? (
        <Note color="gray" variant="light" mb="sm" title="A saved audit, reopened">
          <Text size="sm">
            This is the audit estimated on {formatDateTime(reopened)}, with its labels. To label more, draw a sample
            again (a larger one narrows the intervals): the verdicts already given to its pairs are kept.
          </Text>
        </Note>
      ) : null}
      <Stack gap="sm">
        <Table
          aria-label="Precision, recall and F1 of the registry's links"
          style={{ fontVariantNumeric: 'tabular-nums' }}
          data-testid="audit-figures"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Figure</Table.Th>
              <Table.Th>Estimate</Table.Th>
              <Table.Th>95% interval</Table.Th>
              <Table.Th>Meaning</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {FIGURES.map(([key, name, meaning]) => {
              const b = estimate[key];
              return (
                <Table.Tr key={key}>
                  <Table.Th scope="row">{name}</Table.Th>
                  <Table.Td>{fixed3(b.estimate)}</Table.Td>
                  <Table.Td>
                    {b.lower === null || b.upper === null ? '—' : `${fixed3(b.lower)} – ${fixed3(b.upper)}`}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {meaning}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
        <IntervalChart estimate={estimate} />
        <Text size="sm" data-testid="audit-halve">
          About {formatCount(estimate.labelsToHalveInterval)} labels in all would halve the widest interval (intervals
          narrow with the square root of the labels).
        </Text>
        <Table striped aria-label="True matches by stratum" style={{ fontVariantNumeric: 'tabular-nums' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Stratum</Table.Th>
              <Table.Th>Pairs</Table.Th>
              <Table.Th>Labelled</Table.Th>
              <Table.Th>Same person</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {estimate.byStratum.map((s) => (
              <Table.Tr key={s.name}>
                <Table.Td>{AUDIT_STRATUM_TEXT[s.name]}</Table.Td>
                <Table.Td>{formatCount(s.population)}</Table.Td>
                <Table.Td>{formatCount(s.labelled)}</Table.Td>
                <Table.Td>{formatCount(s.matches)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="xs" c="dimmed">
          {estimate.method}
        </Text>
      </Stack>
    </Card>
  );
}
