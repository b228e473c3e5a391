/**
 * How far a job is. A progress bar only when the population total is known (spec item 13: no percentage
 * without a reliable total); otherwise the work done and an items-per-second rate.
 */
import { Group, Progress, Stack, Text } from '@mantine/core';
import { useSyncExternalStore } from 'react';
import type { JobState } from '../../../engine/contract/maintenance.ts';
import { useSamples } from '../../client/context.tsx';
import { recentRate } from '../../hooks/throughput.ts';
import { formatCount, formatRate, formatRemaining } from '../../format.ts';
import { isActive, isStalled, itemsDone, PHASE_LABEL, phaseEstimate, progressOf } from './job-text.ts';

/** How a job that stopped short ended, in words ("The job ended failed" read oddly). */
const ENDED_HOW: Partial<Record<JobState['status'], string>> = {
  failed: 'failed',
  cancelled: 'was cancelled',
  stopped: 'was stopped',
};

export function useJobSamples(jobId: string) {
  const samples = useSamples();
  return useSyncExternalStore(
    (listener) => samples.subscribe(listener),
    () => samples.of(jobId),
  );
}

export function JobProgress({ job }: { readonly job: JobState }) {
  const samples = useJobSamples(job.jobId);
  const progress = progressOf(job);
  const rate = job.status === 'running' ? recentRate(samples) : null;
  const done = itemsDone(job);
  if (job.startedAt === null && !isActive(job)) {
    return (
      <Text size="sm" c="dimmed" data-testid="job-progress">
        The job never started: no phase ran.
      </Text>
    );
  }
  const stalled = isStalled(job);
  const estimate = stalled ? null : phaseEstimate(job);
  return (
    <Stack gap={6} data-testid="job-progress">
      {progress !== null && (job.status === 'running' || job.status === 'completed') ? (
        <>
          <Group justify="space-between">
            <Text size="sm" fw={500}>
              Overall progress (identities, all phases)
            </Text>
            <Text size="sm" fw={600} data-testid="job-percent">
              {Math.floor(progress.overall * 100)}%
            </Text>
          </Group>
          <Progress
            value={progress.overall * 100}
            size="lg"
            aria-label="Overall progress"
            animated={job.status === 'running'}
            striped={job.status === 'running'}
          />
          <Text size="sm" c="dimmed">
            Of {formatCount(job.populationTotal ?? 0)} active identities when the job started, in each phase. Phases
            differ in cost per identity, so this is work done, not time.
          </Text>
          {estimate === null ? null : (
            <Text size="sm" data-testid="job-eta">
              {estimate.remainingMs === null
                ? `${PHASE_LABEL[estimate.phase]}: measuring its pace…`
                : `${PHASE_LABEL[estimate.phase]}: ${formatRemaining(estimate.remainingMs)} left at its pace so far`}
              {estimate.later.length === 0
                ? ', the last phase.'
                : `; then ${estimate.later.map((p) => PHASE_LABEL[p].toLowerCase()).join(' and ')}, whose pace shows once it starts.`}
            </Text>
          )}
        </>
      ) : (
        <Text size="sm" c="dimmed" data-testid="no-percentage">
          {job.status === 'queued'
            ? 'Waiting for the worker to start this job.'
            : job.status === 'running' || job.status === 'completed'
              ? 'No percentage: the population total is not known for this job, so only the work done and the rate are shown.'
              : `The job ${ENDED_HOW[job.status] ?? 'ended'} before its work was done: the counts below are what it did.`}
        </Text>
      )}
      <Group gap="xl">
        <Text size="sm">
          <Text span fw={600}>
            {formatCount(done)}
          </Text>{' '}
          identities processed across phases
        </Text>
        {job.status === 'running' && (
          <Text size="sm" data-testid="job-rate">
            {stalled ? (
              'No worker is running it now: it resumes from its last committed batch when a worker claims it.'
            ) : rate === null ? (
              'Rate: measuring…'
            ) : (
              <>
                Rate:{' '}
                <Text span fw={600}>
                  {formatRate(rate)}
                </Text>{' '}
                identities/s
              </>
            )}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
