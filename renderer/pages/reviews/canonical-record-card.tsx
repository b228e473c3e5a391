/**
 * An identity's canonical record on its page: each field's surviving value and the record it came from, as
 * survivorship last built it (the most trusted source that has the field, then the most recently updated record).
 * Patient values: read only for this page (identities/history withValues), never logged.
 */
import { Card, Table, Text, Title } from '@mantine/core';
import type { IdentityHistory } from '../../../engine/contract/identity-history.ts';
import { fieldList } from '../../../engine/contract/field-title.ts';
import { survivingFrom } from '../../../engine/contract/field-value.ts';
import { FIELD_ROWS, fieldValue } from '../assurance/record-fields.ts';

export function CanonicalRecordCard({
  canonical,
  recordsNow,
}: {
  readonly canonical: NonNullable<IdentityHistory['canonical']>;
  /** The identity's records now: a record moved in or out since the last rebuild is not in it yet. */
  readonly recordsNow: number;
}) {
  const rows = FIELD_ROWS.map(([field, label]) => ({
    field,
    label,
    value: fieldValue(canonical.fields, field),
    from: survivingFrom(canonical, field),
  }));
  const present = rows.filter((r) => r.value !== '—');
  // Only the fields a record may carry: the optional ones (a suffix, a birth order) are not missing when absent.
  const missing = rows.filter((r) => r.value === '—' && !OPTIONAL.has(r.field)).map((r) => r.field);
  return (
    <Card withBorder padding="md" bg="var(--mantine-color-white)" component="section" aria-labelledby="canonical-title">
      <Title order={2} size="h4" id="canonical-title">
        Canonical record
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Each field as the registry keeps it for this identity: the value of the most trusted source that has one, then
        of the most recently updated record, written as the matcher compares it (lower case, no punctuation). Built from{' '}
        {canonical.recordCount} record{canonical.recordCount === 1 ? '' : 's'} when it was last rebuilt
        {canonical.recordCount === recordsNow
          ? '.'
          : `; the identity has ${String(recordsNow)} now, and the next reconciliation rebuilds it from all of them.`}
      </Text>
      <Table aria-label="The identity's canonical record" data-testid="canonical-record">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Field</Table.Th>
            <Table.Th>Value</Table.Th>
            <Table.Th>From the record</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {present.map((r) => (
            <Table.Tr key={r.field} data-field={r.field}>
              <Table.Th scope="row" fw={500}>
                {r.label}
              </Table.Th>
              <Table.Td>
                <bdi>{r.value}</bdi>
              </Table.Td>
              <Table.Td>
                <bdi>{r.from}</bdi>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {missing.length === 0 ? null : (
        <Text size="sm" c="dimmed" mt="sm" data-testid="canonical-missing">
          Without a value: {fieldList(missing)} (none of the records it was built from gives one).
        </Text>
      )}
    </Card>
  );
}

const OPTIONAL: ReadonlySet<string> = new Set(['generation', 'birthOrder', 'multipleBirth', 'previousFamilyNames']);
