/**
 * One job: status, what was asked, the phase pipeline, the eight counters, progress, throughput, the error of
 * a failed job, and cancel with its meaning (at once for a queued job, at the next batch boundary for a
 * running one). It refreshes from the backend's pushes while the job is active.
 */
import { shortJobId } from './job-id.ts';
import {
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  Card,
  Code,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import { lazy, Suspense, useState } from 'react';
import type { Connection } from '../../../console-protocol/protocol.ts';
import type { JobState } from '../../../engine/contract/maintenance.ts';
import { reviewRateText } from '../../../engine/contract/ingest.ts';
import { useClient } from '../../client/context.tsx';
import { ClientError, errorMessage } from '../../client/errors.ts';
import { storeJob, useJob, useQueryClient } from '../../hooks/console-data.ts';
import { paths } from '../../hooks/route.ts';
import { formatCount, formatCountOf, formatDateTime, formatDuration } from '../../format.ts';
import { IconAlert, IconArrowLeft, IconBan, IconInfo, IconRefresh } from '../../icons.tsx';
import { CounterGrid } from './counters.tsx';
import { JobProgress, useJobSamples } from './job-progress.tsx';
import { cancelEffect, isActive, isStalled, KIND_LABEL } from './job-text.ts';
import { PhasePipeline } from './phase-pipeline.tsx';
import { JobCaseHolds } from './job-case-holds.tsx';
import { unavailableReason } from '../reviews/availability.ts';
import { JobStatusBadge } from './status-badge.tsx';

const ThroughputChart = lazy(() => import('./throughput-chart.tsx'));

/** connectionKey: where what held the job's review cases can be read (null where this sign-in cannot read them). */
function Facts({ job, connectionKey }: { readonly job: JobState; readonly connectionKey: string | null }) {
  const end = job.finishedAt ?? (job.status === 'running' ? new Date().toISOString() : null);
  const rows: [string, React.ReactNode][] = [
    ['Job ID', <Code key="id">{job.jobId}</Code>],
    ['Reason', job.reason],
    ['Requested by', job.requestedBy],
    ['Batch size', String(job.batchSize)],
    ...(job.kind === 'reconciliation'
      ? [['External source', job.externalSourceSystem ?? 'None (registry only)'] as [string, string]]
      : []),
    ...(job.changedSince === null ? [] : [['Changed since', formatDateTime(job.changedSince)] as [string, string]]),
    ...(job.scheduleKey === null ? [] : [['Schedule', job.scheduleKey] as [string, string]]),
    [
      'Profile version',
      job.matchingProfileVersion !== null
        ? String(job.matchingProfileVersion)
        : isActive(job)
          ? 'recorded when the job starts'
          : '— (never started)',
    ],
    ['Created', formatDateTime(job.createdAt)],
    ['Started', formatDateTime(job.startedAt)],
    ['Finished', formatDateTime(job.finishedAt)],
    ...(job.startedAt !== null && end !== null
      ? [['Duration', formatDuration(Date.parse(end) - Date.parse(job.startedAt))] as [string, string]]
      : []),
    // Re-index never opens review cases; a reconciliation's rate is per 1,000 records imported and identities matched.
    ...(job.kind === 'reconciliation'
      ? [
          [
            'Review rate',
            <span key="rate" data-testid="job-review-rate">
              {reviewRateText(job.reviewRate)}
            </span>,
          ] as [string, React.ReactNode],
          [
            'Review cases',
            job.counters.reviewCreated === 0 ? (
              'None opened'
            ) : (
              <div key="cases">
                <Anchor href={paths.reviews(job.jobId)} size="sm" data-testid="job-review-cases">
                  {formatCountOf(job.counters.reviewCreated, 'review case')}
                </Anchor>
                {connectionKey === null ? null : (
                  <JobCaseHolds connectionKey={connectionKey} jobId={job.jobId} cases={job.counters.reviewCreated} />
                )}
              </div>
            ),
          ] as [string, React.ReactNode],
        ]
      : []),
  ];
  return (
    <Table variant="vertical" layout="fixed" aria-label="Job details">
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={140}>{label}</Table.Th>
            <Table.Td style={{ wordBreak: 'break-word' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Outcome({ job }: { readonly job: JobState }) {
  if (job.status === 'failed') {
    return (
      <Alert color="red" variant="light" icon={<IconAlert />} title="The job failed" role="alert">
        <Text size="sm" data-testid="job-error">
          {job.error ?? 'No error was recorded.'}
        </Text>
        <Text size="sm" mt={6}>
          Batches committed before a failure stay committed; fix the cause, then start a new job.
        </Text>
      </Alert>
    );
  }
  if (job.status === 'stopped') {
    return (
      <Alert color="orange" variant="light" icon={<IconAlert />} title="The job stopped">
        <Text size="sm">{job.error ?? 'The configuration changed while the job ran, so it did not continue.'}</Text>
      </Alert>
    );
  }
  if (job.status === 'cancelled') {
    return (
      <Note color="gray" variant="light" icon={<IconBan />} title="The job was cancelled">
        <Text size="sm">
          {job.startedAt === null
            ? 'It was cancelled before it started: nothing was changed.'
            : 'Batches committed before the cancel stay; nothing after them ran.'}
        </Text>
      </Note>
    );
  }
  return null;
}

function CancelControl({
  job,
  allowed,
  scopes,
  connectionKey,
}: {
  readonly job: JobState;
  readonly allowed: boolean;
  readonly scopes: readonly string[];
  readonly connectionKey: string;
}) {
  const client = useClient();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const effect = cancelEffect(job);
  if (effect === null) return null;
  if (!allowed) {
    // Said where the button would be, so nobody looks for it.
    return (
      <Text size="sm" c="dimmed" data-testid="cancel-not-allowed">
        Cancelling a job needs the mpi.admin scope; this sign-in grants {scopes.join(', ') || 'no scope'}. Ask an
        administrator to cancel it if it must stop.
      </Text>
    );
  }
  const cancel = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await client.send('jobs/cancel', { jobId: job.jobId });
      // The pushed update follows; this read makes the change visible at once for a queued job.
      storeJob(queryClient, connectionKey, await client.send('console/watch-job', { jobId: job.jobId }));
    } catch (caught) {
      setError(caught instanceof ClientError ? caught.message : errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card withBorder padding="md" bg="var(--mantine-color-white)">
      <Group justify="space-between" wrap="nowrap" align="center">
        <Text size="sm" id="cancel-effect" data-testid="cancel-effect">
          {effect}
        </Text>
        <Button
          color="red"
          variant="light"
          leftSection={<IconBan size={16} />}
          onClick={() => void cancel()}
          loading={busy}
          disabled={job.cancelRequested}
          aria-describedby="cancel-effect"
        >
          {job.cancelRequested ? 'Cancel requested' : 'Cancel job'}
        </Button>
      </Group>
      {error !== null && (
        <Text size="sm" c="red.9" mt={6} role="alert">
          {error}
        </Text>
      )}
    </Card>
  );
}

function Throughput({ job }: { readonly job: JobState }) {
  const samples = useJobSamples(job.jobId);
  if (job.status !== 'running' && samples.length < 3) return null;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="throughput-title">
      <Title order={2} size="h4" id="throughput-title">
        Throughput
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Identities processed per second across phases, over the last second, while this page watched the job.
      </Text>
      <Suspense fallback={<Loader size="sm" aria-label="Loading the chart" />}>
        <ThroughputChart samples={samples} running={job.status === 'running'} />
      </Suspense>
    </Card>
  );
}

export default function JobDetailPage({
  connection,
  connectionKey,
  jobId,
}: {
  readonly connection: Connection;
  readonly connectionKey: string;
  readonly jobId: string;
}) {
  const query = useJob(connectionKey, jobId);
  const back = (
    <Breadcrumbs>
      <Anchor href={paths.maintenance} size="sm">
        Maintenance
      </Anchor>
      <Text size="sm">Job {shortJobId(jobId)}</Text>
    </Breadcrumbs>
  );
  if (query.isPending) {
    return (
      <Stack gap="md">
        {back}
        <Group gap="sm">
          <Loader size="sm" />
          <Text>Loading the job…</Text>
        </Group>
      </Stack>
    );
  }
  if (query.isError) {
    const notFound = query.error instanceof ClientError && query.error.kind === 'not_found';
    return (
      <Stack gap="md" maw={720}>
        {back}
        <Alert
          color={notFound ? 'orange' : 'red'}
          variant="light"
          icon={<IconAlert />}
          title={notFound ? 'No such job' : 'The job could not be read'}
        >
          <Text size="sm">{query.error.message}</Text>
          <Group mt="sm">
            <Button
              component="a"
              href={paths.maintenance}
              variant="default"
              size="xs"
              leftSection={<IconArrowLeft size={14} />}
            >
              Back to all jobs
            </Button>
            {!notFound && (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconRefresh size={14} />}
                onClick={() => void query.refetch()}
              >
                Try again
              </Button>
            )}
          </Group>
        </Alert>
      </Stack>
    );
  }
  const job = query.data;
  return (
    <Stack gap="lg" maw={1200} data-testid="job-detail" data-job-status={job.status}>
      {back}
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={1}>{KIND_LABEL[job.kind]}</Title>
            <JobStatusBadge job={job} size="lg" />
          </Group>
          <Text c="dimmed" mt={4}>
            {isStalled(job)
              ? 'No worker holds this job: it waits for a worker to resume it. This page updates by itself.'
              : isActive(job)
                ? 'This page updates by itself while the job is active.'
                : `Finished ${formatDateTime(job.finishedAt)}. This record stays in the job history.`}
          </Text>
        </div>
      </Group>
      <CancelControl
        job={job}
        allowed={connection.capabilities.operations.includes('jobs/cancel')}
        scopes={connection.capabilities.scopes}
        connectionKey={connectionKey}
      />
      <Outcome job={job} />
      <Card withBorder padding="lg" component="section" aria-labelledby="pipeline-title">
        <Stack gap="md">
          <Title order={2} size="h4" id="pipeline-title">
            Phases
          </Title>
          <PhasePipeline job={job} />
          <JobProgress job={job} />
        </Stack>
      </Card>
      <Card withBorder padding="lg" component="section" aria-labelledby="counters-title">
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h4" id="counters-title">
            Counters
          </Title>
          <Group gap={4}>
            <IconInfo size={14} />
            <Text size="xs" c="dimmed">
              Work done across phases, not distinct patients ({formatCount(job.counters.scanned)} scanned)
            </Text>
          </Group>
        </Group>
        <CounterGrid counters={job.counters} />
      </Card>
      <Throughput job={job} />
      <Card withBorder padding="lg" component="section" aria-labelledby="facts-title">
        <Title order={2} size="h4" id="facts-title" mb="sm">
          Request
        </Title>
        <Facts job={job} connectionKey={unavailableReason(connection) === null ? connectionKey : null} />
      </Card>
    </Stack>
  );
}
