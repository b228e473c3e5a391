/**
 * The labelling workbench: candidate pairs of this tenant (pairs the scorer really meets), nearest the
 * thresholds first or in a chosen score band; both records side by side with each field's evidence; label
 * with the keyboard (M match, N non-match, U unsure, Backspace or P previous: it undoes that pair's label),
 * optionally blind (score and evidence hidden); a progress counter; export as TSV or use the labels at once
 * for evaluation and calibration. The records' values are shown here only (spec: mpi.admin), never logged and never
 * written down: the verdicts are kept by pair (workbench-labels.ts) across draws, navigation and reload, and "Load 50
 * more" draws the next page of the same band, skipping pairs already labelled. Focus returns to the pair after every
 * draw and verdict, and the keys work wherever focus is inside it.
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Progress,
  RangeSlider,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useTask } from '../../hooks/task.ts';
import { TaskProgress } from './task-progress.tsx';
import { useRef } from 'react';
import { useLabelling } from './use-labelling.ts';
import { VerdictButtons, VerdictKeys, type VerdictWords } from './verdict-controls.tsx';
import { labelsToTsv } from '../../../engine/contract/label-tsv.ts';
import type { CandidateOrder, CandidatePair, CandidatePairsOutput } from '../../../engine/contract/workbench.ts';
import { PairTable } from './pair-records.tsx';
import { scoreRuleText } from '../../../engine/contract/score-explanation.ts';
import { FieldBandCell } from './evidence-marks.tsx';

type CandidatePairsPopulation = CandidatePairsOutput['population'];
import { formatCountOf } from '../../format.ts';
import { drawPopulationText, nothingToShowText } from './workbench-text.ts';
import { IconAlert, IconDownload } from '../../icons.tsx';
import { saveText } from './save-file.ts';
import { usePageState, type Codec } from '../../hooks/page-state.ts';
import {
  VERDICTS_CODEC,
  appendNew,
  labelledPairs,
  nextUnlabelled,
  pairKey,
  type KeptVerdict,
  type Verdict,
} from './workbench-labels.ts';
import { fieldTitle } from '../../../engine/contract/field-title.ts';

const BAND_CODEC: Codec<[number, number]> = {
  write: (band) => band,
  read: (stored) =>
    Array.isArray(stored) &&
    stored.length === 2 &&
    stored.every((v) => typeof v === 'number' && v >= 0 && v <= 1) &&
    (stored[0] as number) <= (stored[1] as number)
      ? [stored[0] as number, stored[1] as number]
      : undefined,
};
const ORDER_CODEC: Codec<CandidateOrder> = {
  write: (order) => order,
  read: (stored) =>
    stored === 'near-thresholds' || stored === 'highest-first' || stored === 'lowest-first' ? stored : undefined,
};
const PAGE = 50;

const VERDICT_TEXT: Readonly<Record<Verdict, string>> = { match: 'Match', 'non-match': 'Non-match', unsure: 'Unsure' };
const VERDICT_COLOR: Readonly<Record<Verdict, string>> = { match: 'teal', 'non-match': 'indigo', unsure: 'gray' };

const WORKBENCH_WORDS: VerdictWords = { match: 'Match', nonMatch: 'Non-match' };

export function WorkbenchPanel({
  connectionKey,
  onUse,
}: {
  readonly connectionKey: string;
  readonly onUse: (tsv: string) => void;
}) {
  const [band, setBand] = usePageState<[number, number]>(connectionKey, 'workbench-band', [0, 1], BAND_CODEC);
  const [order, setOrder] = usePageState<CandidateOrder>(
    connectionKey,
    'workbench-order',
    'near-thresholds',
    ORDER_CODEC,
  );
  const [blind, setBlind] = usePageState(connectionKey, 'workbench-blind', false);
  // The pairs drawn (records' values: kept in memory only), how far each band and order was drawn, where we are.
  const [pairs, setPairs] = usePageState<CandidatePair[]>(connectionKey, 'workbench-pairs', []);
  const [drawn, setDrawn] = usePageState<Record<string, number>>(connectionKey, 'workbench-drawn', {});
  const [index, setIndex] = usePageState(connectionKey, 'workbench-index', 0);
  const [verdicts, setVerdicts] = usePageState<Map<string, KeptVerdict>>(
    connectionKey,
    'workbench-verdicts',
    new Map(),
    VERDICTS_CODEC,
  );
  const [population, setPopulation] = usePageState<CandidatePairsPopulation | null>(
    connectionKey,
    'workbench-population',
    null,
  );
  const query = `${band[0].toFixed(2)}-${band[1].toFixed(2)}-${order}`;
  const offset = drawn[query] ?? 0;
  // The band and order a draw was asked for (the slider may move while it runs).
  const asked = useRef(query);
  const load = useTask('labels/candidates', (output) => {
    const drawnFor = asked.current;
    setDrawn((old) => ({ ...old, [drawnFor]: (old[drawnFor] ?? 0) + output.pairs.length }));
    setPopulation(output.population);
    const next = appendNew(pairs, output.pairs);
    setPairs(next);
    setIndex(nextUnlabelled(next, verdicts, 0));
  });
  const { pair, surface, label, previous, onKey } = useLabelling(pairs, verdicts, setVerdicts, index, setIndex);
  const total = pairs.length;
  const given = [...verdicts.values()];
  const labelled = given.filter((v) => v.verdict !== 'unsure').length;
  const unsure = given.length - labelled;
  const toGo = pairs.filter((p) => !verdicts.has(pairKey(p))).length;

  const tsv = (): string => labelsToTsv(labelledPairs(verdicts), { header: true });

  return (
    <Stack gap="lg">
      <Card withBorder padding="lg" component="section" aria-labelledby="wb-title">
        <Title order={2} size="h4" id="wb-title" mb={4}>
          Labelling workbench
        </Title>
        <Text size="sm" c="dimmed" mb="sm" maw={760}>
          Candidate pairs of this tenant, the pairs the scorer meets, scored by the active profile. Pairs near the
          thresholds teach the most. The records' values are shown on this page only.
        </Text>
        <Group align="flex-end" gap="xl">
          <Stack gap={4} w={280}>
            <Text size="sm" fw={500}>
              Score band {band[0].toFixed(2)}–{band[1].toFixed(2)}
            </Text>
            <RangeSlider
              value={band}
              onChange={setBand}
              min={0}
              max={1}
              step={0.01}
              minRange={0.01}
              label={(v) => v.toFixed(2)}
              thumbFromLabel="Lowest score"
              thumbToLabel="Highest score"
            />
          </Stack>
          <SegmentedControl
            value={order}
            onChange={setOrder}
            data={[
              { value: 'near-thresholds', label: 'Near thresholds' },
              { value: 'highest-first', label: 'Highest first' },
              { value: 'lowest-first', label: 'Lowest first' },
            ]}
            aria-label="Order"
          />
          <Switch
            label="Blind (hide score and evidence)"
            checked={blind}
            onChange={(e) => {
              setBlind(e.currentTarget.checked);
            }}
          />
          <Button
            onClick={() => {
              asked.current = query;
              load.start({ minScore: band[0], maxScore: band[1], order, limit: PAGE, offset, seed: 1 });
            }}
            loading={load.isPending}
          >
            {offset === 0 ? `Load ${String(PAGE)} pairs` : `Load ${String(PAGE)} more`}
          </Button>
        </Group>
        <TaskProgress task={load} what="candidate draw" />
        {load.error !== null ? (
          <Alert mt="sm" color="red" variant="light" icon={<IconAlert />} title="No pairs were loaded">
            <Text size="sm">{load.error.message}</Text>
          </Alert>
        ) : null}
        {population !== null ? (
          <Text size="xs" c="dimmed" mt="sm">
            {drawPopulationText(population, offset)}
          </Text>
        ) : null}
        {pairs.length === 0 && verdicts.size > 0 ? (
          <Text size="sm" mt="sm" data-testid="wb-kept">
            {formatCountOf(verdicts.size, 'verdict')} {verdicts.size === 1 ? 'is' : 'are'} kept from before (
            {formatCountOf(labelled, 'label')}). Load pairs to go on: the pairs already labelled are skipped.
          </Text>
        ) : null}
      </Card>

      {pairs.length > 0 || verdicts.size > 0 ? (
        <Card withBorder padding="lg" component="section" aria-labelledby="wb-pair-title">
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h4" id="wb-pair-title">
              {total === 0
                ? 'Labels kept from before'
                : pair === undefined
                  ? 'All pairs seen'
                  : `Pair ${String(index + 1)} of ${String(total)}`}
            </Title>
            <Group gap="xs">
              <Badge variant="light" radius="sm" data-testid="wb-progress">
                {labelled} labelled · {unsure} unsure · {toGo} to go
              </Badge>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconDownload size={14} />}
                disabled={labelled === 0}
                onClick={() => {
                  saveText('workbench-labels.tsv', tsv(), 'text/tab-separated-values');
                }}
              >
                Export TSV
              </Button>
              <Button
                size="xs"
                disabled={labelled === 0}
                onClick={() => {
                  onUse(tsv());
                }}
              >
                Use these labels
              </Button>
            </Group>
          </Group>
          <Progress value={total === 0 ? 0 : ((total - toGo) / total) * 100} aria-label="Labelling progress" mb="sm" />
          <div
            ref={surface}
            tabIndex={0}
            onKeyDown={onKey}
            role="group"
            aria-label="Pair to label: press M for match, N for non-match, U for unsure, Backspace or P to go back and undo"
            data-testid="wb-surface"
            style={{ outlineOffset: 4, borderRadius: 8 }}
          >
            <VerdictKeys words={WORKBENCH_WORDS} />
            {pair === undefined ? (
              <Text size="sm">{nothingToShowText(total, verdicts.size, PAGE)}</Text>
            ) : (
              <Stack gap="sm">
                {!blind ? (
                  <Group gap="xs">
                    <Badge variant="light" radius="sm" data-testid="wb-score">
                      Score {pair.score.toFixed(4)}
                    </Badge>
                    <Badge variant="light" color="gray" radius="sm">
                      Decision {pair.decision}
                    </Badge>
                  </Group>
                ) : null}
                <div data-testid="wb-records">
                  <PairTable
                    left={pair.left}
                    right={pair.right}
                    values={{ left: pair.left.fields, right: pair.right.fields }}
                    evidence={pair.evidence}
                    blind={blind}
                  />
                </div>
                {blind ? null : <WorkbenchRule pair={pair} />}
                {!blind ? (
                  <Table striped aria-label="Field evidence" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Field</Table.Th>
                        <Table.Th>Comparator</Table.Th>
                        <Table.Th>Similarity</Table.Th>
                        <Table.Th>Band</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {pair.evidence.map((e) => (
                        <Table.Tr key={e.field}>
                          <Table.Td>{fieldTitle(e.field)}</Table.Td>
                          <Table.Td>{e.comparator ?? '—'}</Table.Td>
                          <Table.Td>{e.similarity === null ? 'missing' : e.similarity.toFixed(3)}</Table.Td>
                          <Table.Td>
                            <FieldBandCell evidence={e} />
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                ) : null}
              </Stack>
            )}
          </div>
          <VerdictButtons
            words={WORKBENCH_WORDS}
            label={label}
            previous={previous}
            hasPair={pair !== undefined}
            atFirst={index === 0}
          />
          {verdicts.size > 0 && pairs.length > 0 ? (
            <Group gap={4} mt="sm" role="group" aria-label="Labels so far">
              {pairs.map((p, i) => {
                const kept = verdicts.get(pairKey(p));
                return kept === undefined ? null : (
                  <Badge key={pairKey(p)} size="xs" variant="light" color={VERDICT_COLOR[kept.verdict]} radius="sm">
                    {String(i + 1)}: {VERDICT_TEXT[kept.verdict]}
                  </Badge>
                );
              })}
            </Group>
          ) : null}
        </Card>
      ) : null}
    </Stack>
  );
}

/**
 * Why the pair scored as it did where a rule, not the fields, set it: a trusted identifier, a hard conflict, or a
 * limit holding it to Probable (a held pair's score is the Probable threshold itself), as the comparison viewer says.
 */
function WorkbenchRule({ pair }: { readonly pair: CandidatePair }) {
  const rule = scoreRuleText(pair, pair.score);
  return rule === null ? null : (
    <Text size="sm" data-testid="wb-rule">
      {rule}
    </Text>
  );
}
