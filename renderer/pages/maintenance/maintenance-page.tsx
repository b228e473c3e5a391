/**
 * The Maintenance page: the jobs of the current tenant (newest first, history kept, active ones updating by
 * themselves), starting a re-index or a reconciliation, and when to run which.
 */
import { resolveJobId } from './job-id.ts';
import {
  Alert,
  Button,
  Card,
  EmptyState,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import type { JobState } from '../../../engine/contract/maintenance.ts';
import { useClient } from '../../client/context.tsx';
import type { Connection } from '../../../console-protocol/protocol.ts';
import { JOBS_LIMIT, useJobs } from '../../hooks/console-data.ts';
import { filterJobs, STATUS_FILTERS, type KindFilter, type StatusFilter } from './job-filters.ts';
import { navigate, paths } from '../../hooks/route.ts';
import { IconAlert, IconPlus, IconRefresh, IconTool } from '../../icons.tsx';
import { GuidanceTable } from './guidance.tsx';
import { MissingKeyAlert } from './missing-key-alert.tsx';
import { isActive } from './job-text.ts';
import { formatCount, formatCountOf } from '../../format.ts';
import { JobsTable, JobsTableSkeleton } from './jobs-table.tsx';

// The form, its date picker and the contract's schemas load when a job is first started.
const StartJobModal = lazy(() => import('./start-job-modal.tsx'));

/** Watch any job by its ID (one started elsewhere, or one this list no longer shows). */
function WatchById({ known }: { readonly known: readonly string[] }) {
  const [jobId, setJobId] = useState('');
  // Said after a submit, never while typing.
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const trimmed = jobId.trim();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (trimmed === '') return;
        const resolved = resolveJobId(trimmed, known);
        if (resolved.kind === 'job') navigate(paths.job(resolved.jobId));
        else setProblem(resolved.message);
      }}
      aria-label="Watch a job by ID"
    >
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <TextInput
          aria-label="Job ID"
          placeholder="job-…"
          size="xs"
          value={jobId}
          onChange={(event) => {
            setJobId(event.currentTarget.value);
            setProblem(undefined);
          }}
          error={problem}
          w={260}
        />
        <Button type="submit" size="xs" variant="default" disabled={trimmed === ''}>
          Watch job
        </Button>
      </Group>
    </form>
  );
}

/** The jobs list with its filters, and older jobs page by page (jobs/list's cursor) below the newest. */
function JobsList({
  newest,
  nextCursor,
}: {
  readonly newest: readonly JobState[];
  readonly nextCursor: string | null;
}) {
  const client = useClient();
  const [status, setStatus] = useState<StatusFilter>('all');
  const [kind, setKind] = useState<KindFilter>('all');
  const [older, setOlder] = useState<{ rows: JobState[]; nextCursor: string | null } | null>(null);
  const more = useMutation({
    mutationFn: (before: string) => client.send('jobs/list', { limit: JOBS_LIMIT, before }),
    onSuccess: (page) => {
      setOlder((old) => ({ rows: [...(old?.rows ?? []), ...page.rows], nextCursor: page.nextCursor }));
    },
  });
  const cursor = older === null ? nextCursor : older.nextCursor;
  const shown = filterJobs([newest, older?.rows ?? []], status, kind);
  const loaded = filterJobs([newest, older?.rows ?? []], 'all', 'all').length;
  return (
    <Stack gap="sm">
      <Group gap="md" align="flex-end">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="job-status-filter">
            Status
          </Text>
          <SegmentedControl
            size="xs"
            value={status}
            onChange={(value) => {
              setStatus(value);
            }}
            data={STATUS_FILTERS.map((f) => ({ ...f }))}
            aria-labelledby="job-status-filter"
          />
        </Stack>
        <Select
          size="xs"
          label="Kind"
          w={200}
          value={kind}
          onChange={(value) => {
            setKind(value ?? 'all');
          }}
          allowDeselect={false}
          data={[
            { value: 'all', label: 'All kinds' },
            { value: 'reindex', label: 'Re-index' },
            { value: 'reconciliation', label: 'Reconciliation' },
          ]}
        />
        <Text size="sm" c="dimmed" data-testid="jobs-shown">
          {shown.length === loaded
            ? formatCountOf(loaded, 'job')
            : `${formatCount(shown.length)} of ${formatCountOf(loaded, 'job')}`}
          {cursor === null ? '' : ' loaded; older ones below'}
        </Text>
      </Group>
      {shown.length === 0 ? (
        <Text size="sm">
          No job {status === 'all' && kind === 'all' ? 'yet' : 'matches these filters among those loaded'}.
        </Text>
      ) : (
        <JobsTable jobs={shown} />
      )}
      {cursor === null ? null : (
        <Group>
          <Button
            size="xs"
            variant="default"
            loading={more.isPending}
            onClick={() => {
              more.mutate(cursor);
            }}
          >
            Show {JOBS_LIMIT} older jobs
          </Button>
          {more.error !== null ? (
            <Text size="sm" c="red.8">
              The older jobs could not be read: {more.error.message}
            </Text>
          ) : null}
        </Group>
      )}
    </Stack>
  );
}

