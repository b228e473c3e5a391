/**
 * The console's data in React Query's cache: the status (connection), the jobs list and each job. Pushed
 * events are written straight into the cache, so active jobs refresh without any reload or polling here.
 */
import { useEffect } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { sandboxCreationEnded, type ConsoleStatus } from '../../console-protocol/protocol.ts';
import type { JobState } from '../../engine/contract/maintenance.ts';
import type { ConsoleClient } from '../client/client.ts';
import { useClient, useSamples } from '../client/context.tsx';
import type { ThroughputSamples } from './throughput.ts';
import { connectionKey, keys } from './query-keys.ts';

export const JOBS_LIMIT = 100;

function byNewest(a: JobState, b: JobState): number {
  return b.createdAt.localeCompare(a.createdAt) || b.jobId.localeCompare(a.jobId);
}

/** The newest jobs, and where the older ones continue (jobs/list's cursor; null: no older job, or not known). */
export interface JobsPage {
  readonly rows: JobState[];
  readonly nextCursor: string | null;
}

/** Puts a pushed (or just started) job into the list and its own entry. */
export function storeJob(queryClient: QueryClient, connection: string, job: JobState): void {
  queryClient.setQueryData<JobState>(keys.job(connection, job.jobId), job);
  queryClient.setQueryData<JobsPage>(keys.jobs(connection), (old) => {
    if (old === undefined) return old;
    const rows = old.rows.some((row) => row.jobId === job.jobId)
      ? old.rows.map((row) => (row.jobId === job.jobId ? job : row))
      : [job, ...old.rows];
    return { ...old, rows: rows.sort(byNewest).slice(0, JOBS_LIMIT) };
  });
}

/** Wires the backend's pushes into the cache for as long as the app runs. */
export function usePushes(client: ConsoleClient, queryClient: QueryClient, samples: ThroughputSamples): void {
  useEffect(() => {
    const connection = (): string => connectionKey(queryClient.getQueryData<ConsoleStatus>(keys.status));
    const offJob = client.subscribe('job/updated', (job) => {
      samples.record(job);
      storeJob(queryClient, connection(), job);
    });
    const offConnection = client.subscribe('connection/changed', (status) => {
      queryClient.setQueryData(keys.status, status);
    });
    const offProgress = client.subscribe('sandbox/progress', (progress) => {
      queryClient.setQueryData<ConsoleStatus>(keys.status, (old) =>
        old === undefined ? old : { ...old, creating: sandboxCreationEnded(progress.stage) ? null : progress },
      );
    });
    return () => {
      offJob();
      offConnection();
      offProgress();
    };
  }, [client, queryClient, samples]);
}

/**
 * The status. The jobs list is asked for once the status names a connection (useJobs): asked beside it, a console
 * with nothing open got a refusal (409) that the browser logs as an error, for one loopback round trip saved.
 */
export function useConsoleStatus() {
  const client = useClient();
  return useQuery({ queryKey: keys.status, queryFn: () => client.send('console/status', {}) });
}

/**
 * The jobs list: the registry's own (jobs/list) where the connection offers it, else the jobs this console
 * remembers (started or watched here), each read by ID.
 */
export function useJobs(connection: string, remembered?: readonly string[]) {
  const client = useClient();
  return useQuery({
    queryKey: keys.jobs(connection),
    queryFn: async () => {
      if (remembered === undefined) return client.send('jobs/list', { limit: JOBS_LIMIT });
      const rows = await Promise.all(remembered.map((jobId) => client.send('jobs/get', { jobId }).catch(() => null)));
      return { rows: rows.filter((row): row is JobState => row !== null).sort(byNewest), nextCursor: null };
    },
  });
}

export function useJob(connection: string, jobId: string) {
  const client = useClient();
  const samples = useSamples();
  return useQuery({
    queryKey: keys.job(connection, jobId),
    // Watching (rather than a plain get) makes the backend push this job's changes until it ends.
    queryFn: async () => {
      const job = await client.send('console/watch-job', { jobId });
      samples.record(job);
      return job;
    },
  });
}

export function useProfile(connection: string, enabled: boolean) {
  const client = useClient();
  return useQuery({ queryKey: keys.profile(connection), queryFn: () => client.send('profile/get', {}), enabled });
}

export { useQueryClient };
