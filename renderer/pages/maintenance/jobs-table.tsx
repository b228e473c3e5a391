/** The jobs list: newest first, history kept; each job's ID is a link to its detail (keyboard-reachable). */
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

export function JobsTable({ jobs }: { readonly jobs: readonly JobState[] }) {
  return (
    <Table.ScrollContainer minWidth={1040}>
      <Table highlightOnHover verticalSpacing="sm" aria-label="Maintenance jobs, newest first" data-testid="jobs-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Job</Table.Th>
            <Table.Th miw={120}>Status</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Phase</Table.Th>
            <Table.Th>Reason</Table.Th>
            <Table.Th>Review cases</Table.Th>
            <Table.Th>Duration</Table.Th>
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
              </Table.Td>
              <Table.Td>
                <JobStatusBadge job={job} size="sm" />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{KIND_LABEL[job.kind]}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {phaseCellText(job)}
                </Text>
              </Table.Td>
              <Table.Td maw={220}>
                <Text size="sm" lineClamp={2} title={job.reason}>
                  {job.reason}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" data-testid="job-reviews">
                  {job.startedAt === null ? '—' : formatCount(job.counters.reviewCreated)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {job.startedAt === null
                    ? '—'
                    : `${formatDuration(Date.parse(job.finishedAt ?? new Date().toISOString()) - Date.parse(job.startedAt))}${job.finishedAt === null ? ' so far' : ''}`}
                </Text>
              </Table.Td>
              <Table.Td>
                <TableDate iso={job.createdAt} />
              </Table.Td>
              <Table.Td>
                <TableDate iso={job.finishedAt} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
