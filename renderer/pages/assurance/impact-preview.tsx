/**
 * What a produced model would change on the registry, before anyone applies it: the impact preview (a tracked dry run
 * that writes nothing) of the model as the saved document would apply it. Counts by kind of change, by score band and
 * by source, the cases a reconciliation would open, and examples that open in the comparison viewer.
 */
import { Alert, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import { useState } from 'react';
import { IMPACT_KINDS, IMPACT_TEXT, type ImpactPreview } from '../../../engine/contract/impact-preview.ts';
import { SCORE_BAND_EDGES, scoreBandName } from '../../../engine/contract/score-bands.ts';
import { useTask } from '../../hooks/task.ts';
import { formatCount } from '../../format.ts';
import { IconAlert, IconInfo } from '../../icons.tsx';
import { PairRecords } from './pair-records.tsx';
import { TaskProgress } from './task-progress.tsx';

type Example = ImpactPreview['examples'][number];

function Examples({ examples }: { readonly examples: readonly Example[] }) {
  const [open, setOpen] = useState<Example | null>(null);
  if (examples.length === 0) return null;
  return (
    <Stack gap="xs">
      <Table aria-label="Examples of the changes" style={{ fontVariantNumeric: 'tabular-nums' }}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Change</Table.Th>
            <Table.Th>Records</Table.Th>
            <Table.Th>Score now</Table.Th>
            <Table.Th>With the model</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {examples.map((e) => (
            <Table.Tr
              key={`${e.kind}:${e.left.sourceSystem}/${e.left.localId}:${e.right.sourceSystem}/${e.right.localId}`}
            >
              <Table.Td>{e.kind}</Table.Td>
              <Table.Td>
                <bdi>
                  {e.left.sourceSystem}/{e.left.localId}
                </bdi>{' '}
                ·{' '}
                <bdi>
                  {e.right.sourceSystem}/{e.right.localId}
                </bdi>
              </Table.Td>
              <Table.Td>{e.scoreNow.toFixed(4)}</Table.Td>
              <Table.Td>{e.scoreCandidate.toFixed(4)}</Table.Td>
              <Table.Td>
                <Button
                  size="compact-xs"
                  variant="default"
                  onClick={() => {
                    setOpen(e);
                  }}
                >
                  Compare
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {open === null ? null : (
        <PairRecords key={`${open.left.localId}-${open.right.localId}`} left={open.left} right={open.right} />
      )}
    </Stack>
  );
}

/** The changes by the candidate's score band (fine near 0 and 1) and by the sources of the records involved. */
function BreakDown({ report }: { readonly report: ImpactPreview }) {
  const kinds = IMPACT_KINDS.filter((kind) => report.changes[kind] > 0);
  if (kinds.length === 0) return null;
  const bands = SCORE_BAND_EDGES.map((_, i) => i)
    .concat(SCORE_BAND_EDGES.length)
    .filter((band) => kinds.some((kind) => (report.byScoreBand[kind][band] ?? 0) > 0));
  const sources = Object.entries(report.bySource);
  return (
    <>
      <Table
        aria-label="Changes by the candidate's score band"
        maw={900}
        style={{ fontVariantNumeric: 'tabular-nums' }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Change, by the candidate&apos;s score</Table.Th>
            {bands.map((band) => (
              <Table.Th key={band}>{scoreBandName(band)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {kinds.map((kind) => (
            <Table.Tr key={kind}>
              <Table.Td>{kind}</Table.Td>
              {bands.map((band) => (
                <Table.Td key={band}>{formatCount(report.byScoreBand[kind][band] ?? 0)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {sources.length > 0 ? (
        <Table aria-label="Changes by source" maw={900} style={{ fontVariantNumeric: 'tabular-nums' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Source (a pair counts for each of its sources)</Table.Th>
              {kinds.map((kind) => (
                <Table.Th key={kind}>{kind}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sources.map(([source, counts]) => (
              <Table.Tr key={source}>
                <Table.Td>{source}</Table.Td>
                {kinds.map((kind) => (
                  <Table.Td key={kind}>{formatCount(counts[kind])}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </>
  );
}

export function ImpactPreviewPanel({ document }: { readonly document: unknown }) {
  const preview = useTask('profile/preview', undefined, { kept: false });
  const report = preview.data;
  return (
    <Stack gap="sm" mt="md" data-testid="impact-preview">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Title order={3} size="h5">
            What it would change on the registry
          </Title>
          <Text size="sm" c="dimmed" maw={720}>
            Scores the registry&apos;s links and its candidate pairs under the active profile and under this model, as
            the saved document would apply it. A dry run: nothing is written or applied.
          </Text>
        </div>
        <Button
          size="xs"
          variant="light"
          onClick={() => {
            preview.start({ document, maxExamples: 10 });
          }}
          loading={preview.isPending}
          disabled={preview.isPending}
        >
          Preview the impact
        </Button>
      </Group>
      <TaskProgress task={preview} what="preview" />
      {preview.error !== null ? (
        <Alert color="red" variant="light" icon={<IconAlert />} title="The preview did not finish" role="alert">
          <Text size="sm">{preview.error.message}</Text>
        </Alert>
      ) : null}
      {report === undefined ? null : (
        <Stack gap="xs" data-testid="impact-preview-report">
          <Text size="sm" role="status">
            {formatCount(report.linkedRecordsCompared)} linked records and {formatCount(report.candidatePairsCompared)}{' '}
            candidate pairs compared. A reconciliation under this model would open{' '}
            {formatCount(report.reviewCasesReconciliationWouldOpen)} review cases.
          </Text>
          <Table aria-label="Changes by kind" maw={900}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Change</Table.Th>
                <Table.Th>Count</Table.Th>
                <Table.Th>Meaning</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {IMPACT_KINDS.map((kind) => (
                <Table.Tr key={kind}>
                  <Table.Td>{kind}</Table.Td>
                  <Table.Td>{formatCount(report.changes[kind])}</Table.Td>
                  <Table.Td>{IMPACT_TEXT[kind]}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {report.blockingNote === null ? null : (
            <Note color="blue" variant="light" icon={<IconInfo />}>
              <Text size="sm">{report.blockingNote}</Text>
            </Note>
          )}
          <BreakDown report={report} />
          <Examples examples={report.examples} />
        </Stack>
      )}
    </Stack>
  );
}
