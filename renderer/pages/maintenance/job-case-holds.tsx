/**
 * What held the review cases a job opened, in words under its count of cases ("Possible twin, names alike 2, No rule
 * 1"): the review list's own counts by hold for that job, every status, read once the job has cases.
 */
import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../client/context.tsx';
import { keys } from '../../hooks/query-keys.ts';
import { formatCount } from '../../format.ts';
import { holdTitle } from '../reviews/held-filter.ts';

export function JobCaseHolds({
  connectionKey,
  jobId,
  cases,
}: {
  readonly connectionKey: string;
  readonly jobId: string;
  /** The job's cases as its counters say: read again when they grow. */
  readonly cases: number;
}) {
  const client = useClient();
  const input = { jobId, status: 'all', withHolds: true, limit: 1 } as const;
  const holds = useQuery({
    queryKey: [...keys.reviews(connectionKey, input), cases],
    queryFn: () => client.send('reviews/list', input),
  });
  const counted = holds.data?.holds ?? [];
  if (counted.length === 0) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="job-review-holds">
      {counted.map((h) => `${holdTitle(h.limitedBy, h.twinReason)} ${formatCount(h.cases)}`).join(', ')}
    </Text>
  );
}
