/** Metrics per threshold: counts, the six metrics, 95% intervals as ranges, a null as "—" with its reason. */
import { Table, Tooltip, Text } from '@mantine/core';
import type { ThresholdMetrics } from '../../../engine/contract/assurance.ts';
import { formatCount } from '../../format.ts';
import { fixed3, METRIC_LABEL, NULL_REASON, range, type MetricName } from './metric-text.ts';

function Metric({ metrics, name }: { readonly metrics: ThresholdMetrics; readonly name: MetricName }) {
  const value = metrics[name];
  if (value !== null) return <>{fixed3(value)}</>;
  return (
    <Tooltip label={`No value: ${NULL_REASON[name]}`} withArrow>
      <Text
        span
        size="sm"
        tabIndex={0}
        aria-label={`${METRIC_LABEL[name]}: no value, ${NULL_REASON[name]}`}
        style={{ textDecoration: 'underline dotted' }}
      >
        —
      </Text>
    </Tooltip>
  );
}

function IntervalHeading() {
  return (
    <Text span display="block" size="xs" fw={400} c="dimmed">
      95% interval
    </Text>
  );
}

function Interval({ text }: { readonly text: string }) {
  return (
    <Text size="xs" c="dimmed" data-part="interval" style={{ whiteSpace: 'nowrap' }}>
      {text}
    </Text>
  );
}

export function MetricsTable({
  rows,
  label,
  highlight,
  testId = 'metrics-table',
}: {
  readonly rows: readonly ThresholdMetrics[];
  readonly label: string;
  readonly highlight?: readonly number[];
  readonly testId?: string;
}) {
  const nulls = new Set<MetricName>();
  for (const row of rows)
    for (const name of Object.keys(METRIC_LABEL) as MetricName[]) if (row[name] === null) nulls.add(name);
  return (
    <>
      {/* Every column shows in the console's narrowest window (960 px): each 95% interval under its metric. */}
      <Table.ScrollContainer minWidth={600}>
        <Table
          striped
          horizontalSpacing={4}
          aria-label={label}
          data-testid={testId}
          style={{ fontVariantNumeric: 'tabular-nums' }}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Threshold</Table.Th>
              <Table.Th>TP</Table.Th>
              <Table.Th>FP</Table.Th>
              <Table.Th>TN</Table.Th>
              <Table.Th>FN</Table.Th>
              <Table.Th>
                Precision <IntervalHeading />
              </Table.Th>
              <Table.Th>
                Recall <IntervalHeading />
              </Table.Th>
              <Table.Th>Specificity</Table.Th>
              <Table.Th>NPV</Table.Th>
              <Table.Th>F1</Table.Th>
              <Table.Th>MCC</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((m) => (
              <Table.Tr
                key={m.threshold}
                data-threshold={m.threshold}
                fw={highlight?.includes(m.threshold) === true ? 700 : undefined}
              >
                <Table.Td>{m.threshold}</Table.Td>
                <Table.Td>{formatCount(m.tp)}</Table.Td>
                <Table.Td>{formatCount(m.fp)}</Table.Td>
                <Table.Td>{formatCount(m.tn)}</Table.Td>
                <Table.Td>{formatCount(m.fn)}</Table.Td>
                <Table.Td>
                  <Metric metrics={m} name="precision" />
                  <Interval text={range(m.precisionInterval)} />
                </Table.Td>
                <Table.Td>
                  <Metric metrics={m} name="recall" />
                  <Interval text={range(m.recallInterval)} />
                </Table.Td>
                <Table.Td>
                  <Metric metrics={m} name="specificity" />
                </Table.Td>
                <Table.Td>
                  <Metric metrics={m} name="npv" />
                </Table.Td>
                <Table.Td>
                  <Metric metrics={m} name="f1" />
                </Table.Td>
                <Table.Td>
                  <Metric metrics={m} name="mcc" />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {nulls.size > 0 ? (
        <Text size="xs" c="dimmed" mt={4}>
          — means no value, never zero:{' '}
          {[...nulls].map((name) => `${METRIC_LABEL[name]}: ${NULL_REASON[name]}`).join('; ')}.
        </Text>
      ) : null}
    </>
  );
}
