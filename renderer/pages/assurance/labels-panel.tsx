/**
 * Labels: paste or drop a TSV (five columns in the spec's order, optional header), see the preview — rows,
 * counts per class and every row error with its line and rule — before anything is sent; or sample labels
 * from the tenant's ground truth (a synthetic sandbox or a benchmark load). Any label set saves as TSV, and is kept
 * by name among the saved runs on request.
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  FileButton,
  Group,
  NumberInput,
  Paper,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type DragEvent } from 'react';
import { useClient } from '../../client/context.tsx';
import { useTask } from '../../hooks/task.ts';
import { TaskProgress } from './task-progress.tsx';
import { labelsToTsv } from '../../../engine/contract/label-tsv.ts';
import { MAX_DATASET_PAIRS } from '../../../engine/contract/assurance.ts';
import { formatCount, formatCountOf } from '../../format.ts';
import { IconAlert, IconDownload, IconFolder } from '../../icons.tsx';
import { saveText } from './save-file.ts';
import { previewLabels, withoutBadRows, type LabelPreview } from './label-preview.ts';
import { candidatePopulationText } from './labels-text.ts';

const SHOWN_ROWS = 12;
const SHOWN_ISSUES = 200;
/**
 * A label set this long that came from a file or a sample is summarised rather than put in the text box:
 * the browser lays out every line of a text box, about a second for 10,000 rows on a busy machine, again
 * each time the tab is shown. Text typed or pasted into the box stays there whatever its length.
 */
const LARGE_TEXT = 100_000;

export function PreviewSummary({ preview }: { readonly preview: LabelPreview }) {
  return (
    <Group gap="xs" aria-label="Label counts" data-testid="label-counts">
      <Badge variant="light" color="gray" radius="sm">
        {formatCountOf(preview.rows, 'row')}
      </Badge>
      <Badge variant="light" color="teal" radius="sm">
        {formatCountOf(preview.matches, 'match', 'matches')}
      </Badge>
      <Badge variant="light" color="indigo" radius="sm">
        {formatCountOf(preview.nonMatches, 'non-match', 'non-matches')}
      </Badge>
      {preview.badRows > 0 ? (
        <Badge variant="light" color="red" radius="sm" leftSection={<IconAlert size={12} />}>
          {formatCountOf(preview.badRows, 'row with errors', 'rows with errors')}
        </Badge>
      ) : null}
      {preview.headerLine !== null ? (
        <Text size="xs" c="dimmed">
          Header on line {preview.headerLine} skipped.
        </Text>
      ) : null}
    </Group>
  );
}

export function IssuesTable({
  issues,
  label,
}: {
  readonly issues: readonly { readonly path: string; readonly message: string }[];
  readonly label: string;
}) {
  return (
    <Table.ScrollContainer minWidth={480} mah={320}>
      <Table striped aria-label={label} data-testid="label-issues">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={110}>Where</Table.Th>
            <Table.Th>Rule broken</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {issues.slice(0, SHOWN_ISSUES).map((issue, index) => (
            <Table.Tr key={`${issue.path}:${String(index)}`}>
              <Table.Td>{issue.path === 'pairs' ? 'Dataset' : issue.path.replace(/^line /, 'Line ')}</Table.Td>
              <Table.Td>{issue.message}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {issues.length > SHOWN_ISSUES ? (
        <Text size="xs" c="dimmed">
          …and {formatCount(issues.length - SHOWN_ISSUES)} more.
        </Text>
      ) : null}
    </Table.ScrollContainer>
  );
}

/** Keeps the label set's valid rows by name among the saved runs, to reopen later (console/save-labels). */
function KeepLabels({ preview, runsKey }: { readonly preview: LabelPreview; readonly runsKey: readonly unknown[] }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const keep = useMutation({
    mutationFn: () => client.send('console/save-labels', { name: name.trim(), pairs: [...preview.pairs] }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: runsKey });
    },
  });
  return (
    <form
      aria-label="Keep this label set"
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim() !== '' && preview.pairs.length > 0) keep.mutate();
      }}
    >
      <Group align="flex-end" gap="xs" mt="md">
        <TextInput
          label="Keep as"
          description="A name to find it by under Saved runs"
          placeholder="e.g. ward-7 review, November"
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            keep.reset();
          }}
          maxLength={100}
          w={320}
        />
        <Button
          type="submit"
          variant="light"
          size="sm"
          loading={keep.isPending}
          disabled={name.trim() === '' || preview.pairs.length === 0}
        >
          Keep this label set
        </Button>
        {keep.isSuccess ? (
          <Text size="sm" role="status" data-testid="labels-kept">
            Kept as “{keep.data.datasetId}”: {formatCountOf(keep.data.pairs, 'row')}
            {preview.badRows > 0
              ? preview.badRows === 1
                ? ' (the row with errors was left out)'
                : ` (the ${formatCount(preview.badRows)} rows with errors were left out)`
              : ''}
            . Reopen it from Saved runs.
          </Text>
        ) : null}
      </Group>
      {keep.error !== null ? (
        <Alert mt="xs" color="red" variant="light" icon={<IconAlert />} title="The label set was not kept">
          <Text size="sm">{keep.error.message}</Text>
        </Alert>
      ) : null}
    </form>
  );
}

