/** A chart's or table's numbers, saved as CSV or JSON. */
import { Button, Group } from '@mantine/core';
import { IconDownload } from '../../icons.tsx';
import { toCsv, type Row } from './csv.ts';
import { saveText } from './save-file.ts';

export function ExportButtons({
  name,
  label,
  rows,
}: {
  readonly name: string;
  readonly label: string;
  readonly rows: () => readonly Row[];
}) {
  return (
    <Group gap={4} wrap="nowrap">
      <Button
        size="compact-xs"
        variant="subtle"
        leftSection={<IconDownload size={12} />}
        aria-label={`Save ${label} as CSV`}
        onClick={() => {
          saveText(`${name}.csv`, toCsv(rows()), 'text/csv');
        }}
      >
        CSV
      </Button>
      <Button
        size="compact-xs"
        variant="subtle"
        leftSection={<IconDownload size={12} />}
        aria-label={`Save ${label} as JSON`}
        onClick={() => {
          saveText(`${name}.json`, `${JSON.stringify(rows(), null, 2)}\n`, 'application/json');
        }}
      >
        JSON
      </Button>
    </Group>
  );
}
