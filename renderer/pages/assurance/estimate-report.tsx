/**
 * The unsupervised estimate's answer: EM's convergence in plain words, the model-estimated precision and recall
 * per threshold (curves with the suggested Certain and Probable as reference lines, and a table with export),
 * labelled as the model's own estimate and why it is not a measurement, the per-field weights, the model JSON
 * with its diff against the active model, and how the suggested thresholds are applied. No activation control.
 */
import { Alert, Badge, Box, Card, Code, Group, List, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import { CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import type { z } from 'zod';
import type { EstimateOutputSchema } from '../../../engine/contract/estimate.ts';
import { formatCount } from '../../format.ts';
import { IconAlert, IconInfo } from '../../icons.tsx';
import {
  convergenceText,
  estimatedRows,
  fitVerdict,
  reviewBandText,
  sampleCaption,
  sessionsText,
  type EstimatedRow,
} from './estimate-figures.ts';
import { ExportButtons } from './export-buttons.tsx';
import { FieldWeightsCard } from './field-weights-card.tsx';
import { ModelJsonCard } from './model-json-card.tsx';
import { PriorsNote } from './priors-note.tsx';

type EstimateOutput = z.infer<typeof EstimateOutputSchema>;

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
                label={{ value: `Probable ${String(probable)}`, position: 'insideBottomRight', fontSize: 11 }}
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

/** Whether the fit can be trusted: the verdict first, then each check in words. */
function FitChecks({ fit }: { readonly fit: EstimateOutput['report']['fit'] }) {
  const verdict = fitVerdict(fit);
  return (
    <Alert
      color={verdict.failed ? 'red' : 'teal'}
      // A failed fit interrupts (the analyst must not apply it); a fit that passed is read in its place.
      role={verdict.failed ? 'alert' : 'note'}
      variant="light"
      icon={verdict.failed ? <IconAlert /> : <IconInfo />}
      title={verdict.title}
      data-testid="est-fit"
    >
      <Text size="sm">{verdict.text}</Text>
      {fit === undefined ? null : (
        <List size="sm" mt="xs" spacing={2} aria-label="Fit checks">
          {fit.checks.map((c) => (
            <List.Item key={c.check}>
              <Text span fw={600} size="sm">
                {c.passed ? 'Passed' : 'Failed'}: {c.check}.
              </Text>{' '}
              {c.detail}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

export function EstimateReportView({
  output,
  connectionKey,
}: {
  readonly output: EstimateOutput;
  readonly connectionKey: string;
}) {
  const { model, report } = output;
  const name = model.modelVersion;
  const rows = estimatedRows(report);
  const c = report.candidates;
  const suggested = report.suggestedThresholds;
  return (
    <Stack gap="lg" data-testid="estimate-report">
      <Card withBorder padding="lg" component="section" aria-labelledby="est-convergence-title">
        <Title order={2} size="h4" id="est-convergence-title" mb="sm">
          Estimate of model {report.modelVersion}
        </Title>
        <FitChecks fit={report.fit} />
        <Note
          mt="sm"
          color={report.convergence.converged ? 'teal' : 'orange'}
          variant="light"
          icon={report.convergence.converged ? <IconInfo /> : <IconAlert />}
          title={report.convergence.converged ? 'EM converged' : 'EM did not converge'}
          data-testid="est-convergence"
        >
          <Text size="sm">{convergenceText(report.convergence)}</Text>
        </Note>
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" mt="md">
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Records
            </Text>
            <Text fw={700} size="lg" data-testid="est-records">
              {formatCount(report.records)}
            </Text>
            {sampleCaption(report) === null ? null : (
              <Text size="xs" c="dimmed" data-testid="est-sampled">
                {sampleCaption(report)}
              </Text>
            )}
          </div>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Candidate pairs modelled
            </Text>
            <Text fw={700} size="lg" data-testid="est-modelled">
              {formatCount(c.modelled)}
            </Text>
            <Text size="xs" c="dimmed">
              {formatCount(c.enumerated)} found by blocking{c.truncated ? ' (stopped at its cap)' : ''},{' '}
              {formatCount(c.compared)} compared, {formatCount(c.distinctPatterns)} distinct band patterns
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Match share among candidates
            </Text>
            <Text fw={700} size="lg" data-testid="est-match-share">
              {report.candidateMatchShare.toFixed(6)}
            </Text>
            <Text size="xs" c="dimmed">
              about {formatCount(Math.round(report.expectedMatches))} true pairs expected
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Prior match probability
            </Text>
            <Text fw={700} size="lg" data-testid="est-prior">
              {report.priorMatchProbability.toPrecision(4)}
            </Text>
            <Text size="xs" c="dimmed">
              {report.prior}
            </Text>
          </div>
        </SimpleGrid>
        <Text size="sm" c="dimmed" mt="sm">
          u from {formatCount(report.randomPairs.compared)} random pairs (seed {report.randomPairs.seed};{' '}
          {formatCount(report.randomPairs.decidedOutsideModel)} decided outside the model; about{' '}
          {formatCount(Math.round(report.randomPairs.matchesWeightedOut))} taken for one person and weighted out of u).{' '}
          {formatCount(c.decidedByTrustedIdentifier)} candidate pairs were decided by a trusted identifier and{' '}
          {formatCount(c.decidedByHardConflict)} by a hard conflict. Log-likelihood{' '}
          {report.convergence.logLikelihood.toFixed(3)}.{' '}
          <span data-testid="est-sessions">{sessionsText(report.mSessions)}</span> {report.estimation}
        </Text>
        <Box mt="sm">
          <PriorsNote which="estimate" prior={report.priorMatchProbability} />
        </Box>
      </Card>

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
        <Table
          striped
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
                    <Badge ml={6} size="xs" variant="outline">
                      suggested {r.suggested}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>{formatCount(r.pairsAtOrAbove)}</Table.Td>
                <Table.Td>{r.expectedTruePositives.toFixed(1)}</Table.Td>
                <Table.Td>{r.expectedFalsePositives.toFixed(1)}</Table.Td>
                <Table.Td>{r.expectedFalseNegatives.toFixed(1)}</Table.Td>
                <Table.Td>{share(r.precision)}</Table.Td>
                <Table.Td>{share(r.recall)}</Table.Td>
                <Table.Td>{share(r.f1)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>

      <Card withBorder padding="lg" component="section" aria-labelledby="est-suggested-title">
        <Title order={2} size="h4" id="est-suggested-title" mb="sm">
          Suggested thresholds
        </Title>
        <Group gap="xl" mb="sm">
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Certain (auto-link)
            </Text>
            <Text fw={700} size="lg" data-testid="est-certain">
              {String(suggested.Certain)}
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Probable (review)
            </Text>
            <Text fw={700} size="lg" data-testid="est-probable">
              {String(suggested.Probable)}
            </Text>
          </div>
        </Group>
        <Text size="sm" fw={600} mb={4} data-testid="est-review-band">
          {reviewBandText(report.reviewBand)}
        </Text>
        <Text size="sm" data-testid="est-suggestion">
          {report.suggestion}
        </Text>
      </Card>

      <FieldWeightsCard model={model} name={name} idPrefix="est" caveat={report.caveat}>
        <ObservationsLine observations={report.fieldObservations} />
      </FieldWeightsCard>

      <ModelJsonCard
        model={model}
        connectionKey={connectionKey}
        idPrefix="est"
        produced="An estimated model"
        thresholds={report.suggestedThresholds}
      >
        <Text size="sm" mt="xs">
          To apply the model with the suggested thresholds, run{' '}
          <Code>
            mpi-console estimate --model-version {model.modelVersion} --seed {String(report.randomPairs.seed)} --out
            model.json --with-thresholds
          </Code>{' '}
          with the options used here (the same seed on the same records gives the same model), review the file, then{' '}
          <Code>mpi-console profile apply model.json</Code>. For the model alone, save it above and{' '}
          <Code>profile apply</Code> that file; the active thresholds then stay as they are.
        </Text>
      </ModelJsonCard>
    </Stack>
  );
}

function ObservationsLine({ observations }: { readonly observations: EstimateOutput['report']['fieldObservations'] }) {
  return (
    <List size="xs" c="dimmed" mb="sm" aria-label="Observations per field">
      {observations.map((o) => (
        <List.Item key={o.field}>
          {o.field}: present in {formatCount(o.candidatePairs)} candidate pairs and {formatCount(o.randomPairs)} random
          pairs
        </List.Item>
      ))}
    </List>
  );
}
