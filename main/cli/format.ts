/**
 * Plain-text output: aligned tables for people, TSV for pipes, JSON with --json. Every cell and every JSON
 * text goes through printable.ts first: stored text is shown, never obeyed by the terminal.
 */
import { printable, printableJson } from './printable.ts';

/** Column widths by a loop: spreading rows into Math.max overflows the stack past about 100k rows. */
function columnWidths(headers: readonly string[], rows: readonly (readonly string[])[]): number[] {
  const widths = headers.map((h) => h.length);
  for (const row of rows) {
    for (let i = 0; i < widths.length; i++) {
      const length = row[i]?.length ?? 0;
      if (length > (widths[i] ?? 0)) widths[i] = length;
    }
  }
  return widths;
}

export function table(headers: readonly string[], unsafeRows: readonly (readonly string[])[]): string {
  const rows = unsafeRows.map((r) => r.map(printable));
  const widths = columnWidths(headers, rows);
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

export function tsv(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  return tsvLines([headers, ...rows]);
}

/** Rows as TSV lines, without a header: a listing written a page at a time. */
export function tsvLines(rows: readonly (readonly string[])[]): string {
  return rows.length === 0 ? '' : rows.map((r) => r.map(printable).join('\t')).join('\n') + '\n';
}

export function keyValues(pairs: readonly (readonly [string, string])[]): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${k.padEnd(width)}  ${printable(v)}`).join('\n') + '\n';
}

export function json(value: unknown): string {
  return printableJson(JSON.stringify(value, null, 2)) + '\n';
}

export function fixed(value: number | null | undefined, digits = 4): string {
  return value === null || value === undefined ? '—' : value.toFixed(digits);
}