export function LabelsPanel({
  text,
  onText,
  preview,
  maySample,
  onPrior,
  runsKey,
}: {
  readonly text: string;
  readonly onText: (text: string) => void;
  readonly preview: LabelPreview;
  readonly maySample: boolean;
  readonly onPrior: (prior: number | null) => void;
  readonly runsKey: readonly unknown[];
}) {
  const [samplePairs, setSamplePairs] = useState<number | string>(2000);
  const sample = useTask('labels/sample', (output) => {
    setEditing(false);
    onText(labelsToTsv(output.pairs, { header: true }));
    onPrior(output.candidates.matchShare);
  });
  // False when the text came from a file or a sample (or was already large when the tab opened): a large one
  // is then summarised (LARGE_TEXT).
  const [editing, setEditing] = useState(() => text.length <= LARGE_TEXT);
  const dropFile = (event: DragEvent<HTMLElement>): void => {
    const file = event.dataTransfer.files[0];
    if (file !== undefined) {
      event.preventDefault();
      readFile(file);
    }
  };
  function readFile(file: File | null): void {
    if (file === null) return;
    setEditing(false);
    void file.text().then(onText);
  }
  const summarised = !editing && text.length > LARGE_TEXT;
  const badLines = new Set(preview.issues.map((issue) => issue.path));
  const sampleInvalid =
    typeof samplePairs !== 'number' ||
    !Number.isInteger(samplePairs) ||
    samplePairs < 2 ||
    samplePairs > MAX_DATASET_PAIRS;

  return (
    <Stack gap="lg">
      <Card withBorder padding="lg" component="section" aria-labelledby="labels-title">
        <Group justify="space-between" align="flex-start" mb="xs">
          <div>
            <Title order={2} size="h4" id="labels-title">
              Label set
            </Title>
            <Text size="sm" c="dimmed" maw={720}>
              Tab-separated, five columns in this order: leftSource, leftLocalId, rightSource, rightLocalId, isMatch
              (match/non-match, true/false or 1/0). The header is optional. Labels refer to records already in this
              tenant; no demographics are uploaded.
            </Text>
          </div>
          <Group gap="xs">
            <FileButton onChange={readFile} accept=".tsv,.txt,text/tab-separated-values,text/plain">
              {(props) => (
                <Button {...props} variant="default" size="xs" leftSection={<IconFolder size={14} />}>
                  Open a TSV file
                </Button>
              )}
            </FileButton>
            <Button
              variant="default"
              size="xs"
              leftSection={<IconDownload size={14} />}
              disabled={preview.pairs.length === 0}
              onClick={() => {
                saveText('labels.tsv', labelsToTsv(preview.pairs, { header: true }), 'text/tab-separated-values');
              }}
            >
              Save as TSV
            </Button>
          </Group>
        </Group>
        {summarised ? (
          <Paper
            withBorder
            p="md"
            component="section"
            aria-label="Labels (loaded, not shown as text)"
            data-testid="labels-loaded"
            onDragOver={(event) => {
              event.preventDefault();
            }}
            onDrop={dropFile}
          >
            <Text size="sm">
              {formatCount(text.length)} characters of labels are loaded: too long to show as text here. The preview
              below checks every row.
            </Text>
            <Group gap="xs" mt="xs">
              <Button
                size="xs"
                variant="default"
                onClick={() => {
                  setEditing(true);
                }}
              >
                Show and edit the text
              </Button>
              <Button
                size="xs"
                variant="default"
                onClick={() => {
                  setEditing(true);
                  onText('');
                }}
              >
                Clear
              </Button>
            </Group>
          </Paper>
        ) : (
          <Textarea
            label="Labels (paste, or drop a file here)"
            value={text}
            onChange={(event) => {
              setEditing(true);
              onText(event.currentTarget.value);
            }}
            onDrop={dropFile}
            // A fixed height, not autosize: autosize measures the whole value in a hidden copy on every render,
            // which took most of a second per render for a 10,000-row file (the bench's preview figure).
            rows={10}
            resize="vertical"
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
            placeholder={
              'leftSource\tleftLocalId\trightSource\trightLocalId\tisMatch\nclinic-a\t1001\tlab-b\t77\tmatch'
            }
          />
        )}
        <Stack gap="sm" mt="md" aria-live="polite">
          {text.trim() === '' ? (
            <Text size="sm" c="dimmed">
              Nothing pasted yet.
            </Text>
          ) : (
            <PreviewSummary preview={preview} />
          )}
          {preview.issues.length > 0 ? (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlert />}
              title={`Fix these before running: ${formatCount(preview.issues.length)} ${preview.issues.length === 1 ? 'error' : 'errors'} (nothing has been sent)`}
            >
              <IssuesTable issues={preview.issues} label="Label errors by line" />
              {preview.badRows > 0 ? (
                <Button
                  mt="sm"
                  size="xs"
                  variant="light"
                  color="red"
                  data-testid="drop-bad-rows"
                  onClick={() => {
                    // Read afresh: the preview shown may lag the text by a keystroke.
                    const fresh = previewLabels(text);
                    setEditing(true);
                    onText(withoutBadRows(text, fresh));
                  }}
                >
                  Drop the {formatCount(preview.badRows)} {preview.badRows === 1 ? 'row' : 'rows'} with errors
                </Button>
              ) : null}
            </Alert>
          ) : null}
          {preview.pairs.length > 0 ? (
            <Table.ScrollContainer minWidth={560}>
              <Table
                aria-label={`First rows of the label set (${String(Math.min(SHOWN_ROWS, preview.pairs.length))} of ${String(preview.pairs.length)})`}
                data-testid="label-rows"
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Line</Table.Th>
                    <Table.Th>Left record</Table.Th>
                    <Table.Th>Right record</Table.Th>
                    <Table.Th>Label</Table.Th>
                    <Table.Th>Check</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.pairs.slice(0, SHOWN_ROWS).map((pair, index) => (
                    <Table.Tr key={preview.lineNumbers[index]}>
                      <Table.Td>{preview.lineNumbers[index]}</Table.Td>
                      <Table.Td>
                        {pair.left.sourceSystem} / {pair.left.localId}
                      </Table.Td>
                      <Table.Td>
                        {pair.right.sourceSystem} / {pair.right.localId}
                      </Table.Td>
                      <Table.Td>{pair.isMatch ? 'Match' : 'Non-match'}</Table.Td>
                      <Table.Td>
                        {badLines.has(`line ${String(preview.lineNumbers[index])}`) ? (
                          <Badge size="sm" color="red" variant="light" radius="sm">
                            See errors
                          </Badge>
                        ) : (
                          'OK'
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : null}
        </Stack>
        {preview.pairs.length > 0 ? <KeepLabels preview={preview} runsKey={runsKey} /> : null}
      </Card>

      {maySample ? (
        <Card withBorder padding="lg" component="section" aria-labelledby="sample-title">
          <Title order={2} size="h4" id="sample-title">
            Sample labels from the ground truth
          </Title>
          <Text size="sm" c="dimmed" maw={720} mb="sm">
            A synthetic sandbox, or a tenant loaded from a benchmark, knows which records are the same person. This
            draws true pairs and blocking-candidate non-matches from that ground truth, for offline calibration, and
            estimates the share of true matches among the pairs the scorer meets (the prior a calibration needs). A
            registry of real patients has none: label its pairs in the Workbench instead.
          </Text>
          <Group align="flex-end">
            <NumberInput
              label="Pairs at most"
              value={samplePairs}
              onChange={setSamplePairs}
              min={2}
              max={MAX_DATASET_PAIRS}
              step={500}
              allowDecimal={false}
              w={160}
              error={sampleInvalid ? `2 to ${formatCount(MAX_DATASET_PAIRS)}` : undefined}
            />
            <Button
              onClick={() => {
                sample.start({ maxPairs: typeof samplePairs === 'number' ? samplePairs : 2000, seed: 1 });
              }}
              loading={sample.isPending}
              disabled={sampleInvalid}
            >
              Sample labels
            </Button>
          </Group>
          <TaskProgress task={sample} what="label sample" />
          {sample.error !== null ? (
            <Alert mt="sm" color="red" variant="light" icon={<IconAlert />} title="No labels were sampled">
              <Text size="sm">{sample.error.message}</Text>
            </Alert>
          ) : null}
          {sample.data !== undefined ? (
            <Text size="sm" mt="sm" data-testid="sample-result">
              {formatCount(sample.data.pairs.length)} pairs sampled into the label set.{' '}
              {candidatePopulationText(sample.data.candidates)}{' '}
              <Text span fw={700}>
                {sample.data.candidates.matchShare === null
                  ? '— (no candidates)'
                  : sample.data.candidates.matchShare.toFixed(4)}
              </Text>
              .
            </Text>
          ) : null}
        </Card>
      ) : null}
    </Stack>
  );
}
