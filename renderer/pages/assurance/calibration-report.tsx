/**
 * A calibration's answer: held-out Brier score and log loss, a reliability diagram, threshold metrics with
 * the F1-optimal threshold and the lowest one meeting the target precision as reference lines, per-field m and
 * u by band with their ln(m/u) weights, the conditional-independence caveat, and the complete model JSON to
 * view, copy and save. No activation control: the page states how a model is applied instead.
 */
import '@mantine/charts/styles.css';
import { Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { CartesianGrid, ComposedChart, ErrorBar, Line, ResponsiveContainer, Scatter, XAxis, YAxis } from 'recharts';
import type { z } from 'zod';
import type { CalibrationOutputSchema } from '../../../engine/contract/assurance.ts';
import { formatCount, formatCountOf } from '../../format.ts';
import { More } from '../../layout/more.tsx';
import { ExportButtons } from './export-buttons.tsx';
import { FieldWeightsCard } from './field-weights-card.tsx';
import { fixed3, metricsRow } from './metric-text.ts';
import { MetricsTable } from './metrics-table.tsx';
import { ModelJsonCard } from './model-json-card.tsx';
import { PriorsNote } from './priors-note.tsx';
import { ProfileComparisonNote } from './profile-comparison-note.tsx';
import { ReviewLoadCell } from './review-load-cell.tsx';
import { ThresholdExplorer, type ReferenceMark } from './threshold-explorer.tsx';
import { ThresholdValue } from './threshold-value.tsx';

type CalibrationOutput = z.infer<typeof CalibrationOutputSchema>;

/** A recommended threshold is any held-out score: four significant digits are what a person can act on. */
function thresholdText(value: number | null): string {
  return value === null ? '—' : Number(value.toPrecision(4)).toString();
}
function ReliabilityDiagram({
  bins,
}: {
  readonly bins: NonNullable<CalibrationOutput['report']['heldOut']['reliability']>;
}) {
  const points = bins
    .filter((b) => b.meanPredicted !== null && b.observed !== null)
    .map((b) => ({
      predicted: b.meanPredicted ?? 0,
      observed: b.observed ?? 0,
      error:
        b.observedInterval === null
          ? [0, 0]
          : [(b.observed ?? 0) - b.observedInterval.lower, b.observedInterval.upper - (b.observed ?? 0)],
      pairs: b.pairs,
    }));
  return (
    <figure
      style={{ margin: 0 }}
      aria-label="Reliability diagram: observed share of matches against mean predicted probability on held-out pairs, with 95% intervals; the table below lists each bin."
    >
      <div style={{ width: '100%', height: 280 }}>
        <ResponsiveContainer>
          <ComposedChart data={points} margin={{ top: 10, right: 20, bottom: 24, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--mantine-color-gray-3)" />
            <XAxis
              dataKey="predicted"
              type="number"
              domain={[0, 1]}
              ticks={[0, 0.2, 0.4, 0.6, 0.8, 1]}
              label={{ value: 'Mean predicted probability', position: 'insideBottom', offset: -12 }}
            />
            <YAxis
              type="number"
              domain={[0, 1]}
              ticks={[0, 0.2, 0.4, 0.6, 0.8, 1]}
              width={44}
              label={{ value: 'Observed', angle: -90, position: 'insideLeft' }}
            />
            <Line
              data={[
                { predicted: 0, observed: 0 },
                { predicted: 1, observed: 1 },
              ]}
              dataKey="observed"
              stroke="var(--mantine-color-gray-6)"
              strokeDasharray="4 4"
              dot={false}
              isAnimationActive={false}
              name="Perfect calibration"
            />
            <Scatter
              dataKey="observed"
              fill="var(--mantine-color-indigo-7)"
              isAnimationActive={false}
              name="Held-out bins"
            >
              <ErrorBar dataKey="error" width={4} stroke="var(--mantine-color-indigo-4)" direction="y" />
            </Scatter>
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

export function CalibrationReportView({
  output,
  name,
  connectionKey,
}: {
  readonly output: CalibrationOutput;
  readonly name: string;
  readonly connectionKey: string;
}) {
  const { model, report } = output;
  const marks: ReferenceMark[] = [];
  if (report.f1Optimal.threshold !== null) marks.push({ threshold: report.f1Optimal.threshold, label: 'F1-optimal' });
  const target = report.meetingTargetPrecision;
  if (target.threshold !== null)
    marks.push({ threshold: target.threshold, label: `precision ≥ ${String(report.targetPrecision)}` });
  else if (target.bestAchievable != null)
    marks.push({
      threshold: target.bestAchievable.threshold,
      label: `best toward precision ${String(report.targetPrecision)}`,
    });
  const live = report.liveThresholds ?? null;
  if (live !== null) marks.push({ threshold: live.Certain, label: 'live Certain' });
  const highlight = marks.map((m) => m.threshold);
  return (
    <Stack gap="lg" data-testid="calibration-report">
      <Card withBorder padding="lg" component="section" aria-labelledby="cal-quality-title">
        <Title order={2} size="h4" id="cal-quality-title" mb="sm">
          Held-out quality of model {report.modelVersion}
        </Title>
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Brier score
            </Text>
            <Text fw={700} size="lg" data-testid="cal-brier">
              {fixed3(report.heldOut.brierScore)}
            </Text>
            <Text size="xs" c="dimmed">
              0 is perfect; lower is better
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Log loss
            </Text>
            <Text fw={700} size="lg" data-testid="cal-logloss">
              {fixed3(report.heldOut.logLoss)}
            </Text>
            <Text size="xs" c="dimmed">
              Lower is better
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              F1-optimal threshold
            </Text>
            <Text fw={700} size="lg" data-testid="cal-f1-threshold">
              {thresholdText(report.f1Optimal.threshold)}
            </Text>
            <Text size="xs" c="dimmed">
              {report.f1Optimal.explanation}
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Lowest meeting precision {report.targetPrecision}
            </Text>
            {/* Already the simplest number in its gap of held-out scores: never rounded (four digits could round 0.99999 to 1). */}
            <ThresholdValue value={target.threshold} testId="cal-target-threshold" />
            <Text size="xs" c="dimmed" data-testid="cal-target-support">
              {target.support != null
                ? `${formatCount(target.support.atOrAbove)} of ${formatCount(target.support.heldOutPairs)} held-out pairs at or above it; precision's 95% lower bound ${fixed3(target.metrics?.precisionInterval?.lower ?? null)}`
                : target.bestAchievable != null
                  ? `Not met with 95% confidence. Best achievable: ${String(target.bestAchievable.threshold)} (precision ${fixed3(target.bestAchievable.metrics.precision)}, 95% interval ${fixed3(target.bestAchievable.metrics.precisionInterval?.lower ?? null)}–${fixed3(target.bestAchievable.metrics.precisionInterval?.upper ?? null)}, ${formatCount(target.bestAchievable.support.atOrAbove)} pairs)`
                  : 'Not met'}
            </Text>
          </div>
        </SimpleGrid>
        <Text size="sm" mt="sm" data-testid="cal-target-explanation">
          <Text span fw={600}>
            Precision target {report.targetPrecision}:{' '}
          </Text>
          {target.explanation}
        </Text>
        <Text size="sm" mt="sm" mb={4}>
          Trained on {formatCountOf(report.training.pairs, 'pair')} (
          {formatCountOf(report.training.matches, 'match', 'matches')}), validated on{' '}
          {formatCountOf(report.validation.pairs, 'held-out pair')} (
          {formatCountOf(report.validation.matches, 'match', 'matches')}).
        </Text>
        <More summary="How the model was trained">
          <Text size="sm" c="dimmed" data-testid="cal-estimation">
            {report.estimation}
          </Text>
        </More>
        {report.uSource?.from === 'random-pairs' ? (
          <Text size="sm" mt="sm" data-testid="cal-u-source">
            <Text span fw={600}>
              u from random pairs of the registry:{' '}
            </Text>
            {report.uSource.explanation}
          </Text>
        ) : null}
      </Card>

      <Card withBorder padding="lg" component="section" aria-labelledby="cal-live-title" data-testid="cal-live">
        <Title order={2} size="h4" id="cal-live-title" mb="sm">
          Thresholds to apply with this model
        </Title>
        {live === null ? (
          <Text size="sm">
            The held-out pairs lack matches or non-matches, so no live thresholds can be measured: evaluate the model on
            labels holding both before applying it.
          </Text>
        ) : (
          <>
            <ProfileComparisonNote live={live} />
            <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" mb="sm">
              <div>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  Certain (automatic link)
                </Text>
                <ThresholdValue value={live.Certain} testId="cal-live-certain" />
                <Text size="xs" c="dimmed">
                  Live precision {fixed3(live.atCertain.precision)}
                  {live.atCertain.precisionLowerBound == null
                    ? ''
                    : ` (at least ${fixed3(live.atCertain.precisionLowerBound)} with 95% confidence)`}
                  , recall {fixed3(live.atCertain.recall)}
                </Text>
              </div>
              <div>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  Probable (review)
                </Text>
                <ThresholdValue value={live.Probable} testId="cal-live-probable" />
                <Text size="xs" c="dimmed" data-testid="cal-live-probable-note">
                  {live.Probable < live.Certain
                    ? `Recall with reviews ${fixed3(live.atProbable.recall)}${live.reviewLoad?.budgetRaisedProbable === true ? ', the band kept within the review budget' : ''}`
                    : live.reviewLoad?.budgetRaisedProbable === true
                      ? 'Certain itself: the review budget leaves no room for a band'
                      : 'Certain itself: no review band the labels show is more often one person than two'}
                </Text>
              </div>
              {live.reviewLoad === undefined ? null : <ReviewLoadCell load={live.reviewLoad} />}
              <div>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  Target precision
                </Text>
                <Text fw={700} size="lg">
                  {report.targetPrecision}
                </Text>
                <Text size="xs" c="dimmed">
                  {live.targetPrecisionMet
                    ? 'Shown for live matching with 95% confidence'
                    : live.certainFrom === 'best-shown'
                      ? `Short of it: at least ${fixed3(live.atCertain.precisionLowerBound ?? null)} shown at Certain`
                      : live.heldOutNonMatchesNeeded == null
                        ? 'Not shown by any held-out cut'
                        : `Not shown: ${formatCount(live.heldOutNonMatches ?? 0)} ${(live.nonMatchesFromTraining ?? 0) > 0 ? 'unseen' : 'held-out'} non-matches are too few to show it; about ${formatCount(live.heldOutNonMatchesNeeded)} would`}
                </Text>
              </div>
            </SimpleGrid>
            <More summary="How these thresholds were read">
              <Text size="sm" data-testid="cal-live-explanation">
                {live.explanation}
              </Text>
            </More>
          </>
        )}
        <PriorsNote
          which="calibration"
          prior={model.priorMatchProbability}
          calibrationU={report.uSource?.from ?? 'labels'}
        />
      </Card>

      {report.heldOut.reliability !== undefined ? (
        <Card withBorder padding="lg" component="section" aria-labelledby="cal-reliability-title">
          <Group justify="space-between" mb="xs">
            <Title order={2} size="h4" id="cal-reliability-title">
              Reliability diagram (held-out pairs)
            </Title>
            <ExportButtons
              name={`${name}-reliability`}
              label="the reliability bins"
              rows={() =>
                (report.heldOut.reliability ?? []).map((b) => ({
                  lower: b.lower,
                  upper: b.upper,
                  pairs: b.pairs,
                  meanPredicted: b.meanPredicted,
                  observed: b.observed,
                  observedLower: b.observedInterval?.lower ?? null,
                  observedUpper: b.observedInterval?.upper ?? null,
                }))
              }
            />
          </Group>
          <Text size="sm" c="dimmed" mb="sm">
            A calibrated model's points lie on the dashed diagonal: of the pairs given probability 0.8, about 80% are
            matches. Bars are 95% intervals.
          </Text>
          <ReliabilityDiagram bins={report.heldOut.reliability} />
          <Table striped aria-label="Reliability bins" style={{ fontVariantNumeric: 'tabular-nums' }}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Predicted</Table.Th>
                <Table.Th>Pairs</Table.Th>
                <Table.Th>Mean predicted</Table.Th>
                <Table.Th>Observed</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.heldOut.reliability.map((b) => (
                <Table.Tr key={b.lower}>
                  <Table.Td>
                    {b.lower.toFixed(1)}–{b.upper.toFixed(1)}
                  </Table.Td>
                  <Table.Td>{formatCount(b.pairs)}</Table.Td>
                  <Table.Td>{b.meanPredicted === null ? '— (empty bin)' : b.meanPredicted.toFixed(3)}</Table.Td>
                  <Table.Td>{b.observed === null ? '— (empty bin)' : b.observed.toFixed(3)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      ) : null}

      <Card withBorder padding="lg" component="section" aria-labelledby="cal-thresholds-title">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h4" id="cal-thresholds-title">
            Held-out threshold metrics
          </Title>
          <ExportButtons
            caption="Table"
            name={`${name}-heldout-metrics`}
            label="the held-out metrics"
            rows={() => report.heldOut.thresholds.map(metricsRow)}
          />
        </Group>
        {report.heldOut.scoreDistribution !== undefined ? (
          <ThresholdExplorer
            distribution={report.heldOut.scoreDistribution}
            initial={report.f1Optimal.threshold ?? 0.5}
            marks={marks}
            name={`${name}-heldout`}
          />
        ) : null}
        <MetricsTable rows={report.heldOut.thresholds} label="Held-out metrics per threshold" highlight={highlight} />
      </Card>

      <FieldWeightsCard model={model} name={name} idPrefix="cal" caveat={report.caveat} />

      <ModelJsonCard
        model={model}
        connectionKey={connectionKey}
        idPrefix="cal"
        produced="A calibrated model"
        thresholds={live === null ? undefined : { Certain: live.Certain, Probable: live.Probable }}
      />
    </Stack>
  );
}
