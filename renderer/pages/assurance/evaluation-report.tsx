/**
 * An evaluation report: dataset digest and class counts, blocking recall and what it means for the figures,
 * the metrics per threshold, the threshold explorer, the score distribution by class, field diagnostics, and
 * the error examples (references only), each openable as its per-field explanation.
 */
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Card, Code, Group, Modal, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import { useMemo, useState } from 'react';
import type { EvaluationReport } from '../../../engine/contract/assurance.ts';
import { formatCount } from '../../format.ts';
import { IconInfo } from '../../icons.tsx';
import { ExportButtons } from './export-buttons.tsx';
import { ErrorExamplesCard, exampleRef, type ErrorExample } from './error-examples.tsx';
import { fixed3, metricsRow } from './metric-text.ts';
import { MetricsTable } from './metrics-table.tsx';
import { histogram } from './score-curves.ts';
import { ThresholdExplorer } from './threshold-explorer.tsx';
import { WaterfallView } from './waterfall.tsx';
import { PairRecords } from './pair-records.tsx';
import { sentenceStart } from '../../../engine/contract/sentence-start.ts';
import { fieldTitle } from '../../../engine/contract/field-title.ts';
import { legendInSeriesOrder } from '../../layout/legend-order.ts';
import { useCategoryAxis } from '../../layout/category-axis.ts';

const HISTOGRAM_SERIES = [
  { name: 'nonMatches', label: 'Non-matches', color: 'indigo.5' },
  { name: 'matches', label: 'Matches', color: 'orange.6' },
];

function Figure({
  label,
  value,
  testId,
  hint,
}: {
  readonly label: string;
  readonly value: string;
  readonly testId?: string;
  readonly hint?: string;
}) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} size="lg" data-testid={testId}>
        {value}
      </Text>
      {hint !== undefined ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Stack>
  );
}

