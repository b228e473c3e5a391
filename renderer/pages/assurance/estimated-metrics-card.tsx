/**
 * The estimate's model-estimated precision and recall per threshold: curves with the suggested Certain and Probable
 * as reference lines and a table with export, labelled as the model's own expectation and why it is not a
 * measurement. A fit that failed its checks has no figures (the engine sends none): the card then says so and what
 * to measure instead.
 */
import { Card, Group, Table, Text, Title } from '@mantine/core';
import { CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import type { EstimateReport } from '../../../engine/contract/estimate.ts';
import { formatCount, formatTenths } from '../../format.ts';
import { IconAlert } from '../../icons.tsx';
import { Note } from '../../layout/note.tsx';
import { estimatedRows, type EstimatedRow } from './estimate-figures.ts';
import { ExportButtons } from './export-buttons.tsx';

const share = (value: number | null): string => (value === null ? '—' : value.toFixed(4));

function EstimatedCurves({
  rows,
  certain,
  probable,
}: {
  readonly rows: readonly EstimatedRow[];
  readonly certain: number;
  readonly probable: number;
}) {
  return (
    <figure
      style={{ margin: 0 }}
      aria-label="Model-estimated precision and recall against threshold, with the suggested Certain and Probable as dashed reference lines; the table below lists every point."
    >
      <div style={{ width: '100%', height: 300 }}>
        <ResponsiveContainer>
          <ComposedChart
            data={rows.map((r) => ({ threshold: r.threshold, precision: r.precision, recall: r.recall }))}
            margin={{ top: 24, right: 24, bottom: 24, left: 0 }}
          >
            <CartesianGrid strokeDasharray="3 3" stroke="var(--mantine-color-gray-3)" />
            <XAxis
              type="number"
              dataKey="threshold"
              domain={['dataMin', 'dataMax']}
              tickFormatter={(v: number) => v.toFixed(2)}
              label={{ value: 'Threshold', position: 'insideBottom', offset: -12 }}
            />
            <YAxis type="number" domain={['auto', 1]} tickFormatter={(v: number) => v.toFixed(3)} width={56} />
            <Legend height={24} wrapperStyle={{ top: 0 }} />
            <Line
              type="linear"
              dataKey="precision"
              name="Precision (estimated)"
              stroke="var(--mantine-color-indigo-7)"
              strokeWidth={2}
              dot={{ r: 3 }}
              connectNulls
              isAnimationActive={false}
            />
            <Line
              type="linear"
              dataKey="recall"
              name="Recall (estimated)"
              stroke="var(--mantine-color-orange-7)"
              strokeWidth={2}
              strokeDasharray="6 3"
              dot={{ r: 3, strokeDasharray: '' }}
              connectNulls
              isAnimationActive={false}
            />
            {/* One line when the suggestion closes the review band, so the two labels never overlap. */}
            {probable === certain ? null : (
              <ReferenceLine
                x={probable}
                stroke="var(--mantine-color-gray-7)"
                strokeDasharray="4 4"
                // To the line's right: Probable is often the axis's first threshold, where a label on its left is cut.
                label={{ value: `Probable ${String(probable)}`, position: 'insideBottomLeft', fontSize: 11 }}
              />
            )}
            <ReferenceLine
              x={certain}
              stroke="var(--mantine-color-dark-6)"
              strokeDasharray="4 4"
              label={{
                value: probable === certain ? `Certain = Probable ${String(certain)}` : `Certain ${String(certain)}`,
                position: 'insideTopRight',
                fontSize: 11,
              }}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

export function EstimatedMetricsCard({ report, name }: { readonly report: EstimateReport; readonly name: string }) {
  const suggested = report.suggestedThresholds;
  if (report.fit?.status === 'fallback')
    return (
      <Card withBorder padding="lg" component="section" aria-labelledby="est-thresholds-title">
        <Title order={2} size="h4" id="est-thresholds-title" mb="xs">
          Precision and recall per threshold, estimated by the model
        </Title>
        <Note
          color="orange"
          variant="light"
          icon={<IconAlert />}
          title="None estimated: the fit failed its checks"
          data-testid="est-no-figures"
        >
          <Text size="sm">
            A fit its checks refused says nothing about how well any model links, so no precision, recall or review band
            is shown. Measure the fallback model with labels (Sample labels, then Evaluation) before relying on it.
          </Text>
        </Note>
      </Card>
    );
  const rows = estimatedRows(report);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="est-thresholds-title">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="est-thresholds-title">
          Precision and recall per threshold, estimated by the model
        </Title>
        <ExportButtons
          name={`${name}-estimated-metrics`}
          label="the model-estimated metrics"
          rows={() => rows.map((r) => ({ ...r }))}
        />
      </Group>
      <Note
        color="orange"
        variant="light"
        icon={<IconAlert />}
        title="Estimated by the model, not measured against labels"
        data-testid="est-not-measured"
        mb="sm"
      >
        <Text size="sm">
          These figures are the fitted mixture's own expectation over the blocking candidates: it can be confidently
          wrong where fields are not independent, and a true pair that blocking never proposes is not seen at all, so
          recall here ignores blocking misses. Measure with labels (Evaluation) before relying on them.
        </Text>
      </Note>
      <EstimatedCurves rows={rows} certain={suggested.Certain} probable={suggested.Probable} />
      {/* Every column shows in the console's narrowest window (960 px): the suggestion under its threshold. */}
      <Table.ScrollContainer minWidth={560}>
        <Table
          striped
          horizontalSpacing={8}
          aria-label="Model-estimated precision and recall per threshold"
          data-testid="estimate-table"
          style={{ fontVariantNumeric: 'tabular-nums' }}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Threshold</Table.Th>
              <Table.Th>Pairs at or above</Table.Th>
              <Table.Th>Expected TP</Table.Th>
              <Table.Th>Expected FP</Table.Th>
              <Table.Th>Expected FN</Table.Th>
              <Table.Th>Precision</Table.Th>
              <Table.Th>Recall</Table.Th>
              <Table.Th>F1</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.threshold} fw={r.suggested === null ? undefined : 700}>
                <Table.Td>
                  {String(r.threshold)}
                  {r.suggested === null ? null : (
                    <Text size="xs" c="blue.8" fw={700}>
                      suggested {r.suggested}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{formatCount(r.pairsAtOrAbove)}</Table.Td>
                <Table.Td>{formatTenths(r.expectedTruePositives)}</Table.Td>
                <Table.Td>{formatTenths(r.expectedFalsePositives)}</Table.Td>
                <Table.Td>{formatTenths(r.expectedFalseNegatives)}</Table.Td>
                <Table.Td>{share(r.precision)}</Table.Td>
                <Table.Td>{share(r.recall)}</Table.Td>
                <Table.Td>{share(r.f1)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
