/**
 * A moment in a table's cell: this year's without its year, so a row of dates fits a laptop's width; the full moment
 * is the cell's title, and the machine-readable one its datetime. On one line; `twoLines`, in a table of many columns,
 * lets the time go under the day where the column is narrow (never a break inside either).
 */
import { Text } from '@mantine/core';
import { formatDateTime, formatTableDateTime, tableDateTimeParts } from '../format.ts';

export function TableDate({ iso, twoLines = false }: { readonly iso: string | null; readonly twoLines?: boolean }) {
  if (iso === null) return <Text size="sm">—</Text>;
  if (twoLines) {
    const [day, time] = tableDateTimeParts(iso);
    return (
      <Text size="sm" component="time" dateTime={iso} title={formatDateTime(iso)}>
        <span style={{ whiteSpace: 'nowrap' }}>{day}</span> <span style={{ whiteSpace: 'nowrap' }}>{time}</span>
      </Text>
    );
  }
  return (
    <Text size="sm" component="time" dateTime={iso} title={formatDateTime(iso)} style={{ whiteSpace: 'nowrap' }}>
      {formatTableDateTime(iso)}
    </Text>
  );
}
