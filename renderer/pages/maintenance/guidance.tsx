/** When to run which job: the spec's guidance (item 9), shown beside the jobs and in the confirmation. */
import { Badge, Table, Text } from '@mantine/core';
import type { JobKind } from '../../../engine/contract/maintenance.ts';

export interface GuidanceRow {
  readonly change: string;
  readonly run: string;
  /** The job kinds this row asks for (empty: neither). */
  readonly kinds: readonly JobKind[];
}

export const GUIDANCE: readonly GuidanceRow[] = [
  {
    change: 'Matching weights, probability model, comparators or thresholds changed',
    run: 'Reconciliation',
    kinds: ['reconciliation'],
  },
  {
    change: 'Blocking rules, blocking inputs or HMAC secrets changed',
    run: 'Stage the old/new union, re-index, then reconciliation',
    kinds: ['reindex', 'reconciliation'],
  },
  {
    change: 'Source trust, survivorship or authoritative-identifier handling changed',
    run: 'Reconciliation; also re-index if a blocking input is affected',
    kinds: ['reconciliation', 'reindex'],
  },
  {
    change: 'Controlled catch-up from a source system',
    run: 'Reconciliation with the external source and a changed-since window',
    kinds: ['reconciliation'],
  },
  { change: 'Routine ingestion of a single source patient', run: 'Neither job is needed', kinds: [] },
  {
    change: 'Periodic assurance',
    run: 'Scheduled reconciliation at the locally approved cadence',
    kinds: ['reconciliation'],
  },
];

export const KIND_EFFECT: Record<JobKind, string> = {
  reindex:
    'Writes new blocking tags on every active identity, in bounded batches. It never merges identities and never re-evaluates past matches. Before any write, its validation phase checks that every identity keeps a blocking key in both the old and the target index; if one does not, the job fails and nothing changes.',
  reconciliation:
    'Rebuilds each canonical identity from its source records, then re-runs bounded matching across the population. Likely duplicates become review cases (kind Reconciliation on the Review cases page) for a person to decide; it never links two identities by itself.',
};

export function GuidanceTable({ highlight }: { readonly highlight?: JobKind }) {
  return (
    <Table verticalSpacing="xs" aria-label="When to run which job">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>What changed</Table.Th>
          <Table.Th>What to run</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {GUIDANCE.map((row) => {
          const applies = highlight !== undefined && row.kinds.includes(highlight);
          return (
            <Table.Tr key={row.change} {...(applies ? { bg: 'var(--mantine-color-indigo-0)' } : {})}>
              <Table.Td>
                <Text size="sm">{row.change}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" fw={applies ? 600 : 400}>
                  {row.run}
                  {applies ? (
                    <Badge ml={6} size="xs" variant="light" radius="sm">
                      this job
                    </Badge>
                  ) : null}
                </Text>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
