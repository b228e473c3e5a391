/** The calibration view: the request, each field with its help text and validation, and the answer. */
import { Button, Card, Group, NumberInput, Radio, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTask } from '../../hooks/task.ts';
import { TaskOutcome } from './engine-refusal.tsx';
import type { z } from 'zod';
import {
  DEFAULT_REVIEW_BUDGET,
  MIN_SMOOTHING,
  U_SOURCES,
  type CalibrationOutputSchema,
} from '../../../engine/contract/assurance.ts';
import { MODEL_PRIOR_FLOOR } from '../../../engine/contract/profile.ts';
import { formatCount } from '../../format.ts';
import { CalibrationReportView } from './calibration-report.tsx';
import type { LabelPreview } from './label-preview.ts';
import { PreviewSummary } from './labels-panel.tsx';
import { TEXT_CODEC, useFieldState, usePageState } from '../../hooks/page-state.ts';

type CalibrationOutput = z.infer<typeof CalibrationOutputSchema>;
type NumberValue = number | string;

function check(value: NumberValue, ok: (n: number) => boolean, message: string): string | undefined {
  return typeof value === 'number' && ok(value) ? undefined : message;
}

export function CalibrationPanel({
  preview,
  runsKey,
  output,
  onOutput,
  estimatedPrior,
  connectionKey,
}: {
  readonly preview: LabelPreview;
  readonly runsKey: readonly unknown[];
  readonly output: CalibrationOutput | null;
  readonly onOutput: (output: CalibrationOutput) => void;
  readonly estimatedPrior: number | null;
  readonly connectionKey: string;
}) {
  const queryClient = useQueryClient();
  const [datasetId, setDatasetId] = usePageState(connectionKey, 'calibration-dataset', 'labels-1', TEXT_CODEC);
  const [modelVersion, setModelVersion] = usePageState(
    connectionKey,
    'calibration-model-version',
    'fs-candidate-1',
    TEXT_CODEC,
  );
  // Kept per estimated prior: a new estimate (the page remounts this panel for it) starts the field from it again.
  const [prior, setPrior] = useFieldState(
    connectionKey,
    `calibration-prior:${String(estimatedPrior)}`,
    estimatedPrior ?? 0.01,
  );
  const [smoothing, setSmoothing] = useFieldState(connectionKey, 'calibration-smoothing', 1);
  const [validation, setValidation] = useFieldState(connectionKey, 'calibration-validation', 0.3);
  // 0.99 by default, the target the quality figures are measured at (engine/benchmark/febrl-assurance.ts): Certain
  // links without a person, and a wrong link costs more than a review case. 0.95 allowed one wrong link in twenty.
  const [target, setTarget] = useFieldState(connectionKey, 'calibration-target', 0.99);
  const [uText, setUFrom] = usePageState(connectionKey, 'calibration-u-from', 'random-pairs', TEXT_CODEC);
  const uFrom = U_SOURCES.find((s) => s === uText) ?? 'random-pairs';
  const [reviewBudget, setReviewBudget] = useFieldState(
    connectionKey,
    'calibration-review-budget',
    DEFAULT_REVIEW_BUDGET,
  );
  const errors = {
    datasetId: datasetId.trim() === '' ? 'Give the dataset a label' : undefined,
    modelVersion: modelVersion.trim() === '' ? 'Give the model a version label' : undefined,
    prior: check(
      prior,
      (n) => n >= MODEL_PRIOR_FLOOR && n <= 1 - MODEL_PRIOR_FLOOR,
      `A probability strictly between 0 and 1 (${String(MODEL_PRIOR_FLOOR)} to ${String(1 - MODEL_PRIOR_FLOOR)})`,
    ),
    smoothing: check(smoothing, (n) => n >= MIN_SMOOTHING && n <= 1000, `From ${String(MIN_SMOOTHING)} to 1000`),
    validation: check(validation, (n) => n > 0 && n < 1, 'A fraction strictly between 0 and 1'),
    target: check(target, (n) => n >= 0 && n <= 1, 'From 0 to 1'),
    // Only u from random pairs reads the registry's candidates the budget is counted against.
    reviewBudget:
      uFrom === 'labels'
        ? undefined
        : check(reviewBudget, (n) => n >= 0 && n <= 100_000, 'From 0 to 100,000 pairs per 1,000 records'),
  };
  const invalid = Object.values(errors).some((e) => e !== undefined);
  const labelsReady = preview.pairs.length > 0 && preview.issues.length === 0;
  const calibrate = useTask('matching/calibrate', (answer) => {
    onOutput(answer);
    void queryClient.invalidateQueries({ queryKey: runsKey });
  });
  const request = () => ({
    datasetId: datasetId.trim(),
    modelVersion: modelVersion.trim(),
    pairs: [...preview.pairs],
    rowNumbers: [...preview.lineNumbers],
    priorMatchProbability: Number(prior),
    smoothing: Number(smoothing),
    validationFraction: Number(validation),
    targetPrecision: Number(target),
    uFrom,
    ...(uFrom === 'labels' ? {} : { reviewBudget: Number(reviewBudget) }),
  });

  return (
    <Stack gap="lg">
      <Card withBorder padding="lg" component="section" aria-labelledby="cal-request-title">
        <Title order={2} size="h4" id="cal-request-title" mb="xs">
          Calibrate a Fellegi-Sunter model
        </Title>
        <Group mb="sm">
          {preview.rows > 0 ? (
            <PreviewSummary preview={preview} />
          ) : (
            <Text size="sm" c="dimmed">
              No labels yet: calibration needs at least 10 matches and 10 non-matches.
            </Text>
          )}
        </Group>
        <form
          aria-label="Calibration request"
          onSubmit={(event) => {
            event.preventDefault();
            if (labelsReady && !invalid) calibrate.start(request());
          }}
        >
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            <TextInput
              label="Dataset ID"
              description="The version label of this label set"
              value={datasetId}
              onChange={(e) => {
                setDatasetId(e.currentTarget.value);
              }}
              maxLength={100}
              error={errors.datasetId}
            />
            <TextInput
              label="Model version"
              description="The label the produced model carries"
              value={modelVersion}
              onChange={(e) => {
                setModelVersion(e.currentTarget.value);
              }}
              maxLength={100}
              error={errors.modelVersion}
            />
            <NumberInput
              label="Prior match probability"
              description={`The share of true matches among the pairs the scorer meets in production. It must be explicit: labelled samples are usually balanced (about half matches), far from production's share, and the model's probabilities follow the prior. Estimate it as expected true pairs ÷ pairs compared (docs/assurance.md, "Choosing the prior").${estimatedPrior === null ? '' : ` This sandbox's estimate: ${estimatedPrior.toFixed(4)}.`}`}
              value={prior}
              onChange={setPrior}
              decimalScale={8}
              step={0.001}
              error={errors.prior}
            />
            <NumberInput
              label="Smoothing"
              description="Added to every band count, so no m or u is 0 or 1 (1 is Laplace smoothing)"
              value={smoothing}
              onChange={setSmoothing}
              decimalScale={4}
              step={0.5}
              error={errors.smoothing}
            />
            <NumberInput
              label="Validation fraction"
              description="The share of each class held out, never trained on, for the quality figures"
              value={validation}
              onChange={setValidation}
              decimalScale={3}
              step={0.05}
              error={errors.validation}
            />
            <NumberInput
              label="Target precision"
              description="The precision wanted of the links made without a person (Certain; 0.99 by default). The recommended threshold is the lowest among the held-out scores whose precision reaches this with 95% confidence (the lower end of its interval), so a small held-out set may meet none"
              value={target}
              onChange={setTarget}
              decimalScale={3}
              step={0.01}
              error={errors.target}
            />
            <NumberInput
              label="Review budget per 1,000 records"
              description="With u from random pairs, the Probable to apply with the model rises, if needed, so that at most about this many of the registry's candidate pairs per 1,000 records fall in the review band, as the estimate's suggestion does"
              value={reviewBudget}
              disabled={uFrom === 'labels'}
              onChange={setReviewBudget}
              decimalScale={2}
              step={5}
              error={errors.reviewBudget}
            />
          </SimpleGrid>
          <Radio.Group
            mt="md"
            label="u-probabilities from"
            description="How often two different people agree on each field, the other half of every weight (m, from your labelled matches, is the first)"
            value={uFrom}
            onChange={setUFrom}
          >
            <Stack gap="xs" mt="xs">
              <Radio
                value="random-pairs"
                label="Random pairs of this registry (recommended)"
                description="300,000 random pairs of the registry's records (of a seeded sample of 100,000 in a larger registry), as the estimate draws them; the prior above is restated for random pairs in the report. On our labelled benchmarks it linked more true pairs where only names and birth dates are known, and about as many elsewhere (docs/assurance.md)"
              />
              <Radio
                value="labels"
                label="Your labelled non-matches (the specification's method)"
                description="Non-matches drawn from blocking candidates agree on the fields they were blocked on, so exact agreement on them can count for little or even against a match"
              />
            </Stack>
          </Radio.Group>
          <Group mt="md">
            <Button type="submit" loading={calibrate.isPending} disabled={!labelsReady || invalid}>
              Calibrate on {formatCount(preview.pairs.length)} pairs
            </Button>
            <Text size="sm" c="dimmed">
              The model is returned for review; nothing is activated.
            </Text>
          </Group>
        </form>
        <TaskOutcome task={calibrate} what="calibration" />
      </Card>
      {output !== null ? (
        <CalibrationReportView
          key={output.model.datasetDigest + output.model.modelVersion}
          output={output}
          name={output.model.modelVersion}
          connectionKey={connectionKey}
        />
      ) : null}
    </Stack>
  );
}
