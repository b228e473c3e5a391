/**
 * One review case: what opened it, both identities (their records, the pair to compare, values beside bands and
 * weights), the decisions recorded, and the form to record one. A stale case (an identity changed since it was
 * opened) is shown as such and cannot be decided. Recording a decision never merges or unlinks.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  List,
  Radio,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Connection } from '../../../console-protocol/protocol.ts';
import { holdsIdentity, type RecordRef } from '../../../engine/contract/matching.ts';
import {
  LINK_FLAG_NAME,
  LINK_FLAG_TEXT,
  MAX_IDENTITY_RECORDS,
  type LinkFlag,
  shownFirstText,
} from '../../../engine/contract/link-quality.ts';
import {
  DECISION_REASON_MAX,
  identityRecordsText,
  REVIEW_DECISION_NAME,
  REVIEW_DECISIONS,
  REVIEW_KIND_NAME,
  type ReviewCaseDetail,
  type ReviewDecision,
} from '../../../engine/contract/reviews.ts';
import { useClient } from '../../client/context.tsx';
import { oneLineProblem } from '../../one-line-reason.ts';
import { paths } from '../../hooks/route.ts';
import { useProfile } from '../../hooks/console-data.ts';
import { keys } from '../../hooks/query-keys.ts';
import { NextCase } from './next-case.tsx';
import { RecordGraph } from './record-graph.tsx';
import { QueryState } from './query-state.tsx';
import { ReviewsBreadcrumb } from './reviews-breadcrumb.tsx';
import { formatDateTime } from '../../format.ts';
import { IconAlert, IconCheck, IconInfo } from '../../icons.tsx';
import { shortJobId } from '../maintenance/job-id.ts';
import { PairRecords } from '../assurance/pair-records.tsx';
import { holdWhy, LIMIT_TEXT } from '../../../engine/contract/score-explanation.ts';
import { DECISION_COLOR, shortCaseId } from './review-text.ts';
import { unavailableReason } from './availability.ts';
import { TableDate } from '../../layout/table-date.tsx';

const refKey = (ref: RecordRef): string => `${ref.sourceSystem}\u0000${ref.localId}`;

function fromKey(key: string): RecordRef {
  const [sourceSystem = '', localId = ''] = key.split('\u0000');
  return { sourceSystem, localId };
}

function Facts({ detail }: { readonly detail: ReviewCaseDetail }) {
  const c = detail.case;
  const side = (label: string, caseVersion: number, now: ReviewCaseDetail['left']): [string, React.ReactNode] => [
    label,
    <span key={label}>
      <Anchor
        href={paths.identity(now.enterpriseId)}
        ff="monospace"
        size="sm"
        aria-label={`Identity ${now.enterpriseId}: its records and history`}
      >
        {now.enterpriseId}
      </Anchor>{' '}
      · {identityRecordsText(now)} · version {caseVersion}
      {now.version !== caseVersion ? ` when opened, ${String(now.version)} now` : ''}
      {now.active ? '' : ' · retired'}
    </span>,
  ];
  const rows: [string, React.ReactNode][] = [
    ['Kind', REVIEW_KIND_NAME[c.kind]],
    ...(c.kind === 'LinkQuality' && detail.flags !== undefined && detail.flags !== null
      ? [['Flagged', <FlagList key="flags" flags={detail.flags} />] as [string, React.ReactNode]]
      : []),
    c.kind === 'LinkQuality'
      ? [
          'Weakest link',
          `${c.score.toFixed(4)} under profile version ${String(c.matchingProfileVersion)} (the lowest score that holds the records together)`,
        ]
      : [
          'Score',
          <span key="score">
            {`${c.score.toFixed(4)} (${c.decision === 'certain' ? 'certain' : 'probable'} under profile version ${String(c.matchingProfileVersion)})`}
            {c.limitedBy === null ? null : (
              <Text component="span" size="sm" c="dimmed" display="block">
                Held at the Probable threshold when opened ({LIMIT_TEXT[c.limitedBy].name}
                {c.heldFrom === null ? '' : `; its fields scored ${c.heldFrom.toFixed(4)}`}):{' '}
                {/* A hold on the identity has no rule line under the pair compared below: its reason is said here. */}
                {holdWhy(c.limitedBy, c.twinReason, holdsIdentity(c.limitedBy) ? 'why' : 'brief')}.
              </Text>
            )}
            {c.decision === 'certain' ? (
              <Text component="span" size="sm" c="dimmed" display="block">
                Certain, yet a case: only a record that arrives is linked automatically; two identities are never joined
                without a person, however well they match.
              </Text>
            ) : null}
          </span>,
        ],
    [
      'Opened',
      <span key="opened">
        {formatDateTime(c.createdAt)}
        {c.jobId !== null ? (
          <>
            {' by '}
            <Anchor href={paths.job(c.jobId)} size="sm">
              job {shortJobId(c.jobId)}
            </Anchor>
          </>
        ) : c.sourceSystem !== null ? (
          ` by an ingest from ${c.sourceSystem}`
        ) : c.kind === 'LinkQuality' ? (
          ' by a link quality scan'
        ) : null}
      </span>,
    ],
    ...(c.kind === 'LinkQuality'
      ? [side('Identity', c.leftVersion, detail.left)]
      : [side('First identity', c.leftVersion, detail.left), side('Second identity', c.rightVersion, detail.right)]),
  ];
  return (
    <Table variant="vertical" layout="fixed" aria-label="Case details">
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={160}>{label}</Table.Th>
            <Table.Td style={{ wordBreak: 'break-word' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Why a link quality case asks: the flags its identity's records raise now, each with what it means. */
function FlagList({ flags }: { readonly flags: readonly LinkFlag[] }) {
  if (flags.length === 0)
    return (
      <Text size="sm" data-testid="case-flags">
        Nothing now: judged again under the active profile and the scan&apos;s default bound of {MAX_IDENTITY_RECORDS}{' '}
        records, the identity&apos;s records raise no flag. They or the profile changed since the scan, or the scan used
        a smaller bound.
      </Text>
    );
  return (
    <List size="sm" spacing={2} data-testid="case-flags">
      {flags.map((flag) => (
        <List.Item key={flag}>
          <b>{LINK_FLAG_NAME[flag]}</b>: {LINK_FLAG_TEXT[flag]}
        </List.Item>
      ))}
    </List>
  );
}

function Comparison({
  detail,
  probable,
}: {
  readonly detail: ReviewCaseDetail;
  readonly probable: number | undefined;
}) {
  const best = detail.bestPair;
  const [left, setLeft] = useState(best === null ? undefined : refKey(best.left));
  const [right, setRight] = useState(best === null ? undefined : refKey(best.right));
  const options = (records: readonly RecordRef[]) =>
    records.map((r) => ({ value: refKey(r), label: `${r.sourceSystem} / ${r.localId}` }));
  if (best === null || left === undefined || right === undefined) {
    return <Text size="sm">One of the identities has no linked record left to compare.</Text>;
  }
  const oneIdentity = detail.graph !== null;
  const records = detail.left.records;
  // Past the scan's bound for one person, thousands of edges would be a blot, not a picture: the page says so instead.
  const graphed = oneIdentity && records.length <= MAX_IDENTITY_RECORDS;
  const indexOf = (key: string): number => records.findIndex((r) => refKey(r) === key);
  const [a, b] = [indexOf(left), indexOf(right)].sort((x, y) => x - y);
  return (
    <Stack gap="sm">
      {oneIdentity && !graphed ? (
        <Text size="sm" maw={760} data-testid="graph-too-large">
          {`This identity holds ${identityRecordsText(detail.left)}: too many to draw pair by pair (the graph shows an identity of up to ${String(MAX_IDENTITY_RECORDS)} records, the most the scan takes for one person).`}
        </Text>
      ) : detail.graph !== null && probable !== undefined ? (
        <RecordGraph
          records={records}
          edges={detail.graph}
          probable={probable}
          selected={a === undefined || b === undefined ? undefined : { a, b }}
          onSelect={(edge) => {
            const [from, to] = [records[edge.a], records[edge.b]];
            if (from === undefined || to === undefined) return;
            setLeft(refKey(from));
            setRight(refKey(to));
          }}
        />
      ) : null}
      <Text size="sm" c="dimmed" data-testid="shown-first">
        {oneIdentity
          ? `The pair shown first: ${shownFirstText(detail.bestPairShows)}. ${graphed ? 'Choose an edge or two records' : 'Choose two records'} to compare others.`
          : 'The pair that scores best under the active profile is shown first (among pairs held at the same score, the one whose fields scored highest before the hold); choose other records of either identity to compare them.'}
      </Text>
      <Group gap="sm" grow>
        <Select
          label={oneIdentity ? 'First record' : 'Record of the first identity'}
          data={options(detail.left.records)}
          value={left}
          onChange={(v) => {
            setLeft(v ?? left);
          }}
          allowDeselect={false}
        />
        <Select
          label={oneIdentity ? 'Second record' : 'Record of the second identity'}
          data={options(detail.right.records)}
          value={right}
          onChange={(v) => {
            setRight(v ?? right);
          }}
          allowDeselect={false}
        />
      </Group>
      <PairRecords
        left={fromKey(left)}
        right={fromKey(right)}
        scoreThen={
          // A link quality case's score is its weakest link: another pair shown first has no score of its own then.
          // A case held on its identity (BareRecord, IdentitiesApart) held no pair: its pair scored what it was held
          // from.
          left === refKey(best.left) &&
          right === refKey(best.right) &&
          (!oneIdentity || (detail.bestPairShows ?? 'weak-bridge') === 'weak-bridge')
            ? detail.case.limitedBy !== null && holdsIdentity(detail.case.limitedBy)
              ? (detail.case.heldFrom ?? undefined)
              : detail.case.score
            : undefined
        }
        then="the case when it was opened"
      />
    </Stack>
  );
}

function DecisionForm({
  detail,
  connectionKey,
  onRecorded,
}: {
  readonly detail: ReviewCaseDetail;
  readonly connectionKey: string;
  /** Once the case on screen has been read again with the decision. */
  readonly onRecorded: (decision: ReviewDecision) => void;
}) {
  const client = useClient();
  const queryClient = useQueryClient();
  const [decision, setDecision] = useState<ReviewDecision | null>(null);
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const record = useMutation({
    mutationFn: (input: { decision: ReviewDecision; reason: string }) =>
      client.send('reviews/decide', { caseId: detail.case.caseId, ...input }),
    onSuccess: async (_, input) => {
      setDecision(null);
      setReason('');
      setTried(false);
      await queryClient.invalidateQueries({ queryKey: keys.review(connectionKey, detail.case.caseId) });
      await queryClient.invalidateQueries({ queryKey: keys.reviews(connectionKey) });
      onRecorded(input.decision);
    },
  });
  const trimmed = reason.trim();
  const notOneLine = oneLineProblem(trimmed);
  const reasonError = !tried
    ? undefined
    : trimmed === ''
      ? 'Say why, in a few words (the evidence you relied on); it is kept with the decision.'
      : notOneLine;
  const decisionError = tried && decision === null ? 'Choose a decision.' : undefined;
  return (
    <form
      aria-label="Record a decision"
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (decision === null || trimmed === '' || notOneLine !== undefined) return;
        record.mutate({ decision, reason: trimmed });
      }}
    >
      <Stack gap="sm">
        <Radio.Group
          label="Decision"
          value={decision}
          onChange={(v) => {
            setDecision(v);
          }}
          error={decisionError}
          withAsterisk
        >
          <Group gap="lg" mt={6}>
            {REVIEW_DECISIONS.map((d) => (
              <Radio key={d} value={d} label={REVIEW_DECISION_NAME[d]} />
            ))}
          </Group>
        </Radio.Group>
        <Textarea
          label="Reason"
          description={`Up to ${String(DECISION_REASON_MAX)} characters. Kept with the decision for other reviewers; never copied into the audit log. Ctrl+Enter records it.`}
          value={reason}
          onChange={(event) => {
            setReason(event.currentTarget.value);
          }}
          onKeyDown={(event) => {
            // The reviewer's hands are on the keys: Ctrl+Enter (⌘+Enter on a Mac) records, as in a chat or a ticket.
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
          maxLength={DECISION_REASON_MAX}
          autosize
          minRows={2}
          error={reasonError}
          withAsterisk
        />
        <Text size="xs" c="dimmed">
          {detail.case.kind === 'LinkQuality'
            ? 'Same person: the identity’s links are right, and it is not asked again while its records stay as they are. Different people: the identity holds more than one person; unlink it through your organisation’s governed process (the console does not unlink). Unsure keeps the case open.'
            : 'Same person resolves the case for your organisation’s merge process (the console does not merge). Different people resolves it and is remembered: the pair is not asked again while neither identity’s records change. Unsure keeps it open.'}
        </Text>
        {record.error !== null ? (
          <Alert color="red" variant="light" icon={<IconAlert />} title="The decision was not recorded" role="alert">
            <Text size="sm">{record.error.message}</Text>
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={record.isPending} leftSection={<IconCheck size={16} />}>
            Record decision
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Decisions({ detail }: { readonly detail: ReviewCaseDetail }) {
  if (detail.decisions.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No decision recorded yet.
      </Text>
    );
  return (
    <Table aria-label="Decisions recorded on this case">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>When</Table.Th>
          <Table.Th>Who</Table.Th>
          <Table.Th>Decision</Table.Th>
          <Table.Th>Reason</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {detail.decisions.map((d) => (
          <Table.Tr key={`${d.decidedAt}-${d.decision}`}>
            <Table.Td>
              <TableDate iso={d.decidedAt} />
            </Table.Td>
            <Table.Td>{d.actor}</Table.Td>
            <Table.Td>
              <Badge color={DECISION_COLOR[d.decision]} variant="light">
                {REVIEW_DECISION_NAME[d.decision]}
              </Badge>
            </Table.Td>
            <Table.Td style={{ wordBreak: 'break-word' }}>{d.reason}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * A case whose form waits for this reviewer's first answer: the way to the next case shows only once it is answered
 * (or cannot be), so a reason being written is never left behind by a click.
 */
function awaitsDecision(c: ReviewCaseDetail['case']): boolean {
  return c.status === 'open' && !c.stale && c.review === null;
}

export default function ReviewCasePage({
  connection,
  connectionKey,
  caseId,
}: {
  readonly connection: Connection;
  readonly connectionKey: string;
  readonly caseId: string;
}) {
  const client = useClient();
  const unavailable = unavailableReason(connection);
  const detail = useQuery({
    queryKey: keys.review(connectionKey, caseId),
    queryFn: () => client.send('reviews/get', { caseId }),
    enabled: unavailable === null,
    retry: false,
  });
  const profile = useProfile(connectionKey, detail.data?.case.kind === 'LinkQuality');
  const heading = useRef<HTMLHeadingElement>(null);
  // The decision just recorded on this case, said beside the decisions. Recorded, this case is done with for now (a
  // decision that resolves it takes the form away with the button that had focus): focus goes to the heading, and on
  // to "Next waiting case" once it shows.
  const [recorded, setRecorded] = useState<{ caseId: string; decision: ReviewDecision } | null>(null);
  const justRecorded = recorded?.caseId === caseId ? recorded.decision : null;
  // Arrived from a link that is gone now (a case on the list, "Next waiting case"): the page starts at its heading,
  // where the reading and the next Tab begin, rather than at the top of the window.
  useEffect(() => {
    if (document.activeElement === null || document.activeElement === document.body) heading.current?.focus();
  }, [caseId]);
  return (
    <Stack gap="lg" maw={1200}>
      <ReviewsBreadcrumb current={`Case ${shortCaseId(caseId)}`} />
      <Group justify="space-between" align="center">
        <Group gap="sm" align="center">
          <Title order={1} size="h2" ref={heading} tabIndex={-1}>
            Review case {shortCaseId(caseId)}
          </Title>
          {detail.data === undefined ? null : detail.data.case.status === 'dismissed' ? (
            <Badge color="gray" variant="light" size="lg">
              Superseded
            </Badge>
          ) : detail.data.case.review !== null ? (
            <Badge color={DECISION_COLOR[detail.data.case.review.decision]} variant="light" size="lg">
              {REVIEW_DECISION_NAME[detail.data.case.review.decision]}
            </Badge>
          ) : (
            <Badge color="blue" variant="light" size="lg">
              Waiting for a decision
            </Badge>
          )}
        </Group>
        {unavailable === null && detail.data !== undefined && !awaitsDecision(detail.data.case) ? (
          <NextCase connectionKey={connectionKey} caseId={caseId} focusFrom={justRecorded === null ? null : heading} />
        ) : null}
      </Group>
      <QueryState
        unavailable={unavailable}
        unavailableTitle="Review cases are not available here"
        failureTitle="This case could not be read"
        query={detail}
      >
        {(data) => (
          <>
            <Card withBorder padding="md" bg="var(--mantine-color-white)">
              <Facts detail={data} />
            </Card>
            {data.case.status === 'dismissed' ? (
              <Note
                color="gray"
                variant="light"
                icon={<IconInfo />}
                title="This case was superseded"
                data-testid="superseded-case"
              >
                <Text size="sm">
                  A newer case asks about the same identities at their current versions, so this one was closed and is
                  kept as history: decide the newer one.{' '}
                  {data.supersededBy === null ? null : (
                    <Anchor href={paths.review(data.supersededBy)} size="sm">
                      Open case {shortCaseId(data.supersededBy)}
                    </Anchor>
                  )}
                </Text>
              </Note>
            ) : data.case.stale ? (
              <Note
                color="orange"
                variant="light"
                icon={<IconAlert />}
                title="This case is out of date"
                data-testid="stale-case"
              >
                <Text size="sm">
                  One of these identities changed since the case was opened (a record arrived, changed or was rebuilt),
                  so a decision would be refused. Run a reconciliation on the Maintenance page: it asks about the pair
                  again at the identities&apos; current versions if it still needs a person.
                </Text>
              </Note>
            ) : null}
            <Card withBorder padding="md" bg="var(--mantine-color-white)">
              <Title order={2} size="h4" mb="sm">
                Compare the records
              </Title>
              <Comparison detail={data} probable={profile.data?.profile.MatchingRules.Thresholds.Probable} />
            </Card>
            <Card withBorder padding="md" bg="var(--mantine-color-white)">
              <Title order={2} size="h4" mb="sm">
                Decisions
              </Title>
              <Stack gap="md">
                <Decisions detail={data} />
                <div role="status">
                  {justRecorded === null ? null : (
                    <Text size="sm" c="teal.9" data-testid="decision-recorded">
                      Recorded: {REVIEW_DECISION_NAME[justRecorded]}.
                    </Text>
                  )}
                </div>
                {data.case.status === 'open' && !data.case.stale ? (
                  <DecisionForm
                    detail={data}
                    connectionKey={connectionKey}
                    onRecorded={(decision) => {
                      setRecorded({ caseId, decision });
                      heading.current?.focus();
                    }}
                  />
                ) : null}
              </Stack>
            </Card>
          </>
        )}
      </QueryState>
    </Stack>
  );
}
