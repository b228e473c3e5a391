/**
 * Registry audit: how accurate the registry's links are, registry-wide, from a stratified sample of its decisions
 * (audit/sample: linked pairs, and non-linked candidate pairs by score band) that the analyst labels here, blind
 * (the registry's decision, the bands and the score are hidden so they cannot sway the verdict), then precision,
 * recall and F1 of the links with 95% intervals (audit/estimate). The labels stay apart from the review queue's
 * decisions, which lean toward the uncertain band. Each estimate is kept in Saved runs and reopens here.
 */
import { Badge, Button, Card, Group, NumberInput, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  AUDIT_STRATUM_TEXT,
  auditSampleText,
  AuditEstimateSchema,
  AuditSampleSchema,
  type AuditEstimateOutput,
  type AuditSample,
} from '../../../engine/contract/audit.ts';
import { useClient } from '../../client/context.tsx';
import { formatCount, formatCountOf } from '../../format.ts';
import { useTask } from '../../hooks/task.ts';
import { IconAlert } from '../../icons.tsx';
import {
  auditRequest,
  drawnWithTruth,
  labelledByStratum,
  truthLabelled,
  withoutTruthVerdicts,
  withTruthVerdicts,
} from './audit-labels.ts';
import { AuditReport } from './audit-report.tsx';
import { EngineRefusal } from './engine-refusal.tsx';
import { schemaCodec, useFieldState, usePageState, type Codec } from '../../hooks/page-state.ts';
import { PairRecords } from './pair-records.tsx';
import { TaskProgress } from './task-progress.tsx';
import { VERDICTS_CODEC, nextUnlabelled, pairKey, type KeptVerdict } from './workbench-labels.ts';
import { useLabelling } from './use-labelling.ts';
import { VerdictButtons, VerdictKeys, type VerdictWords } from './verdict-controls.tsx';

const SAMPLE_CODEC = schemaCodec<AuditSample | null>((stored) =>
  stored === null ? { success: true, data: null } : AuditSampleSchema.safeParse(stored),
);
const ESTIMATE_CODEC = schemaCodec<AuditEstimateOutput | null>((stored) =>
  stored === null ? { success: true, data: null } : AuditEstimateSchema.safeParse(stored),
);
const INDEX_CODEC: Codec<number> = {
  write: (n) => n,
  read: (stored) => (typeof stored === 'number' && Number.isInteger(stored) && stored >= 0 ? stored : undefined),
};
const REOPENED_CODEC: Codec<string | null> = {
  write: (at) => at,
  read: (stored) => (stored === null || typeof stored === 'string' ? stored : undefined),
};

/** The names the page writes the audit under (the page's reopen puts a saved audit there). */
export const AUDIT_STATE = {
  sample: 'audit-sample',
  verdicts: 'audit-verdicts',
  index: 'audit-index',
  estimate: 'audit-estimate',
  reopened: 'audit-reopened',
} as const;
export const AUDIT_CODECS = {
  sample: SAMPLE_CODEC,
  verdicts: VERDICTS_CODEC,
  index: INDEX_CODEC,
  estimate: ESTIMATE_CODEC,
  reopened: REOPENED_CODEC,
} as const;

const AUDIT_WORDS: VerdictWords = { match: 'Same person', nonMatch: 'Different people' };

