/**
 * Health: the figures recorded with every ingest and every finished job, as charts over time with the profile
 * versions marked (what held each one's review cases among them), the drift flags on the latest ingest with a way to
 * the cases a risen review rate opened, and how a shift is judged.
 */
import {
  Alert,
  Anchor,
  Card,
  Group,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { More } from '../../layout/more.tsx';
import { Note } from '../../layout/note.tsx';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import type { Connection } from '../../../console-protocol/protocol.ts';
import { HEALTH_FIELDS, reviewHoldsText, type HealthSample } from '../../../engine/contract/health.ts';
import { useClient } from '../../client/context.tsx';
import { formatCount, formatCountOf, formatRate } from '../../format.ts';
import { IconAlert, IconCheck, IconInfo } from '../../icons.tsx';
import { blockingRules, holdBars, metricValue, sampleWhat, type HealthMetric } from './health-series.ts';
import { keys } from '../../hooks/query-keys.ts';
import { fieldTitle, fieldWords } from '../../../engine/contract/field-title.ts';
import { percentText } from '../../../engine/contract/count-text.ts';
import { TableDate } from '../../layout/table-date.tsx';
import { paths } from '../../hooks/route.ts';
import { unavailableReason } from '../reviews/availability.ts';
import { putListView } from '../reviews/list-view.ts';
import { FlagCasesButton } from './flag-cases-button.tsx';

const HealthChart = lazy(() => import('./health-chart.tsx'));
const ScoreBandChart = lazy(() => import('./health-bars.tsx').then((m) => ({ default: m.ScoreBandChart })));
const ReviewHoldChart = lazy(() => import('./health-bars.tsx').then((m) => ({ default: m.ReviewHoldChart })));
const IdentitySizeChart = lazy(() => import('./health-bars.tsx').then((m) => ({ default: m.IdentitySizeChart })));

/**
 * An ingest's or a job's review cases, and beside an ingest's its rate per 1,000 records created (what the chart and
 * the drift flags follow); a daily sample opens none, so it shows "—" rather than a 0 that reads like a measurement.
 */
function reviewCasesOpened(s: HealthSample): string {
  if (s.origin === 'daily') return '—';
  const rate = s.origin === 'ingest' && s.reviewCases > 0 ? metricValue(s, 'review-rate') : null;
  return rate === null ? formatCount(s.reviewCases) : `${formatCount(s.reviewCases)} (${formatRate(rate)} per 1,000)`;
}

/** An ingest's share in percent as the table shows it: '—' for a job or a daily sample, or when nothing was created. */
function ingestPercent(s: HealthSample, metric: HealthMetric): string {
  const value = s.origin === 'ingest' ? metricValue(s, metric) : null;
  return value === null ? '—' : percentText(value / 100);
}

function duration(ms: number): string {
  return ms < 1000
    ? `${String(ms)} ms`
    : ms < 120_000
      ? `${(ms / 1000).toFixed(1)} s`
      : `${(ms / 60_000).toFixed(1)} min`;
}

export default function HealthPage({
  connection,
  connectionKey,
}: {
  readonly connection: Connection;
  readonly connectionKey: string;
}) {
  const client = useClient();
  const offered = connection.capabilities.operations.includes('health/series');
  // Links to the review cases only where this sign-in can read them.
  const casesShown = unavailableReason(connection) === null;
  const [field, setField] = useState<string>('birthDate');
  const [rule, setRule] = useState<string | null>(null);
  const health = useQuery({
    queryKey: keys.health(connectionKey),
    queryFn: () => client.send('health/series', {}),
    enabled: offered,
  });
  return (
    <Stack gap="lg" maw={1200}>
      <div>
        <Title order={1} size="h2">
          Health
        </Title>
        <Text c="dimmed" size="sm" mt={4}>
          What every ingest and every maintenance job recorded, over time: how many records, how many linked, how many
          review cases, which fields the sources send. Shifts against a source&apos;s own earlier ingests are flagged.
        </Text>
      </div>
      {!offered ? (
        <Note color="gray" variant="light" icon={<IconInfo />} title="Health figures are not available here">
          <Text size="sm">
            This registry does not offer health figures: its API is older than this console. On the registry host,
            `mpi-console health` lists them.
          </Text>
        </Note>
      ) : health.isPending ? (
        <Skeleton height={320} />
      ) : health.isError ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlert />}
          title="The health figures could not be read"
          role="alert"
        >
          <Text size="sm">{health.error.message}</Text>
        </Alert>
      ) : (
        <>
          {health.data.flags.length === 0 ? (
            <Note
              color="teal"
              variant="light"
              icon={<IconCheck />}
              title="No drift flagged on the latest figures"
              data-testid="health-flags"
            >
              <Text size="sm">{health.data.rule}</Text>
            </Note>
          ) : (
            <Note
              color="orange"
              variant="light"
              icon={<IconAlert />}
              title={`${formatCountOf(health.data.flags.length, 'shift')} flagged`}
              data-testid="health-flags"
            >
              <Stack gap={4}>
                {health.data.flags.map((f) => (
                  <div key={`${f.metric}:${f.sourceSystem ?? ''}`} data-testid="health-flag">
                    <Text size="sm">{f.text}</Text>
                    {f.advice === undefined ? null : (
                      <Text size="sm" c="dimmed">
                        What to do: {f.advice}
                      </Text>
                    )}
                    {f.metric === 'review-rate' && f.sourceSystem !== null && casesShown ? (
                      <FlagCasesButton
                        connectionKey={connectionKey}
                        sourceSystem={f.sourceSystem}
                        samples={health.data.samples}
                      />
                    ) : null}
                  </div>
                ))}
                <More summary="How a shift is judged" testId="health-rule">
                  <Text size="xs" c="dimmed">
                    {health.data.rule}
                  </Text>
                </More>
              </Stack>
            </Note>
          )}
          {health.data.samples.some((s) => s.origin === 'ingest') ? (
            <Suspense fallback={<Skeleton height={220} />}>
              <Card withBorder padding="md" bg="var(--mantine-color-white)">
                <Title order={2} size="h4" mb="sm">
                  Review cases per 1,000 records created
                </Title>
                <HealthChart
                  samples={health.data.samples}
                  metric="review-rate"
                  label="Review cases per 1,000 records created"
                  unit=""
                />
              </Card>
              <ReviewHoldCard samples={health.data.samples} />
              <Card withBorder padding="md" bg="var(--mantine-color-white)">
                <Title order={2} size="h4" mb="sm">
                  Records auto-linked
                </Title>
                <HealthChart
                  samples={health.data.samples}
                  metric="auto-link-rate"
                  label="Share of records created that were auto-linked, in percent"
                  unit="%"
                />
              </Card>
              <Card withBorder padding="md" bg="var(--mantine-color-white)">
                <Group justify="space-between" mb="sm">
                  <Title order={2} size="h4">
                    Records carrying a field
                  </Title>
                  <SegmentedControl
                    size="xs"
                    value={field}
                    onChange={setField}
                    data={HEALTH_FIELDS.map((f) => ({ value: f, label: fieldTitle(f) }))}
                    aria-label="Field"
                  />
                </Group>
                <HealthChart
                  samples={health.data.samples}
                  metric={`completeness:${field}`}
                  label={`Share of records created with ${fieldWords(field)} filled in, in percent`}
                  unit="%"
                />
              </Card>
              <MatchingCards samples={health.data.samples} rule={rule} onRule={setRule} />
            </Suspense>
          ) : (
            <>
              <Text size="sm" c="dimmed">
                No ingest recorded yet: figures appear with the next ingest (`mpi-console ingest`) or job.
              </Text>
              <Suspense fallback={<Skeleton height={220} />}>
                <ReviewHoldCard samples={health.data.samples} />
              </Suspense>
            </>
          )}
          {health.data.samples.some((s) => s.identitySizes !== null) ? (
            <Suspense fallback={<Skeleton height={220} />}>
              <Card withBorder padding="md" bg="var(--mantine-color-white)">
                <Title order={2} size="h4" mb={4}>
                  Identities by number of records
                </Title>
                <Text size="sm" c="dimmed" mb="sm">
                  The registry as the last job or daily sample found it. A growing share of large identities can mean
                  wrong links: open them from Review cases with a link-quality scan.
                </Text>
                <IdentitySizeChart samples={health.data.samples} />
              </Card>
            </Suspense>
          ) : null}
          <Card withBorder padding="md" bg="var(--mantine-color-white)">
            <Title order={2} size="h4" mb="sm">
              Latest figures
            </Title>
            {/* At the console's narrowest window every column shows: a time can go under its day, cells are closer. */}
            <Table.ScrollContainer minWidth={600}>
              <Table
                aria-label="Health figures, newest first"
                horizontalSpacing={8}
                style={{ fontVariantNumeric: 'tabular-nums' }}
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>When</Table.Th>
                    <Table.Th>What</Table.Th>
                    <Table.Th>Profile</Table.Th>
                    <Table.Th>Records</Table.Th>
                    <Table.Th>Review cases opened</Table.Th>
                    <Table.Th>Auto-linked</Table.Th>
                    <Table.Th>Birth date</Table.Th>
                    <Table.Th>Duration</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {[...health.data.samples]
                    .reverse()
                    .slice(0, 50)
                    .map((s, i) => (
                      <Table.Tr key={`${s.at}-${String(i)}`}>
                        <Table.Td>
                          <TableDate iso={s.at} twoLines />
                        </Table.Td>
                        <Table.Td>{sampleWhat(s)}</Table.Td>
                        <Table.Td>{s.profileVersion === null ? '—' : `v${String(s.profileVersion)}`}</Table.Td>
                        <Table.Td>{formatCount(s.records)}</Table.Td>
                        <Table.Td>
                          {s.origin === 'job' && s.jobId !== null && s.reviewCases > 0 && casesShown ? (
                            // Every case the job opened, as the count says, decided or not.
                            <Anchor
                              href={paths.reviews(s.jobId)}
                              size="sm"
                              onClick={() => {
                                if (s.jobId !== null) putListView(connectionKey, { status: 'all' }, s.jobId);
                              }}
                            >
                              {reviewCasesOpened(s)}
                            </Anchor>
                          ) : (
                            reviewCasesOpened(s)
                          )}
                          {s.reviewCases > 0 && s.reviewHolds != null ? (
                            <Text size="xs" c="dimmed" data-testid="health-row-holds">
                              {reviewHoldsText(s.reviewHolds)}
                            </Text>
                          ) : null}
                        </Table.Td>
                        <Table.Td>{ingestPercent(s, 'auto-link-rate')}</Table.Td>
                        <Table.Td>{ingestPercent(s, 'completeness:birthDate')}</Table.Td>
                        <Table.Td>{duration(s.durationMs)}</Table.Td>
                      </Table.Tr>
                    ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
        </>
      )}
    </Stack>
  );
}

/**
 * The review cases each ingest and job opened, by what held them; nothing when no sample kept it (a registry older than
 * the figure, or no case opened yet).
 */
function ReviewHoldCard({ samples }: { readonly samples: readonly HealthSample[] }) {
  const { bars, holds } = holdBars(samples);
  if (bars.length === 0) return null;
  return (
    <Card withBorder padding="md" bg="var(--mantine-color-white)" data-testid="health-holds">
      <Title order={2} size="h4" mb={4}>
        What held the review cases
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Each bar is an ingest or a job that opened review cases, split by the rule that held its pairs at Probable. A
        kind of doubt that grows points to its cause: names only, to a source sending fewer birth dates or addresses;
        possible twin, to families; no rule, to pairs the score alone left between Probable and Certain. Review cases
        lists each kind under &ldquo;Held by&rdquo;.
      </Text>
      <ReviewHoldChart bars={bars} holds={holds} />
    </Card>
  );
}

/** What matching met on the ingests: high scores, each blocking rule's candidates, cap hits, the score distribution. */
function MatchingCards({
  samples,
  rule,
  onRule,
}: {
  readonly samples: readonly HealthSample[];
  readonly rule: string | null;
  readonly onRule: (rule: string | null) => void;
}) {
  const rules = blockingRules(samples);
  if (rules.length === 0) return null;
  const shown = rule !== null && rules.includes(rule) ? rule : (rules[0] ?? '');
  return (
    <>
      <Card withBorder padding="md" bg="var(--mantine-color-white)">
        <Title order={2} size="h4" mb="sm">
          Compared pairs by score band
        </Title>
        <ScoreBandChart samples={samples} />
      </Card>
      <Card withBorder padding="md" bg="var(--mantine-color-white)">
        <Title order={2} size="h4" mb="sm">
          Compared pairs scored 0.5 or above
        </Title>
        <HealthChart
          samples={samples}
          metric="high-scores"
          label="Share of compared pairs scored 0.5 or above, in percent"
          unit="%"
        />
      </Card>
      <Card withBorder padding="md" bg="var(--mantine-color-white)">
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h4">
            Candidates per record by blocking rule
          </Title>
          <Select
            size="xs"
            w={260}
            label="Blocking rule"
            value={shown}
            onChange={onRule}
            data={rules}
            allowDeselect={false}
          />
        </Group>
        <HealthChart
          samples={samples}
          metric={`candidates:${shown}`}
          label={`Candidate identities per record created found by blocking rule ${shown}`}
          unit=""
        />
      </Card>
      <Card withBorder padding="md" bg="var(--mantine-color-white)">
        <Title order={2} size="h4" mb={4}>
          Records whose candidates hit the cap
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          Each record is compared with a few candidate identities at most: those sharing its rarest blocking keys. Many
          records over that cap means blocking keys have become too common to tell people apart.
        </Text>
        <HealthChart
          samples={samples}
          metric="capped"
          label="Share of records created whose candidates were more than the cap, in percent"
          unit="%"
        />
      </Card>
    </>
  );
}