export function EvaluationReportView({
  connectionKey,
  report,
  name,
}: {
  readonly connectionKey: string;
  readonly report: EvaluationReport;
  readonly name: string;
}) {
  const [open, setOpen] = useState<ErrorExample | null>(null);
  const fieldAxis = useCategoryAxis(report.fieldSimilarity.length);
  const bars = useMemo(
    () => (report.scoreDistribution === undefined ? null : histogram(report.scoreDistribution)),
    [report.scoreDistribution],
  );
  const r = report.blockingRecall;
  const e2e = report.endToEnd;
  const initial = report.thresholds[0]?.threshold ?? 0.5;
  return (
    <Stack gap="lg" data-testid="evaluation-report">
      <Card withBorder padding="lg" component="section" aria-labelledby="eval-summary-title">
        <Title order={2} size="h4" id="eval-summary-title" mb="sm">
          Evaluation of {report.datasetId}
        </Title>
        <SimpleGrid cols={{ base: 2, md: 5 }} spacing="md">
          <Figure
            label="Pairs"
            value={formatCount(report.labels.pairs)}
            testId="eval-pairs"
            hint={`${formatCount(report.labels.distinctRecords)} distinct records`}
          />
          <Figure label="Matches" value={formatCount(report.labels.matches)} testId="eval-matches" />
          <Figure label="Non-matches" value={formatCount(report.labels.nonMatches)} testId="eval-non-matches" />
          <Figure
            label="Blocking recall"
            value={fixed3(r.recall)}
            testId="eval-blocking-recall"
            hint={`${formatCount(r.found)} of ${formatCount(r.truePairs)} true pairs are candidates`}
          />
          <Figure
            label="Profile"
            value={`v${String(report.versions.matchingProfileVersion)}`}
            hint={`${report.versions.scoreMethod} ${report.versions.scoreMethodVersion} · comparators ${report.versions.comparatorVersion}`}
          />
        </SimpleGrid>
        <Text size="sm" mt="sm">
          Dataset digest (SHA-256): <Code data-testid="eval-digest">{report.datasetDigest}</Code>
        </Text>
        <Text size="sm" c="dimmed">
          Decided by trusted identifier {formatCount(report.decidedBy.trustedIdentifier)}, by hard conflict{' '}
          {formatCount(report.decidedBy.hardConflict)}, by score {formatCount(report.decidedBy.score)}.{' '}
          {report.scoreNote}
        </Text>
        <Note
          mt="sm"
          color="blue"
          variant="light"
          icon={<IconInfo />}
          title="What blocking recall means for these figures"
        >
          <Text size="sm">
            {formatCount(r.missed)} of {formatCount(r.truePairs)} labelled true pairs share no usable blocking key, so
            in production they would never be compared: the scorer would miss them whatever the threshold. The
            scored-pairs table below is the scorer's result on every labelled pair; the end-to-end table after it counts
            those missed pairs as false negatives. {sentenceStart(r.rule)}
          </Text>
        </Note>
      </Card>

      <Card withBorder padding="lg" component="section" aria-labelledby="eval-metrics-title">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h4" id="eval-metrics-title">
            Metrics per threshold
          </Title>
          <ExportButtons
            name={`${name}-metrics`}
            label="the metrics table"
            rows={() => report.thresholds.map(metricsRow)}
          />
        </Group>
        <Text size="sm" c="dimmed" mb="xs">
          Scored pairs: the scorer alone, on every labelled pair, whether or not blocking would bring it to the scorer.
        </Text>
        <MetricsTable rows={report.thresholds} label="Metrics per requested threshold" />
        {e2e !== undefined ? (
          <Stack
            gap="xs"
            mt="lg"
            component="section"
            aria-labelledby="eval-end-to-end-title"
            data-testid="eval-end-to-end"
          >
            <Group justify="space-between">
              <Title order={3} size="h5" id="eval-end-to-end-title">
                End to end (blocking misses count as false negatives)
              </Title>
              <ExportButtons
                name={`${name}-end-to-end-metrics`}
                label="the end-to-end metrics table"
                rows={() => e2e.thresholds.map(metricsRow)}
              />
            </Group>
            <Text size="sm" data-testid="eval-end-to-end-explanation">
              What the registry would achieve on these labels: a pair counts as linked only if blocking brings its two
              records together and its score reaches the threshold.{' '}
              {e2e.notCandidates.matches + e2e.notCandidates.nonMatches === 0
                ? 'Every labelled pair shares a usable blocking key, so here the two tables agree: blocking loses nothing on these labels.'
                : `${formatCount(e2e.notCandidates.matches)} labelled true ${e2e.notCandidates.matches === 1 ? 'pair is' : 'pairs are'} never compared, so ${e2e.notCandidates.matches === 1 ? 'it counts' : 'they count'} as missed (false negatives) at every threshold; ${formatCount(e2e.notCandidates.nonMatches)} labelled ${e2e.notCandidates.nonMatches === 1 ? 'non-match is' : 'non-matches are'} never compared, so ${e2e.notCandidates.nonMatches === 1 ? 'it counts' : 'they count'} as correctly kept apart (true negatives).`}
            </Text>
            <MetricsTable
              rows={e2e.thresholds}
              label="End-to-end metrics per requested threshold (blocking misses count as false negatives)"
              testId="metrics-table-end-to-end"
            />
            <Text size="xs" c="dimmed">
              {e2e.explanation}
            </Text>
          </Stack>
        ) : null}
      </Card>

      {report.scoreDistribution !== undefined ? (
        <Card withBorder padding="lg" component="section" aria-labelledby="eval-explorer-title">
          <Title order={2} size="h4" id="eval-explorer-title" mb="xs">
            Threshold explorer
          </Title>
          <ThresholdExplorer
            distribution={report.scoreDistribution}
            initial={initial}
            name={name}
            marks={
              report.scoreBasis === undefined
                ? []
                : [
                    { threshold: report.scoreBasis.thresholds.probable, label: 'Probable' },
                    { threshold: report.scoreBasis.thresholds.certain, label: 'Certain' },
                  ]
            }
          />
        </Card>
      ) : null}

      {bars !== null ? (
        <Card withBorder padding="lg" component="section" aria-labelledby="eval-distribution-title">
          <Group justify="space-between" mb="xs">
            <Title order={2} size="h4" id="eval-distribution-title">
              Score distribution by class
            </Title>
            <ExportButtons
              name={`${name}-score-histogram`}
              label="the score histogram"
              rows={() => bars.map((b) => ({ ...b }))}
            />
          </Group>
          <Text size="sm" c="dimmed" mb="sm">
            Labelled pairs per score band of 0.02, on a square-root scale so a few pairs stay visible beside many. Good
            separation: matches on the right, non-matches on the left, little overlap near the thresholds.
          </Text>
          <figure style={{ margin: 0 }} aria-label="Histogram of scores by labelled class; the numbers are in the CSV.">
            <BarChart
              h={220}
              data={bars.map((b) => ({ ...b, band: b.from.toFixed(2) }))}
              dataKey="band"
              series={HISTOGRAM_SERIES}
              withLegend
              legendProps={legendInSeriesOrder(HISTOGRAM_SERIES)}
              tooltipAnimationDuration={0}
              barProps={{ isAnimationActive: false }}
              xAxisLabel="Score (band start)"
              yAxisLabel="Pairs (square-root scale)"
              yAxisProps={{ scale: 'sqrt', domain: [0, 'auto'] }}
            />
          </figure>
        </Card>
      ) : null}

      <Card withBorder padding="lg" component="section" aria-labelledby="eval-fields-title">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h4" id="eval-fields-title">
            Field diagnostics: mean similarity by class
          </Title>
          <ExportButtons
            name={`${name}-field-similarity`}
            label="the field diagnostics"
            rows={() => report.fieldSimilarity.map((f) => ({ ...f }))}
          />
        </Group>
        <Text size="sm" c="dimmed" mb="sm">
          Mean similarity where both records have the field. A field that discriminates well is high for matches and low
          for non-matches.
        </Text>
        <figure
          ref={fieldAxis.ref}
          style={{ margin: 0 }}
          aria-label="Mean similarity by field for matches and non-matches; the numbers are in the table below."
        >
          <BarChart
            h={260}
            xAxisProps={fieldAxis.xAxisProps}
            data={report.fieldSimilarity.map((f) => ({
              field: fieldTitle(f.field),
              matches: f.matchMean ?? 0,
              nonMatches: f.nonMatchMean ?? 0,
            }))}
            dataKey="field"
            series={[
              { name: 'matches', label: 'Matches', color: 'orange.6' },
              { name: 'nonMatches', label: 'Non-matches', color: 'indigo.5' },
            ]}
            withLegend
            yAxisProps={{ domain: [0, 1] }}
            tooltipAnimationDuration={0}
            barProps={{ isAnimationActive: false }}
          />
        </figure>
        <Table.ScrollContainer minWidth={560}>
          <Table
            striped
            aria-label="Mean similarity by field and class"
            data-testid="field-table"
            style={{ fontVariantNumeric: 'tabular-nums' }}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Field</Table.Th>
                <Table.Th>Matches: mean</Table.Th>
                <Table.Th>observed</Table.Th>
                <Table.Th>Non-matches: mean</Table.Th>
                <Table.Th>observed</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.fieldSimilarity.map((f) => (
                <Table.Tr key={f.field}>
                  <Table.Td>{fieldTitle(f.field)}</Table.Td>
                  <Table.Td>{f.matchMean === null ? '— (never both present)' : f.matchMean.toFixed(3)}</Table.Td>
                  <Table.Td>{formatCount(f.matchObserved)}</Table.Td>
                  <Table.Td>{f.nonMatchMean === null ? '— (never both present)' : f.nonMatchMean.toFixed(3)}</Table.Td>
                  <Table.Td>{formatCount(f.nonMatchObserved)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>

      <ErrorExamplesCard connectionKey={connectionKey} report={report} onOpen={setOpen} />

      <Modal
        opened={open !== null}
        onClose={() => {
          setOpen(null);
        }}
        // Wide enough for both records beside their bands and weights; narrower windows scroll the records sideways.
        size={1100}
        closeButtonProps={{ 'aria-label': 'Close the explanation' }}
        title={
          open === null
            ? ''
            : `Why ${exampleRef(open.left)} and ${exampleRef(open.right)} scored ${open.score.toFixed(4)}`
        }
      >
        {open !== null ? (
          <Stack gap="md">
            <PairRecords left={open.left} right={open.right} scoreThen={open.score} />
            <WaterfallView pair={open} basis={report.scoreBasis} name={name} />
          </Stack>
        ) : null}
      </Modal>
    </Stack>
  );
}
