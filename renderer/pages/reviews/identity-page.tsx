/**
 * One enterprise identity: its canonical record (each surviving value and the record it came from), its records and
 * its history in time order (how each record arrived and was decided, updates, rebuilds, review cases and
 * decisions), reached from a review case.
 */
import { Anchor, Badge, Card, Code, Group, Stack, Table, Text, Timeline, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Connection } from '../../../console-protocol/protocol.ts';
import { historyText, type HistoryEvent, type IdentityHistory } from '../../../engine/contract/identity-history.ts';
import { useClient } from '../../client/context.tsx';
import { paths } from '../../hooks/route.ts';
import { formatCountOf, formatDateTime } from '../../format.ts';
import { QueryState } from './query-state.tsx';
import { ReviewsBreadcrumb } from './reviews-breadcrumb.tsx';
import { unavailableReason } from './availability.ts';
import { keys } from '../../hooks/query-keys.ts';
import { TableDate } from '../../layout/table-date.tsx';
import { usePaged } from '../../layout/pager.tsx';
import { CanonicalRecordCard } from './canonical-record-card.tsx';
import { IdentityRecordsCard } from './identity-records-card.tsx';

const COLOR: Record<HistoryEvent['kind'], string> = {
  'identity-created': 'blue',
  'record-joined': 'teal',
  'record-linked': 'gray',
  'record-updated': 'cyan',
  'canonical-rebuilt': 'violet',
  'review-case-opened': 'orange',
  'review-decided': 'grape',
};

const TITLE: Record<HistoryEvent['kind'], string> = {
  'identity-created': 'Identity created',
  'record-joined': 'Record joined',
  'record-linked': 'Record linked',
  'record-updated': 'Record updated',
  'canonical-rebuilt': 'Canonical record rebuilt',
  'review-case-opened': 'Review case opened',
  'review-decided': 'Review decision',
};

export default function IdentityPage({
  connection,
  connectionKey,
  enterpriseId,
}: {
  readonly connection: Connection;
  readonly connectionKey: string;
  readonly enterpriseId: string;
}) {
  const client = useClient();
  const unavailable = connection.capabilities.operations.includes('identities/history')
    ? unavailableReason(connection)
    : 'This registry does not offer identity histories: its API is older than this console.';
  const history = useQuery({
    queryKey: keys.identityHistory(connectionKey, enterpriseId),
    queryFn: () => client.send('identities/history', { enterpriseId, withValues: true }),
    enabled: unavailable === null,
    retry: false,
  });
  return (
    <Stack gap="lg" maw={1100}>
      <ReviewsBreadcrumb current="Identity" />
      <div>
        <Title order={1} size="h2">
          Identity
        </Title>
        <Code mt={4}>{enterpriseId}</Code>
      </div>
      <QueryState
        unavailable={unavailable}
        unavailableTitle="Identity histories are not available here"
        failureTitle="This identity could not be read"
        query={history}
      >
        {(data) => (
          <>
            <Group gap="sm" mt={-8}>
              <Badge color={data.status === 'active' ? 'teal' : 'gray'} variant="light">
                {data.status === 'active' ? 'Active' : 'Retired'}
              </Badge>
              <Text size="sm">
                Version {data.version} · created {formatDateTime(data.createdAt)} ·{' '}
                {formatCountOf(data.records.length, 'record')}
              </Text>
            </Group>
            {data.canonical === undefined ? null : (
              <>
                <CanonicalRecordCard canonical={data.canonical} recordsNow={data.records.length} />
                <IdentityRecordsCard records={data.records} canonical={data.canonical} />
              </>
            )}
            <LinksCard records={data.records} />
            <HistoryCard events={data.events} recordsWithoutDetail={data.recordsWithoutDetail} />
          </>
        )}
      </QueryState>
    </Stack>
  );
}

/** Records and history are drawn this many at a time: a very large identity's thousands would freeze the window. */
const SHOWN_AT_ONCE = 50;

function LinksCard({ records }: { readonly records: IdentityHistory['records'] }) {
  const { shown, pager } = usePaged(records, SHOWN_AT_ONCE, 'Records');
  return (
    <Card withBorder padding="md" bg="var(--mantine-color-white)" component="section" aria-labelledby="links-title">
      <Title order={2} size="h4" id="links-title" mb="sm">
        Its records and their links
      </Title>
      <Table aria-label="The identity's records">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Source</Table.Th>
            <Table.Th>Local ID</Table.Th>
            <Table.Th>Linked</Table.Th>
            <Table.Th>Link</Table.Th>
            <Table.Th>Score</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((r) => (
            <Table.Tr key={`${r.sourceSystem}/${r.localId}`}>
              <Table.Td>{r.sourceSystem}</Table.Td>
              <Table.Td>
                <bdi>{r.localId}</bdi>
              </Table.Td>
              <Table.Td>
                <TableDate iso={r.linkedAt} />
              </Table.Td>
              <Table.Td>{r.linkKind}</Table.Td>
              <Table.Td>{r.score === null ? '—' : r.score.toFixed(4)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {pager}
    </Card>
  );
}

function HistoryCard({
  events,
  recordsWithoutDetail,
}: {
  readonly events: readonly HistoryEvent[];
  readonly recordsWithoutDetail: number;
}) {
  const { shown, offset, pager } = usePaged(events, SHOWN_AT_ONCE, 'Events');
  return (
    <Card withBorder padding="md" bg="var(--mantine-color-white)" component="section" aria-labelledby="history-title">
      <Title order={2} size="h4" id="history-title" mb="sm">
        What happened, in order
      </Title>
      {recordsWithoutDetail > 0 ? (
        <Text size="sm" c="dimmed" mb="sm">
          {recordsWithoutDetail} record{recordsWithoutDetail === 1 ? ' was' : 's were'} linked before the history was
          kept: their link time, kind and score are shown, not how the link was decided.
        </Text>
      ) : null}
      <Timeline bulletSize={14} lineWidth={2} data-testid="identity-history">
        {shown.map((e, i) => (
          <Timeline.Item
            key={`${e.at}-${String(offset + i)}`}
            color={COLOR[e.kind]}
            title={TITLE[e.kind]}
            data-kind={e.kind}
          >
            <Text size="sm">
              {historyText(e)}
              {e.caseId === null || e.kind !== 'review-case-opened' ? null : (
                <>
                  {' · '}
                  <Anchor href={paths.review(e.caseId)} size="sm">
                    open the case
                  </Anchor>
                </>
              )}
              {e.jobId === null ? null : (
                <>
                  {' · '}
                  <Anchor href={paths.job(e.jobId)} size="sm">
                    the job
                  </Anchor>
                </>
              )}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDateTime(e.at)}
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
      {pager}
    </Card>
  );
}
