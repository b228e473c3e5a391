/**
 * Plain-text output: aligned tables for people, TSV for pipes, JSON with --json. Every cell and every JSON
 * text goes through printable.ts first: stored text is shown, never obeyed by the terminal.
 */
import { printable, printableJson } from './printable.ts';

export function table(headers: readonly string[], unsafeRows: readonly (readonly string[])[]): string {
  const rows = unsafeRows.map((r) => r.map(printable));
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

export function tsv(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  return [headers, ...rows].map((r) => r.map(printable).join('\t')).join('\n') + '\n';
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