export function AuditPanel({
  connectionKey,
  runsKey,
}: {
  readonly connectionKey: string;
  readonly runsKey: readonly unknown[];
}) {
  const client = useClient();
  const queryClient = useQueryClient();
  // Kept across reload like the sample they drew (a reloaded page went back to 400 beside a sample of 40).
  const [size, setSize] = useFieldState(connectionKey, 'audit-size', 400);
  const [seed, setSeed] = useFieldState(connectionKey, 'audit-seed', 1);
  const [sample, setSample] = usePageState<AuditSample | null>(connectionKey, AUDIT_STATE.sample, null, SAMPLE_CODEC);
  const [verdicts, setVerdicts] = usePageState<Map<string, KeptVerdict>>(
    connectionKey,
    AUDIT_STATE.verdicts,
    new Map(),
    VERDICTS_CODEC,
  );
  const [index, setIndex] = usePageState(connectionKey, AUDIT_STATE.index, 0, INDEX_CODEC);
  const [estimate, setEstimate] = usePageState<AuditEstimateOutput | null>(
    connectionKey,
    AUDIT_STATE.estimate,
    null,
    ESTIMATE_CODEC,
  );
  const [reopened, setReopened] = usePageState<string | null>(
    connectionKey,
    AUDIT_STATE.reopened,
    null,
    REOPENED_CODEC,
  );
  const sizeError =
    typeof size === 'number' && Number.isInteger(size) && size >= 40 && size <= 10_000
      ? undefined
      : 'A whole number from 40 to 10,000';
  const seedError =
    typeof seed === 'number' && Number.isInteger(seed) && seed >= 0 ? undefined : 'A whole number from 0';

  const draw = useTask('audit/sample', (drawn) => {
    setSample(drawn);
    setEstimate(null);
    setReopened(null);
    // Verdicts are kept by pair: those given to pairs of this sample before (the same seed again) still count. A
    // sample drawn with the ground truth brings its labels; one drawn to label by hand drops them (a person's
    // verdicts they had replaced come back), so an audit a person labels never holds the truth's unsaid.
    const given = drawnWithTruth(drawn) ? withTruthVerdicts(verdicts, drawn) : withoutTruthVerdicts(verdicts);
    if (given !== verdicts) setVerdicts(given);
    setIndex(nextUnlabelled(drawn.pairs, given, 0));
  });
  const estimating = useMutation({
    mutationFn: (current: AuditSample) => client.send('audit/estimate', auditRequest(current, verdicts)),
    onSuccess: (output) => {
      setEstimate(output);
      setReopened(null);
      void queryClient.invalidateQueries({ queryKey: runsKey });
    },
  });

  const pairs = sample?.pairs ?? [];
  const { pair, surface, label, previous, onKey } = useLabelling(pairs, verdicts, setVerdicts, index, setIndex);
  const given = pairs.filter((p) => verdicts.has(pairKey(p)));
  const unsure = given.filter((p) => verdicts.get(pairKey(p))?.verdict === 'unsure').length;
  const labelled = given.length - unsure;
  const perStratum = sample === null ? new Map<string, number>() : labelledByStratum(sample, verdicts);
  const fromTruth = sample === null ? 0 : truthLabelled(sample, verdicts);

  return (
    <Stack gap="lg">
      <Card withBorder padding="lg" component="section" aria-labelledby="audit-title">
        <Title order={2} size="h4" id="audit-title" mb={4}>
          Registry audit
        </Title>
        <Text size="sm" c="dimmed" mb="sm" maw={820}>
          How accurate are the registry's links, across the whole registry? Draw a stratified sample of its decisions
          (record pairs it links, and record pairs of different identities that share a blocking key, by score band),
          label each pair as the same person or not, and get precision, recall and F1 of the links with 95% intervals.
          These labels are kept apart from review-case decisions, which lean toward the uncertain band.
        </Text>
        <form
          aria-label="Audit sample"
          onSubmit={(event) => {
            event.preventDefault();
            if (sizeError === undefined && seedError === undefined)
              draw.start({ labels: Number(size), seed: Number(seed) });
          }}
        >
          <Group align="flex-end" gap="md">
            <NumberInput
              label="Pairs to label"
              description="400 gives each figure within a few points"
              value={size}
              onChange={setSize}
              allowDecimal={false}
              thousandSeparator=","
              min={40}
              max={10_000}
              step={100}
              w={220}
              error={sizeError}
            />
            <NumberInput
              label="Seed"
              description="The same seed redraws the same sample"
              value={seed}
              onChange={setSeed}
              allowDecimal={false}
              min={0}
              w={200}
              error={seedError}
            />
            <Button
              type="submit"
              loading={draw.isPending}
              disabled={sizeError !== undefined || seedError !== undefined}
            >
              {sample === null ? 'Draw the audit sample' : 'Draw again'}
            </Button>
            <Button
              variant="light"
              loading={draw.isPending}
              disabled={sizeError !== undefined || seedError !== undefined}
              onClick={() => {
                draw.start({ labels: Number(size), seed: Number(seed), groundTruth: true });
              }}
            >
              Draw and label from the ground truth
            </Button>
          </Group>
          <Text size="xs" c="dimmed" mt={6} maw={820}>
            A synthetic sandbox or a benchmark load knows which records are one person: drawn with its ground truth,
            every pair comes labelled, to see the audit's figures at once or check them against the truth. A registry of
            real patients has none.
          </Text>
        </form>
        <div style={{ marginTop: 12 }}>
          <TaskProgress task={draw} what="audit sample" />
        </div>
        {draw.error !== null ? (
          <div style={{ marginTop: 12 }}>
            <EngineRefusal title="No audit sample was drawn" error={draw.error} />
          </div>
        ) : null}
        {sample !== null ? (
          <Table
            mt="md"
            striped
            aria-label="The audit's strata"
            data-testid="audit-strata"
            style={{ fontVariantNumeric: 'tabular-nums' }}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Stratum</Table.Th>
                <Table.Th>Pairs in the registry</Table.Th>
                <Table.Th>In the sample</Table.Th>
                <Table.Th>Labelled</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sample.strata.map((s) => (
                <Table.Tr key={s.name}>
                  <Table.Td>{AUDIT_STRATUM_TEXT[s.name]}</Table.Td>
                  <Table.Td>
                    {sample.sampledIdentities === undefined ? '' : 'about '}
                    {formatCount(s.population)}
                  </Table.Td>
                  <Table.Td>{formatCount(s.sampled)}</Table.Td>
                  <Table.Td>{formatCount(perStratum.get(s.name) ?? 0)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
        {fromTruth > 0 ? (
          <Text size="sm" mt={4} data-testid="audit-truth">
            {formatCount(fromTruth)} of the {formatCount(pairs.length)} pairs were labelled from the ground truth, not
            by a person.
          </Text>
        ) : null}
        {sample?.sampledIdentities !== undefined ? (
          <Text size="xs" c="dimmed" mt={4} data-testid="audit-sampled">
            {auditSampleText(sample.sampledIdentities, sample.identities ?? 0)}
          </Text>
        ) : null}
        {sample?.candidatePairsCapped === true ? (
          <Text size="xs" c="dimmed" mt={4}>
            The registry has more candidate pairs than were listed: the non-linked strata are lower bounds, so recall is
            an upper bound.
          </Text>
        ) : null}
      </Card>

      {sample !== null && pairs.length > 0 ? (
        <Card withBorder padding="lg" component="section" aria-labelledby="audit-pair-title">
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h4" id="audit-pair-title">
              {pair === undefined
                ? 'Every pair of the sample has a verdict'
                : `Audit pair ${String(index + 1)} of ${String(pairs.length)}`}
            </Title>
            <Group gap="xs">
              <Badge variant="light" radius="sm" data-testid="audit-progress">
                {labelled} labelled · {unsure} unsure · {pairs.length - given.length} to go
              </Badge>
              <Button
                size="xs"
                onClick={() => {
                  estimating.mutate(sample);
                }}
                loading={estimating.isPending}
                disabled={labelled === 0}
              >
                Estimate accuracy from {formatCountOf(labelled, 'label')}
              </Button>
            </Group>
          </Group>
          <Progress value={(given.length / pairs.length) * 100} aria-label="Audit labelling progress" mb="sm" />
          <div
            ref={surface}
            tabIndex={0}
            onKeyDown={onKey}
            role="group"
            aria-label="Audit pair to label: press M for same person, N for different people, U for unsure, Backspace or P to go back and undo"
            data-testid="audit-surface"
            style={{ outlineOffset: 4, borderRadius: 8 }}
          >
            <VerdictKeys words={AUDIT_WORDS} />
            {pair === undefined ? (
              <Text size="sm">
                Estimate the registry's accuracy from these labels, or draw a larger sample to narrow the intervals (the
                verdicts given are kept).
              </Text>
            ) : (
              <>
                <Text size="xs" c="dimmed" mb={4}>
                  Blind: whether the registry links this pair, its score and the field bands are hidden, so they cannot
                  sway the verdict.
                </Text>
                <PairRecords key={pairKey(pair)} left={pair.left} right={pair.right} blind />
              </>
            )}
          </div>
          <VerdictButtons
            words={AUDIT_WORDS}
            label={label}
            previous={previous}
            hasPair={pair !== undefined}
            atFirst={index === 0}
          />
          {estimating.error !== null ? (
            <div style={{ marginTop: 12 }}>
              <EngineRefusal title="The accuracy could not be estimated" error={estimating.error} />
            </div>
          ) : null}
        </Card>
      ) : null}
      {sample !== null && pairs.length === 0 ? (
        <Note color="blue" variant="light" icon={<IconAlert />} title="Nothing to audit yet">
          <Text size="sm">The registry has no linked pairs and no candidate pairs: ingest records first.</Text>
        </Note>
      ) : null}
      {estimate !== null ? <AuditReport estimate={estimate} reopened={reopened} /> : null}
    </Stack>
  );
}