export function MaintenancePage({
  connection,
  connectionKey,
}: {
  readonly connection: Connection;
  readonly connectionKey: string;
}) {
  const remote = connection.kind === 'remote-registry';
  const jobs = useJobs(
    connectionKey,
    remote && !connection.capabilities.operations.includes('jobs/list') ? connection.rememberedJobs : undefined,
  );
  const [starting, setStarting] = useState(false);
  const offered = connection.capabilities.operations;
  const canStart = {
    reindex: offered.includes('maintenance/reindex'),
    reconciliation: offered.includes('maintenance/reconcile'),
  };
  const mayStart = canStart.reindex || canStart.reconciliation;
  const active = jobs.data?.rows.filter(isActive).length ?? 0;

  const startButton = mayStart ? (
    <Button
      leftSection={<IconPlus size={16} />}
      onClick={() => {
        setStarting(true);
      }}
    >
      Start a job
    </Button>
  ) : null;
  // Said where the button would be: the registry would refuse the start anyway (403, insufficient scope).
  const noStart = mayStart ? null : (
    <Group gap="sm" maw={520} wrap="nowrap" data-testid="start-not-allowed">
      <Text size="sm" c="dimmed" id="start-not-allowed-why" ta="right">
        Starting jobs needs the mpi.admin scope; this sign-in grants{' '}
        {connection.capabilities.scopes.join(', ') || 'no scope'}. You can watch jobs.
      </Text>
      <Button leftSection={<IconPlus size={16} />} disabled aria-describedby="start-not-allowed-why">
        Start a job
      </Button>
    </Group>
  );

  let body: React.ReactNode;
  if (jobs.isPending) body = <JobsTableSkeleton />;
  else if (jobs.isError) {
    body = (
      <Alert color="red" variant="light" icon={<IconAlert />} title="The jobs could not be read">
        <Text size="sm">{jobs.error.message}</Text>
        <Button
          mt="sm"
          size="xs"
          variant="light"
          leftSection={<IconRefresh size={14} />}
          onClick={() => void jobs.refetch()}
        >
          Try again
        </Button>
      </Alert>
    );
  } else if (jobs.data.rows.length === 0) {
    body = (
      <EmptyState
        icon={<IconTool size={28} />}
        withIndicatorBackground
        title="No maintenance jobs yet"
        description="Run a reconciliation after changing matching settings, or a re-index after changing blocking rules or keys. Jobs you start appear here and stay as history."
        py="xl"
      >
        {startButton !== null ? <EmptyState.Actions>{startButton}</EmptyState.Actions> : null}
      </EmptyState>
    );
  } else body = <JobsList newest={jobs.data.rows} nextCursor={jobs.data.nextCursor} />;

  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Maintenance</Title>
          <Text c="dimmed" mt={4}>
            Re-index and reconciliation jobs of tenant {connection.tenantId}.{' '}
            {active === 0
              ? 'Active jobs update by themselves.'
              : active === 1
                ? '1 active: it updates by itself.'
                : `${formatCount(active)} active: they update by themselves.`}
          </Text>
        </div>
        {startButton ?? noStart}
      </Group>
      <MissingKeyAlert connection={connection} connectionKey={connectionKey} />
      {connection.kind === 'local-sandbox' &&
      (connection.worker.state === 'disabled' || connection.worker.state === 'failed') ? (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlert />}
          title={
            connection.worker.state === 'disabled'
              ? 'The background worker is disabled'
              : 'The background worker is not running'
          }
        >
          <Text size="sm">{connection.worker.message}</Text>
        </Alert>
      ) : null}
      <Card withBorder padding="lg" component="section" aria-labelledby="jobs-title">
        <Group justify="space-between" align="flex-start" mb="sm">
          <Title order={2} size="h4" id="jobs-title">
            Jobs
          </Title>
          {offered.includes('jobs/get') ? <WatchById known={jobs.data?.rows.map((job) => job.jobId) ?? []} /> : null}
        </Group>
        {body}
      </Card>
      <Card withBorder padding="lg" component="section" aria-labelledby="guidance-title">
        <Title order={2} size="h4" id="guidance-title">
          When to run which
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          For blocking changes, follow the staged procedure: deploy the union of old and new rules, keep the previous
          key inactive, re-index and wait for completed, then deploy the final rules.
        </Text>
        <GuidanceTable />
      </Card>
      {mayStart && starting ? (
        <Suspense fallback={null}>
          <StartJobModal
            opened
            onClose={() => {
              setStarting(false);
            }}
            connection={connectionKey}
            canStart={canStart}
          />
        </Suspense>
      ) : null}
    </Stack>
  );
}
