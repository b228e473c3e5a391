/** The jobs list's filters (pure: the page and its tests share them). */
import type { JobKind, JobState } from '../../../engine/contract/maintenance.ts';

export type StatusFilter = 'all' | 'active' | 'completed' | 'ended-otherwise';
export type KindFilter = 'all' | JobKind;

export const STATUS_FILTERS: readonly { readonly value: StatusFilter; readonly label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Queued or running' },
  { value: 'completed', label: 'Completed' },
  { value: 'ended-otherwise', label: 'Failed, stopped or cancelled' },
];

function statusMatches(job: JobState, filter: StatusFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'active':
      return job.status === 'queued' || job.status === 'running';
    case 'completed':
      return job.status === 'completed';
    case 'ended-otherwise':
      return job.status === 'failed' || job.status === 'stopped' || job.status === 'cancelled';
  }
}

/** The jobs shown: newest first, each once (a job on two pages counts once), matching both filters. */
export function filterJobs(
  pages: readonly (readonly JobState[])[],
  status: StatusFilter,
  kind: KindFilter,
): JobState[] {
  const seen = new Set<string>();
  const out: JobState[] = [];
  for (const job of pages.flat()) {
    if (seen.has(job.jobId)) continue;
    seen.add(job.jobId);
    if (statusMatches(job, status) && (kind === 'all' || job.kind === kind)) out.push(job);
  }
  return out;
}
