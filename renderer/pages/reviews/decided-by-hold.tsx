/**
 * What reviewers decided, by what held each pair: the decided cases the list's filters hold (whatever hold is chosen),
 * one row a hold, with how many were one person and how many two. A rule whose cases are nearly always one person
 * costs review time; one whose cases are two people kept those links from being made.
 */
import { Anchor, Progress, Table, Text, Title } from '@mantine/core';
import { percentText } from '../../../engine/contract/count-text.ts';
import { formatCount } from '../../format.ts';
import { heldValue, holdTitle, type HoldCount } from './held-filter.ts';

export interface DecidedHold extends HoldCount {
  readonly samePerson?: number | undefined;
}

/** onShow: lists the cases of one hold (a "Held by" choice, heldValue). */
export function DecidedByHold({
  holds,
  onShow,
}: {
  readonly holds: readonly DecidedHold[];
  readonly onShow: (held: string) => void;
}) {
  const decided = holds.filter((h) => h.samePerson !== undefined && h.cases > 0);
  if (decided.length === 0) return null;
  return (
    <section aria-labelledby="decided-by-hold-title" data-testid="decided-by-hold">
      <Title order={3} size="h5" id="decided-by-hold-title">
        What reviewers decided, by what held each pair
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        The decided cases these filters hold, whatever their hold; choose a hold to list its cases. A rule whose cases
        reviewers nearly always find to be one person costs review time; cases found to be two people are wrong links it
        kept from being made.
      </Text>
      <Table.ScrollContainer minWidth={560}>
        <Table aria-label="Decided cases by what held them" style={{ fontVariantNumeric: 'tabular-nums' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Held by</Table.Th>
              <Table.Th ta="right">Decided</Table.Th>
              <Table.Th ta="right">Same person</Table.Th>
              <Table.Th ta="right">Different people</Table.Th>
              <Table.Th w={160}>Share one person</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {decided.map((h) => {
              const same = h.samePerson ?? 0;
              const share = same / h.cases;
              return (
                <Table.Tr key={`${h.limitedBy ?? ''}/${h.twinReason ?? ''}`}>
                  <Table.Td>
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      onClick={() => {
                        onShow(heldValue(h.limitedBy, h.twinReason));
                      }}
                    >
                      {holdTitle(h.limitedBy, h.twinReason)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right">{formatCount(h.cases)}</Table.Td>
                  <Table.Td ta="right">{formatCount(same)}</Table.Td>
                  <Table.Td ta="right">{formatCount(h.cases - same)}</Table.Td>
                  <Table.Td>
                    <Progress
                      value={100 * share}
                      color="teal.7"
                      size="md"
                      aria-label={`${holdTitle(h.limitedBy, h.twinReason)}: ${percentText(share)} decided one person`}
                    />
                    <Text size="xs" c="dimmed">
                      {percentText(share)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </section>
  );
}
