/**
 * Saved runs: every evaluation, calibration, estimate and registry audit asked from this console, with its dataset
 * digest, versions, thresholds (a model's: those that go with it) and time; each reopens whole. Two evaluations
 * compare side by side: metric deltas per threshold both were asked at (for example two profile versions on the same
 * labels).
 */
import { Alert, Button, Card, Checkbox, Code, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SavedRun, SavedRunSummary } from '../../../console-protocol/protocol.ts';
import { useClient } from '../../client/context.tsx';
import { formatCount, formatCountOf, formatDateTime, thresholdFigure } from '../../format.ts';
import { IconAlert } from '../../icons.tsx';
import { fixed3 } from './metric-text.ts';
import { comparisonRows, inTimeOrder, metricDelta, unsharedThresholds } from './run-comparison.ts';
import { TableDate } from '../../layout/table-date.tsx';

const COMPARED = ['precision', 'recall', 'f1', 'mcc'] as const;
const KIND_LABEL = {
  evaluation: 'Evaluation',
  calibration: 'Calibration',
  estimate: 'Estimate without labels',
  audit: 'Registry audit',
  labels: 'Label set',
} as const;
const COMPARED_LABEL = { precision: 'Precision', recall: 'Recall', f1: 'F1', mcc: 'MCC' } as const;

