/** The evaluation view: the request (dataset ID, thresholds as chips, error examples wanted) and its report. */
import { Button, Card, Group, NumberInput, Stack, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { memo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTask } from '../../hooks/task.ts';
import { TaskOutcome } from './engine-refusal.tsx';
import type { EvaluationReport } from '../../../engine/contract/assurance.ts';
import { MAX_ERROR_EXAMPLES } from '../../../engine/contract/assurance.ts';
import { formatCount } from '../../format.ts';
import { EvaluationReportView } from './evaluation-report.tsx';
import type { LabelPreview } from './label-preview.ts';
import { PreviewSummary } from './labels-panel.tsx';
import { parseThresholds } from './thresholds-input.ts';

// The report re-renders only when it changes: typing in the request or the pending state of a new run would
// otherwise redraw every chart and table of the report on screen (some 150 ms each for 10,000 pairs).
const ReportView = memo(EvaluationReportView);

/** 0.5, the profile's Probable and Certain, and 0.9: the points an analyst compares first. */
function defaultChips(profileThresholds: readonly number[]): string[] {
  return [...new Set([0.5, ...profileThresholds, 0.9])].sort((a, b) => a - b).map(String);
}

export function EvaluationPanel({
  connectionKey,
  preview,
  runsKey,
  report,
  onReport,
  defaultThresholds,
}: {
  readonly connectionKey: string;
  readonly preview: LabelPreview;
  readonly runsKey: readonly unknown[];
  readonly report: EvaluationReport | null;
  readonly onReport: (report: EvaluationReport) => void;
  readonly defaultThresholds: readonly number[];
}) {
  const queryClient = useQueryClient();
  const [datasetId, setDatasetId] = useState('labels-1');
  const [chips, setChips] = useState<string[]>(() => defaultChips(defaultThresholds));
  // The profile's thresholds can arrive after the panel opens: until the analyst edits the chips, they follow.
  const defaultsKey = defaultThresholds.join(' ');
  const [chipsFollow, setChipsFollow] = useState({ key: defaultsKey, edited: false });
  if (chipsFollow.key !== defaultsKey) {
    setChipsFollow({ key: defaultsKey, edited: chipsFollow.edited });
    if (!chipsFollow.edited) setChips(defaultChips(defaultThresholds));
  }
  const [examples, setExamples] = useState<number | string>(20);
  // A chip that is not a threshold is refused as it is entered (never kept), and the field says why.
  const [refusedChip, setRefusedChip] = useState<string | undefined>(undefined);
  const thresholds = parseThresholds(chips);
  const examplesInvalid =
    typeof examples !== 'number' || !Number.isInteger(examples) || examples < 0 || examples > MAX_ERROR_EXAMPLES;
  const datasetInvalid = datasetId.trim() === '';
  const labelsReady = preview.pairs.length > 0 && preview.issues.length === 0;
  const evaluate = useTask('matching/evaluate', (output) => {
    onReport(output);
    void queryClient.invalidateQueries({ queryKey: runsKey });
  });
  const request = () => ({
    datasetId: datasetId.trim(),
    pairs: [...preview.pairs],
    rowNumbers: [...preview.lineNumbers],
    thresholds: thresholds.values,
    maximumErrorExamples: typeof examples === 'number' ? examples : 0,
  });

  return (
    <Stack gap="lg">
      <Card withBorder padding="lg" component="section" aria-labelledby="eval-request-title">
        <Title order={2} size="h4" id="eval-request-title" mb="xs">
          Evaluate the active profile
        </Title>
        <Group mb="sm">
          {preview.rows > 0 ? (
            <PreviewSummary preview={preview} />
          ) : (
            <Text size="sm" c="dimmed">
              No labels yet: paste a label set, sample one, or make one in the workbench.
            </Text>
          )}
        </Group>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (labelsReady && thresholds.error === undefined && !examplesInvalid && !datasetInvalid)
              evaluate.start(request());
          }}
          aria-label="Evaluation request"
        >
          <Group align="flex-start" gap="md">
            <TextInput
              label="Dataset ID"
              description="The version label of this label set"
              value={datasetId}
              onChange={(e) => {
                setDatasetId(e.currentTarget.value);
              }}
              maxLength={100}
              error={datasetInvalid ? 'Give the dataset a label' : undefined}
              w={200}
            />
            <TagsInput
              label="Thresholds"
              description="Press Enter after each, 0 to 1"
              value={chips}
              onChange={(next) => {
                const refused = next.find((chip) => parseThresholds([chip]).error !== undefined);
                setRefusedChip(refused === undefined ? undefined : parseThresholds([refused]).error);
                setChips(next.filter((chip) => parseThresholds([chip]).error === undefined));
                setChipsFollow({ key: defaultsKey, edited: true });
              }}
              error={refusedChip ?? thresholds.error}
              w={340}
              clearable
            />
            <NumberInput
              label="Error examples"
              description={`At most ${String(MAX_ERROR_EXAMPLES)}`}
              value={examples}
              onChange={setExamples}
              min={0}
              max={MAX_ERROR_EXAMPLES}
              allowDecimal={false}
              error={examplesInvalid ? `0 to ${String(MAX_ERROR_EXAMPLES)}` : undefined}
              w={150}
            />
          </Group>
          <Group mt="md">
            <Button
              type="submit"
              loading={evaluate.isPending}
              disabled={!labelsReady || thresholds.error !== undefined || examplesInvalid || datasetInvalid}
            >
              Evaluate {preview.pairs.length > 0 ? `${formatCount(preview.pairs.length)} pairs` : ''}
            </Button>
            {preview.issues.length > 0 ? (
              <Text size="sm" c="red.8">
                The label set has errors: fix them on the Labels tab first.
              </Text>
            ) : null}
          </Group>
        </form>
        <TaskOutcome task={evaluate} what="evaluation" />
      </Card>
      {report !== null ? (
        <ReportView
          key={report.datasetDigest + String(report.thresholds.length)}
          connectionKey={connectionKey}
          report={report}
          name={report.datasetId}
        />
      ) : null}
    </Stack>
  );
}
