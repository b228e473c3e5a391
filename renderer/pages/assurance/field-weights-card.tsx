/**
 * A Fellegi-Sunter model's per-field m, u and ln(m/u) weights by band, as a chart and a table with CSV/JSON
 * export, and the conditional-independence caveat: shared by calibration and the unsupervised estimate.
 */
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Card, Group, ScrollArea, Table, Text, Title } from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import type { ReactNode } from 'react';
import type { FellegiSunterModel } from '../../../engine/contract/profile.ts';
import { IconInfo } from '../../icons.tsx';
import { ExportButtons } from './export-buttons.tsx';
import { BANDS, fieldWeights } from './model-weights.ts';
import { fieldTitle } from '../../../engine/contract/field-title.ts';
import { legendInSeriesOrder } from '../../layout/legend-order.ts';
import { useCategoryAxis } from '../../layout/category-axis.ts';

const BAND_SERIES = [
  { name: 'Exact', color: 'teal.7' },
  { name: 'Strong', color: 'teal.4' },
  { name: 'Partial', color: 'orange.5' },
  { name: 'Different', color: 'red.7' },
];
export function FieldWeightsCard({
  model,
  name,
  idPrefix,
  caveat,
  children,
}: {
  readonly model: FellegiSunterModel;
  readonly name: string;
  readonly idPrefix: string;
  readonly caveat: string;
  readonly children?: ReactNode;
}) {
  const weights = fieldWeights(model);
  const fieldAxis = useCategoryAxis(Object.keys(model.fields).length);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={`${idPrefix}-weights-title`}>
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id={`${idPrefix}-weights-title`}>
          Field weights: m, u and ln(m/u) by band
        </Title>
        <ExportButtons
          name={`${name}-field-weights`}
          label="the field weights"
          rows={() => weights.map((w) => ({ ...w }))}
        />
      </Group>
      {children}
      <Text size="sm" c="dimmed" mb="sm">
        m: share of true matches in the band; u: share of non-matches. Positive weights are evidence for a match,
        negative against.
      </Text>
      <figure
        ref={fieldAxis.ref}
        style={{ margin: 0 }}
        aria-label="ln(m/u) weight per field and band; the numbers are in the table below."
      >
        <BarChart
          h={280}
          xAxisProps={fieldAxis.xAxisProps}
          data={Object.keys(model.fields).map((field) => {
            const row: Record<string, string | number> = { field: fieldTitle(field) };
            for (const band of BANDS)
              row[band] = weights.find((w) => w.field === field && w.band === band)?.weight ?? 0;
            return row;
          })}
          dataKey="field"
          series={BAND_SERIES}
          withLegend
          legendProps={legendInSeriesOrder(BAND_SERIES)}
          tooltipAnimationDuration={0}
          barProps={{ isAnimationActive: false }}
        />
      </figure>
      <ScrollArea.Autosize mah={320} viewportProps={{ tabIndex: 0, 'aria-label': 'Field weights table, scrollable' }}>
        <Table
          striped
          aria-label="m, u and weight per field and band"
          data-testid="weights-table"
          style={{ fontVariantNumeric: 'tabular-nums' }}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Band</Table.Th>
              <Table.Th>m</Table.Th>
              <Table.Th>u</Table.Th>
              <Table.Th>ln(m/u)</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {weights.map((w) => (
              <Table.Tr key={`${w.field}:${w.band}`}>
                <Table.Td>{fieldTitle(w.field)}</Table.Td>
                <Table.Td>{w.band}</Table.Td>
                <Table.Td>{w.m.toFixed(4)}</Table.Td>
                <Table.Td>{w.u.toFixed(4)}</Table.Td>
                <Table.Td>{w.weight.toFixed(3)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      <Note mt="sm" color="orange" variant="light" icon={<IconInfo />} title="Fields are assumed independent">
        <Text size="sm">
          {caveat} In plain words: when two fields tend to agree together (a postcode and a city), the model counts the
          same evidence twice and can be over-confident.
        </Text>
      </Note>
    </Card>
  );
}
