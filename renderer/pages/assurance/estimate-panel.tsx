/**
 * "Estimate without labels": the request for an unsupervised Fellegi-Sunter estimate on the connection's own
 * records (matching/estimate), each field with its help text and the contract's bounds, and the answer.
 */
import { Button, Card, Group, NumberInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { DEFAULT_REVIEW_BUDGET, MIN_SMOOTHING } from '../../../engine/contract/assurance.ts';
import {
  DEFAULT_ESTIMATE_RECORDS,
  MAX_ESTIMATE_CANDIDATES,
  MAX_ESTIMATE_RECORDS,
  MAX_RANDOM_PAIRS,
  type EstimateOutputSchema,
} from '../../../engine/contract/estimate.ts';
import { useTask } from '../../hooks/task.ts';
import { TaskOutcome } from './engine-refusal.tsx';
import { EstimateReportView } from './estimate-report.tsx';
import { TEXT_CODEC, useFieldState, usePageState } from '../../hooks/page-state.ts';

type EstimateOutput = z.infer<typeof EstimateOutputSchema>;
type NumberValue = number | string;

function check(value: NumberValue, ok: (n: number) => boolean, message: string): string | undefined {
  return typeof value === 'number' && ok(value) ? undefined : message;
}
const integer =
  (low: number, high: number) =>
  (n: number): boolean =>
    Number.isInteger(n) && n >= low && n <= high;

export function EstimatePanel({
  output,
  onOutput,
  connectionKey,
  runsKey,
}: {
  readonly output: EstimateOutput | null;
  readonly onOutput: (output: EstimateOutput) => void;
  readonly connectionKey: string;
  /** The saved-runs list, refreshed once the console has kept this estimate. */
  readonly runsKey: readonly unknown[];
}) {
  const queryClient = useQueryClient();
  const [modelVersion, setModelVersion] = usePageState(
    connectionKey,
    'estimate-model-version',
    'fs-estimate-1',
    TEXT_CODEC,
  );
  const [seed, setSeed] = useFieldState(connectionKey, 'estimate-seed', 1);
  const [randomPairs, setRandomPairs] = useFieldState(connectionKey, 'estimate-random-pairs', 300_000);
  const [maxCandidates, setMaxCandidates] = useFieldState(connectionKey, 'estimate-max-candidates', 300_000);
  const [maxRecords, setMaxRecords] = useFieldState(connectionKey, 'estimate-max-records', DEFAULT_ESTIMATE_RECORDS);
  const [smoothing, setSmoothing] = useFieldState(connectionKey, 'estimate-smoothing', 1);
  const [targetPrecision, setTargetPrecision] = useFieldState(connectionKey, 'estimate-target-precision', 0.999);
  const [targetRecall, setTargetRecall] = useFieldState(connectionKey, 'estimate-target-recall', 0.999);
  const [reviewBudget, setReviewBudget] = useFieldState(connectionKey, 'estimate-review-budget', DEFAULT_REVIEW_BUDGET);
  const errors = {
    modelVersion: modelVersion.trim() === '' ? 'Give the model a version label' : undefined,
    seed: check(seed, integer(0, 2 ** 32 - 1), `A whole number from 0 to ${String(2 ** 32 - 1)}`),
    randomPairs: check(
      randomPairs,
      integer(1_000, MAX_RANDOM_PAIRS),
      `A whole number from 1,000 to ${MAX_RANDOM_PAIRS.toLocaleString('en')}`,
    ),
    maxCandidates: check(
      maxCandidates,
      integer(100, MAX_ESTIMATE_CANDIDATES),
      `A whole number from 100 to ${MAX_ESTIMATE_CANDIDATES.toLocaleString('en')}`,
    ),
    maxRecords: check(
      maxRecords,
      integer(1_000, MAX_ESTIMATE_RECORDS),
      `A whole number from 1,000 to ${MAX_ESTIMATE_RECORDS.toLocaleString('en')}`,
    ),
    smoothing: check(smoothing, (n) => n >= MIN_SMOOTHING && n <= 1000, `From ${String(MIN_SMOOTHING)} to 1000`),
    targetPrecision: check(targetPrecision, (n) => n > 0 && n < 1, 'A share strictly between 0 and 1'),
    targetRecall: check(targetRecall, (n) => n > 0 && n < 1, 'A share strictly between 0 and 1'),
    reviewBudget: check(reviewBudget, (n) => n >= 0 && n <= 100_000, 'From 0 to 100,000 pairs per 1,000 records'),
  };
  const invalid = Object.values(errors).some((e) => e !== undefined);
  const estimate = useTask('matching/estimate', (result) => {
    onOutput(result);
    void queryClient.invalidateQueries({ queryKey: runsKey });
  });
  const request = () => ({
    modelVersion: modelVersion.trim(),
    seed: Number(seed),
    randomPairs: Number(randomPairs),
    maxCandidatePairs: Number(maxCandidates),
    maxRecords: Number(maxRecords),
    smoothing: Number(smoothing),
    targetPrecision: Number(targetPrecision),
    targetRecall: Number(targetRecall),
    reviewBudget: Number(reviewBudget),
  });

  return (
    <Stack gap="lg">
      <Card withBorder padding="lg" component="section" aria-labelledby="est-request-title">
        <Title order={2} size="h4" id="est-request-title" mb="xs">
          Estimate a Fellegi-Sunter model without labels
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          Fits a model to this connection's own records: u from random record pairs (almost all non-matches), m and the
          share of matches among the blocking candidates by expectation-maximisation. No labels are needed, and the
          precision and recall it reports are the model's own estimate, not a measurement. With labels, Calibration and
          Evaluation measure instead.
        </Text>
        <form
          aria-label="Estimate request"
          onSubmit={(event) => {
            event.preventDefault();
            if (!invalid) estimate.start(request());
          }}
        >
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
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
              label="Seed"
              description="Seeds the random pairs and the candidate sample: the same seed on the same records gives the same model"
              value={seed}
              onChange={setSeed}
              allowDecimal={false}
              min={0}
              error={errors.seed}
            />
            <NumberInput
              label="Random pairs"
              description="Record pairs drawn at random and compared for u; more pairs estimate rare agreements better and take longer"
              value={randomPairs}
              onChange={setRandomPairs}
              allowDecimal={false}
              thousandSeparator=","
              step={10_000}
              error={errors.randomPairs}
            />
            <NumberInput
              label="Max candidate pairs"
              description="At most this many blocking candidates are compared and fitted (a seeded sample when there are more)"
              value={maxCandidates}
              onChange={setMaxCandidates}
              allowDecimal={false}
              thousandSeparator=","
              step={10_000}
              error={errors.maxCandidates}
            />
            <NumberInput
              label="Records read at most"
              description="A registry with more records is estimated on a seeded sample of this many: faster and lighter, with the figures scaled back to the whole registry"
              value={maxRecords}
              onChange={setMaxRecords}
              allowDecimal={false}
              thousandSeparator=","
              step={10_000}
              error={errors.maxRecords}
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
              label="Target precision"
              description="Suggested Certain: the lowest score (at least 0.5) whose model-estimated auto-link precision reaches this"
              value={targetPrecision}
              onChange={setTargetPrecision}
              decimalScale={6}
              step={0.001}
              error={errors.targetPrecision}
            />
            <NumberInput
              label="Target recall"
              description="Suggested Probable: the highest score (at most Certain) whose model-estimated recall of auto-links and reviews reaches this"
              value={targetRecall}
              onChange={setTargetRecall}
              decimalScale={6}
              step={0.001}
              error={errors.targetRecall}
            />
            <NumberInput
              label="Review budget per 1,000 records"
              description="Suggested Probable rises further, if needed, so that at most this many candidate pairs per 1,000 records fall in the review band"
              value={reviewBudget}
              onChange={setReviewBudget}
              decimalScale={2}
              step={5}
              error={errors.reviewBudget}
            />
          </SimpleGrid>
          <Group mt="md">
            <Button type="submit" loading={estimate.isPending} disabled={invalid}>
              Estimate from this registry's records
            </Button>
            <Text size="sm" c="dimmed">
              The model is returned for review; nothing is activated.
            </Text>
          </Group>
        </form>
        <TaskOutcome task={estimate} what="estimate" />
      </Card>
      {output !== null ? (
        <EstimateReportView
          key={output.model.modelVersion + String(output.report.randomPairs.seed)}
          output={output}
          connectionKey={connectionKey}
        />
      ) : null}
    </Stack>
  );
}
