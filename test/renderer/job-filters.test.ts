/** The jobs list's filters over the pages loaded: each job once, by status group and kind, newest first kept. */
import { describe, expect, it } from 'vitest';
import type { JobState } from '../../engine/contract/maintenance.ts';
import { filterJobs } from '../../renderer/pages/maintenance/job-filters.ts';

const job = (jobId: string, status: JobState['status'], kind: JobState['kind']): JobState =>
  ({ jobId, status, kind }) as JobState;

describe('the jobs list filters', () => {
  const newest = [
    job('j5', 'running', 'reconciliation'),
    job('j4', 'completed', 'reindex'),
    job('j3', 'failed', 'reconciliation'),
  ];
  const older = [
    job('j3', 'failed', 'reconciliation'),
    job('j2', 'cancelled', 'reindex'),
    job('j1', 'queued', 'reindex'),
  ];
  const ids = (jobs: readonly JobState[]): string[] => jobs.map((j) => j.jobId);

  it('keeps every job once, in page order, when nothing is filtered', () => {
    expect(ids(filterJobs([newest, older], 'all', 'all'))).toEqual(['j5', 'j4', 'j3', 'j2', 'j1']);
  });

  it('filters by status group and by kind, together', () => {
    expect(ids(filterJobs([newest, older], 'active', 'all'))).toEqual(['j5', 'j1']);
    expect(ids(filterJobs([newest, older], 'completed', 'all'))).toEqual(['j4']);
    expect(ids(filterJobs([newest, older], 'ended-otherwise', 'all'))).toEqual(['j3', 'j2']);
    expect(ids(filterJobs([newest, older], 'all', 'reindex'))).toEqual(['j4', 'j2', 'j1']);
    expect(ids(filterJobs([newest, older], 'ended-otherwise', 'reindex'))).toEqual(['j2']);
  });
});
