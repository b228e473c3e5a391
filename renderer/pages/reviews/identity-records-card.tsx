/**
 * An identity's records side by side on its page: each field of each record, a value that differs from the
 * canonical record marked, so an analyst sees at a glance which record disagrees, and on what. Patient values, as
 * the canonical record (identities/history withValues).
 */
import { Badge, Card, Group, Table, Text, Title } from '@mantine/core';
import type { IdentityHistory } from '../../../engine/contract/identity-history.ts';
import { MAX_RECORDS_WITH_VALUES } from '../../../engine/contract/identity-history.ts';
import type { DisplayFields } from '../../../engine/contract/workbench.ts';
import { FIELD_ROWS, fieldValue } from '../assurance/record-fields.ts';

type Canonical = NonNullable<IdentityHistory['canonical']>;
type RecordWithFields = IdentityHistory['records'][number] & { readonly fields: DisplayFields };

export function IdentityRecordsCard({
  records,
  canonical,
}: {
  readonly records: IdentityHistory['records'];
  readonly canonical: Canonical;
}) {
  const shown = records.filter((r): r is RecordWithFields => r.fields !== undefined);
  if (shown.length === 0) return null;
  const rows = FIELD_ROWS.map(([field, label]) => ({
    field,
    label,
    surviving: fieldValue(canonical.fields, field),
    values: shown.map((r) => fieldValue(r.fields, field)),
  })).filter((row) => row.values.some((v) => v !== '—'));
  const differing = rows.reduce(
    (n, row) => n + row.values.filter((v) => differs(v, row.surviving, row.field)).length,
    0,
  );
  return (
    <Card withBorder padding="md" bg="var(--mantine-color-white)" component="section" aria-labelledby="records-title">
      <Group gap="sm" align="baseline">
        <Title order={2} size="h4" id="records-title">
          The records side by side
        </Title>
        <Badge color={differing === 0 ? 'teal' : 'orange'} variant="light">
          {differing === 0
            ? 'every value agrees with the canonical record'
            : `${String(differing)} value${differing === 1 ? '' : 's'} differ${differing === 1 ? 's' : ''} from the canonical record`}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" mt={4} mb="sm">
        Each record&rsquo;s fields as the matcher compares them. A value that differs from the canonical record is
        marked: a source&rsquo;s typo or an older address, or a record of another person.
        {records.length > shown.length
          ? ` The first ${String(MAX_RECORDS_WITH_VALUES)} of ${String(records.length)} records are shown; the link-quality scan reads them all.`
          : ''}
      </Text>
      {/* Scrolls sideways when the records do not fit; focusable, so the keyboard scrolls it too. */}
      <div
        role="region"
        aria-label="The records, scrolling sideways"
        tabIndex={0}
        style={{ overflowX: 'auto' }}
        data-testid="identity-records-scroll"
      >
        <Table
          aria-label="The identity's records side by side"
          data-testid="identity-records"
          withColumnBorders
          miw={Math.max(480, 180 + shown.length * 190)}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              {shown.map((r, i) => (
                <Table.Th key={`${r.sourceSystem}/${r.localId}`}>
                  <Text size="xs" c="dimmed" span>
                    {i + 1}{' '}
                  </Text>
                  <bdi>
                    {r.sourceSystem} / {r.localId}
                  </bdi>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.field} data-field={row.field}>
                <Table.Th scope="row" fw={500}>
                  {row.label}
                </Table.Th>
                {row.values.map((value, i) =>
                  differs(value, row.surviving, row.field) ? (
                    <Table.Td key={i} bg="var(--mantine-color-orange-0)" data-differs="true">
                      <Text size="sm" fw={700} span>
                        <bdi>{value}</bdi>
                      </Text>
                      <Text size="xs" c="red.9">
                        differs
                      </Text>
                    </Table.Td>
                  ) : (
                    <Table.Td key={i} {...(value === '—' ? { c: 'dimmed' } : {})}>
                      <bdi>{value}</bdi>
                    </Table.Td>
                  ),
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    </Card>
  );
}

/**
 * A record's value differs from the canonical one: both given and unequal. A missing value is not a difference (the
 * canonical record takes another record's), nor are the lists every record adds to (identifiers, previous names).
 */
function differs(value: string, surviving: string, field: keyof DisplayFields): boolean {
  if (field === 'identifiers' || field === 'previousFamilyNames') return false;
  return value !== '—' && surviving !== '—' && value !== surviving;
}
