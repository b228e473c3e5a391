/**
 * A chart's or table's numbers as CSV (RFC 4180: fields quoted when they hold a comma, quote or line break,
 * lines ending CRLF; a null is an empty field; a text starting = + - @ is kept text for spreadsheets).
 */
export type Row = Readonly<Record<string, string | number | boolean | null>>;

function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  // A leading = + - @ would be read as a formula by spreadsheets; a quote mark keeps it text.
  const safe = /^[=+\-@]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function toCsv(rows: readonly Row[]): string {
  const first = rows[0];
  if (first === undefined) return '';
  const columns = Object.keys(first);
  return (
    [
      columns.map(csvField).join(','),
      ...rows.map((row) => columns.map((column) => csvField(row[column] ?? null)).join(',')),
    ].join('\r\n') + '\r\n'
  );
}
