/**
 * Review cases: the pairs of identities the jobs and ingestion asked a person about, with filters (status, kind,
 * the job that opened them), sort and paging. A case opens on its own page beside both identities' records.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  CloseButton,
  Group,
  Select,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import type { Connection } from '../../../console-protocol/protocol.ts';
import { unavailableReason } from './availability.ts';
import { DecidedByHold } from './decided-by-hold.tsx';
import {
  REVIEW_DECISION_NAME,
  REVIEW_KIND_NAME,
  REVIEW_KINDS,
  REVIEW_SORTS,
  type ReviewCase,
  type ReviewListRow,
} from '../../../engine/contract/reviews.ts';
import { holdName, holdWhy } from '../../../engine/contract/score-explanation.ts';
import { LINK_FLAG_NAME } from '../../../engine/contract/link-quality.ts';
import { useClient } from '../../client/context.tsx';
import { navigate, paths } from '../../hooks/route.ts';
import { useProfile } from '../../hooks/console-data.ts';
import { keys } from '../../hooks/query-keys.ts';
import { formatDateTime } from '../../format.ts';
import { IconAlert, IconInfo } from '../../icons.tsx';
import { shortJobId } from '../maintenance/job-id.ts';
import { LinkQualityCard } from './link-quality-card.tsx';
import { FindIdentityCard } from './find-identity-card.tsx';
import { FieldStripLegend, FieldsCell } from '../assurance/field-strip.tsx';
import { heldOptions } from './held-filter.ts';
import { listInput, useListView, type ListView } from './list-view.ts';
import {
  LABELS_STATE,
  putPageState,
  REVIEW_QUEUE_LABELS_STATE,
  TAB_STATE,
  TEXT_CODEC,
} from '../../hooks/page-state.ts';
import {
  ageText,
  DECISION_COLOR,
  pageStartWithin,
  pageText,
  shortCaseId,
  SORT_LABEL,
  staleText,
} from './review-text.ts';

const PAGE_SIZE = 50;

const STATUS_OPTIONS = [
  { value: 'open', label: 'Waiting for a decision' },
  { value: 'resolved', label: 'Decided' },
  { value: 'dismissed', label: 'Superseded' },
  { value: 'all', label: 'All' },
];
const KIND_OPTIONS = [
  { value: 'any', label: 'Any kind' },
  ...REVIEW_KINDS.map((k) => ({ value: k, label: REVIEW_KIND_NAME[k] })),
];
const SORT_OPTIONS = REVIEW_SORTS.map((s) => ({ value: s, label: SORT_LABEL[s] }));

/**
 * What opened a case, in one cell: its kind, and under it the job that opened it or the source whose ingest did
 * ("Ingestion / from st-marys-hospital", "Link quality / scan"), so the list needs no column of its own for the kind.
 */
function Origin({ row }: { readonly row: ReviewCase }) {
  return (
    <>
      {REVIEW_KIND_NAME[row.kind]}
      {row.jobId !== null ? (
        <Anchor href={paths.job(row.jobId)} size="xs" display="block">
          job {shortJobId(row.jobId)}
        </Anchor>
      ) : row.sourceSystem !== null ? (
        <Text size="xs" c="dimmed">
          from {row.sourceSystem}
        </Text>
      ) : row.kind === 'LinkQuality' ? (
        <Text size="xs" c="dimmed">
          scan
        </Text>
      ) : null}
    </>
  );
}

/** A link quality case's flags now, named as the case's page names them ("No flag now" when it raises none). */
function flagsText(flags: ReviewListRow['flags']): string {
  if (flags === undefined || flags === null) return '— (one identity)';
  return flags.length === 0 ? 'No flag now' : `Flagged: ${flags.map((flag) => LINK_FLAG_NAME[flag]).join(', ')}`;
}

