/** A chart's or table's numbers, saved as CSV or JSON. */
import { Button, Group, Text } from '@mantine/core';
import { IconDownload } from '../../icons.tsx';
import { toCsv, type Row } from './csv.ts';
import { saveText } from './save-file.ts';

export function ExportButtons({
  name,
  label,
  rows,
  caption,
}: {
  readonly name: string;
  readonly label: string;
  readonly rows: () => readonly Row[];
  /** A word before the buttons where a card has two pairs ("Curve", "Table"), so each says what it saves. */
  readonly caption?: string;
}) {
  return (
    <Group gap={4} wrap="nowrap">
      {caption === undefined ? null : (
        <Text size="xs" c="dimmed" aria-hidden="true">
          {caption}
        </Text>
      )}
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
