/**
 * A moment in a table's cell: this year's without its year, so a row of dates fits a laptop's width; the full moment
 * is the cell's title, and the machine-readable one its datetime.
 */
import { Text } from '@mantine/core';
import { formatDateTime, formatTableDateTime } from '../format.ts';

export function TableDate({ iso }: { readonly iso: string | null }) {
  if (iso === null) return <Text size="sm">—</Text>;
  return (
    <Text size="sm" component="time" dateTime={iso} title={formatDateTime(iso)} style={{ whiteSpace: 'nowrap' }}>
      {formatTableDateTime(iso)}
    </Text>
  );
}