function CasesTable({ rows, now }: { readonly rows: readonly ReviewListRow[]; readonly now: number }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table
        highlightOnHover
        horizontalSpacing={8}
        aria-label="Review cases"
        style={{ fontVariantNumeric: 'tabular-nums' }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Case</Table.Th>
            <Table.Th>Opened by</Table.Th>
            <Table.Th>Score</Table.Th>
            {/* Wide enough for a hold in two or three lines ("held: possible twin, names alike (from 0.9942)"), while the
                list still fits the desktop window's least width, 960 pixels, without scrolling sideways (the e2e test's
                expectFitsNarrowWindow). */}
            <Table.Th miw={164}>Matched as</Table.Th>
            <Table.Th>Fields</Table.Th>
            <Table.Th>Reviewer</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.caseId} data-testid="review-row">
              <Table.Td>
                <Anchor
                  href={paths.review(row.caseId)}
                  size="sm"
                  ff="monospace"
                  aria-label={`Open case ${shortCaseId(row.caseId)}`}
                >
                  {shortCaseId(row.caseId)}
                </Anchor>
                {/* How long it has waited, under its ID (the date and time on hover). */}
                <Text size="xs" c="dimmed" title={formatDateTime(row.createdAt)} style={{ whiteSpace: 'nowrap' }}>
                  {ageText(row.createdAt, now)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Origin row={row} />
              </Table.Td>
              <Table.Td>
                {row.score.toFixed(4)}
                {/* The score is the profile's: its version says which, under it. */}
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  profile v{row.matchingProfileVersion}
                </Text>
              </Table.Td>
              <Table.Td>
                {row.kind === 'LinkQuality'
                  ? flagsText(row.flags)
                  : row.decision === 'certain'
                    ? 'Certain'
                    : 'Probable'}
                {row.limitedBy === null ? null : (
                  <Text
                    size="xs"
                    c="dimmed"
                    title={`Held at the Probable threshold: ${holdWhy(row.limitedBy, row.twinReason, 'brief')}${row.heldFrom === null ? '' : `; its fields scored ${row.heldFrom.toFixed(4)}`}`}
                  >
                    held: {holdName(row.limitedBy, row.twinReason)}
                    {row.heldFrom === null ? null : ` (from ${row.heldFrom.toFixed(4)})`}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <FieldsCell evidence={row.evidence} />
              </Table.Td>
              <Table.Td>
                {row.status === 'dismissed' ? (
                  <Badge color="gray" variant="light" title="A newer case asks about the same identities">
                    Superseded
                  </Badge>
                ) : row.review === null ? (
                  row.stale && row.status === 'open' ? (
                    <Badge
                      color="orange"
                      variant="light"
                      title="An identity changed since the case was opened: a reconciliation asks again"
                    >
                      Out of date
                    </Badge>
                  ) : (
                    <Text size="sm" c="dimmed">
                      —
                    </Text>
                  )
                ) : (
                  <Badge color={DECISION_COLOR[row.review.decision]} variant="light">
                    {REVIEW_DECISION_NAME[row.review.decision]}
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * The sources the "Ingested from" filter offers: the profile's, those the tenant's cases name (a source since dropped
 * from the profile among them) and the one chosen (kept from an earlier visit), each once, in order.
 */
function filterSources(
  profile: readonly string[],
  named: readonly string[] | undefined,
  chosen: string,
): { value: string; label: string }[] {
  const all = new Set([...profile, ...(named ?? []), ...(chosen === 'any' ? [] : [chosen])]);
  return [...all].sort((a, b) => a.localeCompare(b)).map((name) => ({ value: name, label: name }));
}

/** A filter another page set (a job, a time), shown beside the fields, with a cross that lifts it. */
function FilterBadge({
  clearLabel,
  onClear,
  testId,
  children,
}: {
  readonly clearLabel: string;
  readonly onClear: () => void;
  readonly testId: string;
  readonly children: ReactNode;
}) {
  return (
    <Badge
      size="lg"
      variant="light"
      tt="none"
      rightSection={<CloseButton size="xs" aria-label={clearLabel} onClick={onClear} />}
      data-testid={testId}
    >
      {children}
    </Badge>
  );
}

export default function ReviewsPage({
  connection,
  connectionKey,
  jobId,
}: {
  readonly connection: Connection;
  readonly connectionKey: string;
  readonly jobId: string | null;
}) {
  const client = useClient();
  const [view, filter] = useListView(connectionKey, jobId);
  const { status, kind, sort, currentOnly, source, held, offset } = view;
  const profile = useProfile(connectionKey, true);
  const unavailable = unavailableReason(connection);
  const input = { status, limit: PAGE_SIZE, offset, currentOnly, withHolds: true, ...listInput(view, jobId) };
  const cases = useQuery({
    queryKey: keys.reviews(connectionKey, input),
    queryFn: () => client.send('reviews/list', input),
    enabled: unavailable === null,
    placeholderData: keepPreviousData,
  });
  const heldChoices = heldOptions(cases.data?.holds, held);
  const sourceOptions = [
    { value: 'any', label: 'Any source' },
    ...filterSources(profile.data?.profile.SourceTrust.map((s) => s.SourceSystem) ?? [], cases.data?.sources, source),
  ];
  // The same waiting cases that can be decided now, counted only (one row read): the rest are out of date. Only
  // where the list shows every waiting case.
  const countsStale = status === 'open' && !currentOnly;
  const decidableInput = { ...input, currentOnly: true, withHolds: false, limit: 1, offset: 0 };
  const decidable = useQuery({
    queryKey: keys.reviews(connectionKey, decidableInput),
    queryFn: () => client.send('reviews/list', decidableInput),
    enabled: unavailable === null && countsStale,
    placeholderData: keepPreviousData,
  });
  // Decided cases as the Match assurance page's label set, marked there as review-queue labels.
  const useAsLabels = useMutation({
    mutationFn: () => client.send('reviews/labels', jobId === null ? {} : { jobId }),
    onSuccess: (labels) => {
      if (labels.labels === 0) return;
      putPageState(connectionKey, LABELS_STATE, labels.tsv, TEXT_CODEC);
      putPageState(connectionKey, REVIEW_QUEUE_LABELS_STATE, labels.tsv, TEXT_CODEC);
      putPageState(connectionKey, TAB_STATE, 'labels', TEXT_CODEC);
      navigate(paths.assurance);
    },
  });
  const total = cases.data?.total ?? 0;
  const shown = cases.data?.rows.length ?? 0;
  // A kept page that the cases decided since have left past the end moves back to the last page.
  const settled = cases.data !== undefined && !cases.isPlaceholderData;
  useEffect(() => {
    if (settled && pageStartWithin(offset, total, PAGE_SIZE) !== offset)
      filter({ offset: pageStartWithin(offset, total, PAGE_SIZE) });
  }, [settled, offset, total, filter]);
  const stale =
    countsStale && decidable.data !== undefined && !decidable.isPlaceholderData
      ? staleText(total - decidable.data.total, total)
      : null;
  return (
    <Stack gap="lg" maw={1200}>
      <div>
        <Title order={1} size="h2">
          Review cases
        </Title>
        <Text c="dimmed" size="sm" mt={4}>
          Pairs of identities that may be one person: opened by ingestion and by reconciliation for a person to decide.
          Recording a decision never merges or unlinks anything.
        </Text>
      </div>
      {unavailable === null && jobId === null && connection.capabilities.operations.includes('links/scan') ? (
        <LinkQualityCard
          connectionKey={connectionKey}
          onShowCases={() => {
            filter({ kind: 'LinkQuality', status: 'open', sort: 'most-doubtful' });
          }}
        />
      ) : null}
      {unavailable !== null ? (
        <Note color="gray" variant="light" icon={<IconInfo />} title="Review cases are not available here">
          <Text size="sm">{unavailable}</Text>
        </Note>
      ) : (
        <Card withBorder padding="md" bg="var(--mantine-color-white)">
          <Stack gap="md">
            <Group gap="sm" align="flex-end" wrap="wrap">
              <Select
                label="Status"
                data={STATUS_OPTIONS}
                value={status}
                onChange={(v) => {
                  filter({ status: (v ?? 'open') as ListView['status'] });
                }}
                allowDeselect={false}
                w={220}
              />
              <Select
                label="Kind"
                data={KIND_OPTIONS}
                value={kind}
                onChange={(v) => {
                  filter({ kind: (v ?? 'any') as ListView['kind'] });
                }}
                allowDeselect={false}
                w={180}
              />
              <Select
                label="Ingested from"
                data={sourceOptions}
                value={source}
                onChange={(v) => {
                  filter({ source: v ?? 'any' });
                }}
                allowDeselect={false}
                w={200}
              />
              <Select
                label="Held by"
                data={heldChoices}
                value={held}
                onChange={(v) => {
                  filter({ held: v ?? 'any' });
                }}
                allowDeselect={false}
                w={320}
              />
              <Select
                label="Order"
                data={SORT_OPTIONS}
                value={sort}
                onChange={(v) => {
                  filter({ sort: v ?? 'oldest' });
                }}
                allowDeselect={false}
                w={230}
              />
              <Switch
                label="Only cases that can be decided now"
                checked={currentOnly}
                onChange={(event) => {
                  const checked = event.currentTarget.checked;
                  filter({ currentOnly: checked });
                }}
                mb={8}
              />
              {jobId === null ? null : (
                <FilterBadge
                  clearLabel="Show the cases of every job"
                  onClear={() => {
                    navigate(paths.reviews());
                  }}
                  testId="job-filter"
                >
                  Opened by job {shortJobId(jobId)}
                </FilterBadge>
              )}
              {view.openedAfter === null ? null : (
                <FilterBadge
                  clearLabel="Show the cases opened at any time"
                  onClear={() => {
                    filter({ openedAfter: null });
                  }}
                  testId="opened-after-filter"
                >
                  Opened after {formatDateTime(view.openedAfter)}
                </FilterBadge>
              )}
            </Group>
            {status === 'resolved' && cases.data?.holds !== undefined ? (
              <DecidedByHold
                holds={cases.data.holds}
                onShow={(value) => {
                  filter({ held: value });
                }}
              />
            ) : null}
            {stale !== null && !cases.isPlaceholderData ? (
              <Note color="orange" variant="light" icon={<IconInfo />} data-testid="stale-cases">
                <Text size="sm">{stale}</Text>
                <Button
                  size="xs"
                  variant="light"
                  mt="sm"
                  onClick={() => {
                    filter({ currentOnly: true });
                  }}
                >
                  Show only the cases that can be decided now
                </Button>
              </Note>
            ) : null}
            {cases.isPending ? (
              <Skeleton height={240} />
            ) : cases.isError ? (
              <Alert color="red" variant="light" icon={<IconAlert />} title="The review cases could not be read">
                <Text size="sm">{cases.error.message}</Text>
                <Button size="xs" variant="light" mt="sm" onClick={() => void cases.refetch()}>
                  Try again
                </Button>
              </Alert>
            ) : shown === 0 ? (
              <Text size="sm" c="dimmed" data-testid="no-cases">
                {status === 'open'
                  ? 'No case is waiting for a decision with these filters.'
                  : 'No case matches these filters.'}
              </Text>
            ) : (
              // Busy while a new filter's page is on its way (the previous page stays on screen meanwhile).
              <div data-testid="review-cases" aria-busy={cases.isPlaceholderData}>
                <CasesTable rows={cases.data.rows} now={Date.now()} />
                <FieldStripLegend />
              </div>
            )}
            {useAsLabels.data?.labels === 0 ? (
              <Text size="sm" role="status">
                No case {jobId === null ? '' : 'of this job '}is decided yet: decide some first, then use them as
                labels.
              </Text>
            ) : null}
            {useAsLabels.error !== null ? (
              <Text size="sm" c="red.8" role="alert">
                The decided cases could not be read as labels: {useAsLabels.error.message}
              </Text>
            ) : null}
            <Group justify="space-between">
              <Text size="sm" aria-live="polite" data-testid="page-text">
                {/* Nothing counted when the list could not be read: "No cases" would say there are none. */}
                {cases.isError ? '' : pageText(offset, shown, total)}
              </Text>
              <Group gap="xs">
                {connection.capabilities.operations.includes('reviews/labels') ? (
                  <Button
                    size="xs"
                    variant="light"
                    loading={useAsLabels.isPending}
                    onClick={() => {
                      useAsLabels.mutate();
                    }}
                  >
                    Use decided cases as labels
                  </Button>
                ) : null}
                <Button
                  size="xs"
                  variant="default"
                  disabled={offset === 0}
                  onClick={() => {
                    filter({ offset: Math.max(0, offset - PAGE_SIZE) });
                  }}
                >
                  Previous
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  disabled={offset + shown >= total}
                  onClick={() => {
                    filter({ offset: offset + PAGE_SIZE });
                  }}
                >
                  Next
                </Button>
              </Group>
            </Group>
          </Stack>
        </Card>
      )}
      {unavailable === null && jobId === null && connection.capabilities.operations.includes('identities/of-record') ? (
        <FindIdentityCard
          connectionKey={connectionKey}
          profileSources={(profile.data?.profile.SourceTrust ?? []).map((s) => s.SourceSystem)}
          withRecordSources={connection.capabilities.operations.includes('records/sources')}
        />
      ) : null}
    </Stack>
  );
}
