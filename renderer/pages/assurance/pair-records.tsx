/**
 * The comparison viewer's records: both records' values field by field beside the field's band and its
 * contribution to the score, each in words and in a picture (evidence-marks.tsx). PairRecords reads them from the
 * registry when the pair is opened (matching/explain with values; the registry grants it to mpi.admin only); the
 * workbench hands PairTable the values and evidence its draw brought. Values are shown, never logged, and isolated
 * from the page's text direction (<bdi>) so a right-to-left value cannot reorder its neighbours.
 */
import { Alert, Group, Skeleton, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { FieldEvidence, RecordRef } from '../../../engine/contract/matching.ts';
import type { DisplayFields } from '../../../engine/contract/workbench.ts';
import { useClient } from '../../client/context.tsx';
import { asSentence } from '../../client/errors.ts';
import { IconAlert } from '../../icons.tsx';
import { scoreRuleText } from '../../../engine/contract/score-explanation.ts';
import {
  EVIDENCE_FIELD,
  FIELD_ROWS,
  countedWeight,
  evidenceParts,
  fieldValue,
  rowBandText,
  rowBandTone,
} from './record-fields.ts';
import { BandCell, EvidenceBar } from './evidence-marks.tsx';
import { useConsoleStatus } from '../../hooks/console-data.ts';
import { connectionKey, keys } from '../../hooks/query-keys.ts';

/**
 * scoreThen: the score the pair had where it was shown before (a report, or a review case as it was opened: `then`
 * names it); absent for a pair chosen here, which had no earlier score. blind: the values only, without the bands,
 * the weights and the score (a labeller not swayed by the model).
 */
export function PairRecords({
  left,
  right,
  scoreThen,
  then = 'the report',
  blind = false,
}: {
  readonly left: RecordRef;
  readonly right: RecordRef;
  readonly scoreThen?: number | undefined;
  readonly then?: string;
  readonly blind?: boolean;
}) {
  const client = useClient();
  const connection = connectionKey(useConsoleStatus().data);
  const pair = {
    left: { sourceSystem: left.sourceSystem, localId: left.localId },
    right: { sourceSystem: right.sourceSystem, localId: right.localId },
  };
  const explained = useQuery({
    queryKey: keys.pairRecords(connection, pair.left, pair.right),
    queryFn: () => client.send('matching/explain', { ...pair, withValues: true }),
    // Read afresh each time the pair is opened, and forgotten when it closes: values are not kept in the page.
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });
  if (explained.isPending) return <Skeleton height={180} data-testid="pair-records-loading" />;
  if (explained.error !== null || explained.data.values === undefined) {
    return (
      <Alert color="orange" variant="light" icon={<IconAlert />} title="The records' values cannot be shown">
        <Text size="sm">
          {explained.error === null ? 'The registry did not return them.' : asSentence(explained.error.message)} The
          weights below are still the pair's.
        </Text>
      </Alert>
    );
  }
  const { values, evidence, score } = explained.data;
  // When held, the score is the Probable threshold itself.
  const rule = scoreRuleText(explained.data, score);
  return (
    <div data-testid="pair-records">
      <PairTable left={pair.left} right={pair.right} values={values} evidence={evidence} blind={blind} />
      {blind ? null : (
        <Text size="xs" c="dimmed" mt={4} data-testid="pair-records-note">
          The records as they are now, scored by the active profile: {score.toFixed(4)}
          {scoreThen === undefined
            ? ''
            : Math.abs(score - scoreThen) > 5e-5
              ? ` (${then} scored them ${scoreThen.toFixed(4)}: a record or the profile changed since)`
              : `, as in ${then}`}
          .
        </Text>
      )}
      {blind || rule === null ? null : (
        <Text size="sm" mt={4} data-testid="pair-records-rule">
          {rule}
        </Text>
      )}
    </div>
  );
}

/**
 * Both records' values field by field beside each field's band and contribution, as the pair was scored: the comparison
 * viewer's table, also the workbench's (which has the pair's values and evidence from its draw). blind: the values
 * only, a value that differs from the other record's marked in words.
 */
export function PairTable({
  left,
  right,
  values,
  evidence,
  blind = false,
}: {
  readonly left: RecordRef;
  readonly right: RecordRef;
  readonly values: { readonly left: DisplayFields; readonly right: DisplayFields };
  readonly evidence: readonly FieldEvidence[];
  readonly blind?: boolean;
}) {
  const byField = new Map(evidence.map((e) => [e.field as string, e]));
  // The pair's largest weight fills half a bar, so every field's bar is read against the others.
  const scale = Math.max(1, ...evidence.map((e) => Math.abs(countedWeight(e) ?? 0)));
  return (
    // Scrolls sideways where the records do not fit (a narrow window); focusable, so the keyboard scrolls it too.
    <div role="region" aria-label="The two records, scrolling sideways" tabIndex={0} style={{ overflowX: 'auto' }}>
      <Table
        miw={blind ? 480 : 600}
        withTableBorder
        withColumnBorders
        aria-label={
          blind
            ? 'The two records side by side'
            : "The two records side by side, with each field's band and contribution"
        }
        style={{ fontVariantNumeric: 'tabular-nums' }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Field</Table.Th>
            <Table.Th>
              <bdi>
                {left.sourceSystem} / {left.localId}
              </bdi>
            </Table.Th>
            <Table.Th>
              <bdi>
                {right.sourceSystem} / {right.localId}
              </bdi>
            </Table.Th>
            {blind ? null : <Table.Th>Band</Table.Th>}
            {blind ? null : <Table.Th>Evidence, ln(m/u)</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {FIELD_ROWS.map(([field, label]) => {
            const evidenceField = EVIDENCE_FIELD[field];
            const e = evidenceField === undefined ? undefined : byField.get(evidenceField);
            const a = fieldValue(values.left, field);
            const b = fieldValue(values.right, field);
            if (a === '—' && b === '—') return null;
            const differs = a !== b && a !== '—' && b !== '—';
            return (
              <Table.Tr key={field}>
                <Table.Th scope="row" fw={500}>
                  {label}
                </Table.Th>
                <Table.Td>
                  <bdi>{a}</bdi>
                </Table.Td>
                {/* Blind, no band says which fields differ: the second value says it in words. */}
                <Table.Td fw={blind && differs ? 700 : undefined}>
                  <bdi>{b}</bdi>
                  {blind && differs ? ' (differs)' : ''}
                </Table.Td>
                {blind ? null : (
                  <Table.Td>
                    <BandCell tone={rowBandTone(field, byField)} text={rowBandText(field, byField)} />
                  </Table.Td>
                )}
                {blind ? null : (
                  <Table.Td>
                    <Group gap={8} wrap="nowrap">
                      <EvidenceBar weight={countedWeight(e)} scale={scale} />
                      <EvidenceWords e={e} />
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </div>
  );
}

/**
 * A field's evidence in words (evidenceText), where a narrow window may put why it counts nothing under the figure ("0"
 * over "(with the address)"), never breaking the figure from its "for" or "against".
 */
function EvidenceWords({ e }: { readonly e: FieldEvidence | undefined }) {
  const { figure, why } = evidenceParts(e);
  return (
    <span>
      <span style={{ whiteSpace: 'nowrap' }}>{figure}</span>
      {why === null ? null : ` ${why}`}
    </span>
  );
}
