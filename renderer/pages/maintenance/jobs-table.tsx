/**
 * The jobs list: newest first, history kept; each job's ID is a link to its detail (keyboard-reachable). Its kind goes
 * under the ID, its phase under its status and its duration under its finish, so the six columns fit the console's
 * narrowest window (960 px) with room for the reason.
 */
import { shortJobId } from './job-id.ts';
import { Anchor, Skeleton, Table, Text } from '@mantine/core';
import type { JobState } from '../../../engine/contract/maintenance.ts';
import { formatCount, formatDuration } from '../../format.ts';
import { TableDate } from '../../layout/table-date.tsx';
import { navigate, paths } from '../../hooks/route.ts';
import { KIND_LABEL, phaseCellText } from './job-text.ts';
import { JobStatusBadge } from './status-badge.tsx';

export function JobsTableSkeleton() {
  return (
    <Table aria-label="Loading jobs" aria-busy="true">
      <Table.Tbody>
        {[0, 1, 2].map((row) => (
          <Table.Tr key={row}>
            {[0, 1, 2, 3, 4, 5].map((cell) => (
              <Table.Td key={cell}>
                <Skeleton height={14} radius="sm" />
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** How long the job ran ("took 9 s"), or has run so far; a dash before it starts. */
function durationText(job: JobState): string {
  if (job.startedAt === null) return '—';
  const took = formatDuration(Date.parse(job.finishedAt ?? new Date().toISOString()) - Date.parse(job.startedAt));
  return job.finishedAt === null ? `${took} so far` : `took ${took}`;
}

export function JobsTable({ jobs }: { readonly jobs: readonly JobState[] }) {
  return (
    <Table.ScrollContainer minWidth={620}>
      <Table
        highlightOnHover
        verticalSpacing="sm"
        horizontalSpacing={6}
        aria-label="Maintenance jobs, newest first"
        data-testid="jobs-table"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Job</Table.Th>
            <Table.Th>Status and phase</Table.Th>
            <Table.Th>Reason</Table.Th>
            <Table.Th>Review cases</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Finished</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {jobs.map((job) => (
            <Table.Tr
              key={job.jobId}
              data-job-id={job.jobId}
              style={{ cursor: 'pointer' }}
              onClick={() => {
                navigate(paths.job(job.jobId));
              }}
            >
              <Table.Td>
                <Anchor
                  href={paths.job(job.jobId)}
                  ff="monospace"
                  size="sm"
                  aria-label={`${KIND_LABEL[job.kind]} job ${job.jobId}`}
                  onClick={(event) => {
                    event.stopPropagation();
                  }}
                >
                  {shortJobId(job.jobId)}
                </Anchor>
                <Text size="sm">{KIND_LABEL[job.kind]}</Text>
              </Table.Td>
              <Table.Td>
                <JobStatusBadge job={job} size="sm" />
                <Text size="xs" c="dimmed" mt={2} data-testid="job-phase">
                  {phaseCellText(job)}
                </Text>
              </Table.Td>
              <Table.Td maw={220}>
                <Text size="sm" lineClamp={3} title={job.reason}>
                  {job.reason}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" data-testid="job-reviews">
                  {job.startedAt === null ? '—' : formatCount(job.counters.reviewCreated)}
                </Text>
              </Table.Td>
              <Table.Td>
                <TableDate iso={job.createdAt} twoLines />
              </Table.Td>
              <Table.Td>
                {job.finishedAt === null ? null : <TableDate iso={job.finishedAt} twoLines />}
                <Text
                  size={job.finishedAt === null ? 'sm' : 'xs'}
                  {...(job.finishedAt === null ? {} : { c: 'dimmed' })}
                >
                  {durationText(job)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