function Comparison({
  a,
  b,
}: {
  readonly a: SavedRun & { kind: 'evaluation' };
  readonly b: SavedRun & { kind: 'evaluation' };
}) {
  const rows = comparisonRows(a.report, b.report);
  const { onlyA, onlyB } = unsharedThresholds(a.report, b.report);
  const unshared = [
    onlyA.length > 0 ? `${onlyA.join(', ')} only in A` : '',
    onlyB.length > 0 ? `${onlyB.join(', ')} only in B` : '',
  ]
    .filter((t) => t !== '')
    .join('; ');
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="cmp-title" data-testid="run-comparison">
      <Title order={2} size="h4" id="cmp-title" mb={4}>
        Comparison: B − A
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        A, the earlier run: {a.summary.datasetId} on profile v{a.summary.versions.matchingProfileVersion},{' '}
        {formatDateTime(a.summary.createdAt)}. B, the later: {b.summary.datasetId} on profile v
        {b.summary.versions.matchingProfileVersion}, {formatDateTime(b.summary.createdAt)}.{' '}
        {a.summary.datasetDigest === b.summary.datasetDigest
          ? 'Same labels (same digest).'
          : 'Different labels: the digests differ, so the deltas mix a change of labels with any change of profile.'}
      </Text>
      {unshared === '' ? null : (
        <Text size="sm" mb="sm" data-testid="cmp-unshared">
          Compared at the thresholds both runs asked for; left out: {unshared}. Evaluate again with the same thresholds
          to compare those.
        </Text>
      )}
      {rows.length === 0 ? (
        <Text size="sm">The two runs share no threshold.</Text>
      ) : (
        <Table striped aria-label="Metric deltas per threshold" style={{ fontVariantNumeric: 'tabular-nums' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Threshold</Table.Th>
              {COMPARED.map((m) => (
                <Table.Th key={m}>{COMPARED_LABEL[m]} A → B (Δ)</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map(({ threshold, left, right }) => (
              <Table.Tr key={threshold}>
                <Table.Td>{threshold}</Table.Td>
                {COMPARED.map((m) => (
                  <Table.Td key={m}>
                    {fixed3(left[m])} → {fixed3(right[m])} ({metricDelta(left[m], right[m])})
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

/**
 * An evaluation's thresholds as asked; a calibration's or an estimate's model by the thresholds that go with it (and
 * the precision a calibration asked), which tell apart two runs on the same labels. A summary kept before those were
 * recorded shows its threshold grid, as it did.
 */
function thresholdsText(run: SavedRunSummary): string {
  const model = run.modelThresholds;
  if (model === null) return '—';
  if (model === undefined) return run.thresholds.length === 0 ? '—' : run.thresholds.join(', ');
  const asked = model.targetPrecision === undefined ? '' : ` (precision ${String(model.targetPrecision)} asked)`;
  return `Certain ${thresholdFigure(model.Certain).text} · Probable ${thresholdFigure(model.Probable).text}${asked}`;
}

/** An audit's labels that came from the ground truth, said beside its pairs: it was not labelled by a person. */
function truthText(run: SavedRunSummary): string {
  const fromTruth = run.labelsFromGroundTruth ?? 0;
  if (fromTruth === 0) return '';
  return fromTruth === run.pairs ? '; all from the ground truth' : `; ${formatCount(fromTruth)} from the ground truth`;
}

/** How a kept run is named to a screen reader: a label set by its dataset, any other run by kind and time. */
function runName(run: SavedRunSummary): string {
  return run.kind === 'labels'
    ? `the label set ${run.datasetId}`
    : `the ${run.kind} of ${formatDateTime(run.createdAt)}`;
}

export function RunsPanel({
  runsKey,
  onOpen,
}: {
  readonly runsKey: readonly unknown[];
  readonly onOpen: (run: SavedRun) => void;
}) {
  const client = useClient();
  const queryClient = useQueryClient();
  const runs = useQuery({ queryKey: runsKey, queryFn: () => client.send('console/runs', {}) });
  const [picked, setPicked] = useState<string[]>([]);
  const open = useMutation({ mutationFn: (runId: string) => client.send('console/run', { runId }), onSuccess: onOpen });
  const compare = useMutation({
    mutationFn: async (ids: readonly string[]) =>
      Promise.all(ids.map((runId) => client.send('console/run', { runId }))),
  });
  const remove = useMutation({
    mutationFn: (runId: string) => client.send('console/delete-run', { runId }),
    onSuccess: (output) => {
      queryClient.setQueryData(runsKey, output);
    },
  });
  const toggle = (run: SavedRunSummary): void => {
    setPicked((old) =>
      old.includes(run.runId) ? old.filter((id) => id !== run.runId) : [...old, run.runId].slice(-2),
    );
  };
  const [first, second] = compare.data ?? [];
  const [a, b] = first === undefined || second === undefined ? [] : inTimeOrder(first, second);

  return (
    <Stack gap="lg">
      <Card withBorder padding="lg" component="section" aria-labelledby="runs-title">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h4" id="runs-title">
            Saved runs
          </Title>
          <Button
            size="xs"
            disabled={picked.length !== 2}
            onClick={() => {
              compare.mutate(picked);
            }}
            loading={compare.isPending}
          >
            Compare the two chosen
          </Button>
        </Group>
        <Text size="sm" c="dimmed" mb="sm">
          Every evaluation, calibration, estimate and registry audit run from this console on this connection and tenant
          is kept on this computer, with the label sets you keep. Choose two evaluations to compare them.
        </Text>
        {runs.isPending ? (
          <Skeleton height={80} />
        ) : runs.isError ? (
          <Alert color="red" variant="light" icon={<IconAlert />} title="The saved runs could not be read">
            <Text size="sm">{runs.error.message}</Text>
          </Alert>
        ) : runs.data.runs.length === 0 ? (
          <Text size="sm">No runs yet.</Text>
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table striped aria-label="Saved runs, newest first" data-testid="runs-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Compare</Table.Th>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Dataset</Table.Th>
                  <Table.Th>Pairs</Table.Th>
                  <Table.Th>Profile</Table.Th>
                  <Table.Th>Thresholds</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {runs.data.runs.map((run) => (
                  <Table.Tr key={run.runId} data-run-id={run.runId}>
                    <Table.Td>
                      {run.kind === 'evaluation' ? (
                        <Checkbox
                          aria-label={`Compare the evaluation of ${formatDateTime(run.createdAt)}`}
                          checked={picked.includes(run.runId)}
                          onChange={() => {
                            toggle(run);
                          }}
                        />
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      {KIND_LABEL[run.kind]}
                      {run.modelVersion === null ? '' : ` (${run.modelVersion})`}
                    </Table.Td>
                    <Table.Td>
                      <TableDate iso={run.createdAt} />
                    </Table.Td>
                    <Table.Td>
                      {run.datasetId} <Code>{run.datasetDigest.slice(0, 12)}</Code>
                    </Table.Td>
                    <Table.Td>
                      {run.kind === 'estimate'
                        ? `${formatCount(run.pairs)} candidate pairs (${run.fitFailed === true ? 'the fit failed its checks: nothing estimated' : `about ${formatCount(run.matches)} true, estimated`})`
                        : `${formatCount(run.pairs)} (${formatCountOf(run.matches, 'match', 'matches')}${truthText(run)})`}
                    </Table.Td>
                    <Table.Td>
                      v{run.versions.matchingProfileVersion} · {run.versions.scoreMethod}
                    </Table.Td>
                    <Table.Td>{thresholdsText(run)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Button
                          size="compact-xs"
                          variant="light"
                          onClick={() => {
                            open.mutate(run.runId);
                          }}
                          aria-label={`Open ${runName(run)}`}
                        >
                          Open
                        </Button>
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color="red"
                          onClick={() => {
                            remove.mutate(run.runId);
                          }}
                          aria-label={`Forget ${runName(run)}`}
                        >
                          Forget
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {open.isError ? (
          <Alert mt="sm" color="red" variant="light" icon={<IconAlert />} title="The run could not be opened">
            <Text size="sm">{open.error.message}</Text>
          </Alert>
        ) : null}
      </Card>
      {a?.kind === 'evaluation' && b?.kind === 'evaluation' ? <Comparison a={a} b={b} /> : null}
    </Stack>
  );
}
