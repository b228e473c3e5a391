/** Display formats: dates in the user's locale and time zone, numbers with grouping. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const tenths = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function formatDateTime(iso: string | null): string {
  if (iso === null) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

const dayAndTime = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

/** A moment in a table's cell: without its year when it is this year's, so a row of dates fits a laptop's width. */
export function formatTableDateTime(iso: string | null, now: Date = new Date()): string {
  if (iso === null) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return tableFormat(date, now).format(date);
}

function tableFormat(date: Date, now: Date): Intl.DateTimeFormat {
  return date.getFullYear() === now.getFullYear() ? dayAndTime : dateTime;
}

/**
 * From one moment to another as the locale writes a span, what the two share said once ("Dec 7, 10:34:48 PM –
 * 10:34:49 PM"), without the year when the span starts this year; only the start while there is no end.
 */
export function formatTimeSpan(startIso: string, endIso: string | null, now: Date = new Date()): string {
  const start = new Date(startIso);
  if (Number.isNaN(start.getTime())) return startIso;
  const end = endIso === null ? null : new Date(endIso);
  const format = tableFormat(start, now);
  if (end === null || Number.isNaN(end.getTime()) || end < start) {
    return end === null ? format.format(start) : `${format.format(start)} – ${formatDateTime(endIso)}`;
  }
  return format.formatRange(start, end);
}

/**
 * The same moment as formatTableDateTime, as its day and its time (the day keeps the words between them, "Dec 7,"),
 * for a cell that may put the time under the day; [text, ''] where the locale's form has no hour to split at.
 */
export function tableDateTimeParts(iso: string, now: Date = new Date()): readonly [string, string] {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return [iso, ''];
  const parts = tableFormat(date, now).formatToParts(date);
  const hour = parts.findIndex((part) => part.type === 'hour');
  if (hour <= 0) return [parts.map((part) => part.value).join(''), ''];
  const day = parts
    .slice(0, hour)
    .map((part) => part.value)
    .join('');
  return [
    day.trimEnd(),
    parts
      .slice(hour)
      .map((part) => part.value)
      .join(''),
  ];
}

/** An expected count, to a tenth and grouped as counts are: "1,728.8", "5.0". */
export function formatTenths(value: number): string {
  return tenths.format(value);
}

export function formatCount(value: number): string {
  return integer.format(value);
}

/** A count with its noun, singular for one: "1 match", "2 matches", "1,204 rows with errors". */
export function formatCountOf(value: number, singular: string, plural = `${singular}s`): string {
  return `${integer.format(value)} ${value === 1 ? singular : plural}`;
}

export function formatRate(value: number): string {
  return value >= 100 ? integer.format(value) : oneDecimal.format(value);
}

/** A duration, and a time left, as the pages and the CLI say them (engine/contract/duration-text.ts). */
export { durationText as formatDuration, remainingText as formatRemaining } from '../engine/contract/duration-text.ts';

/**
 * "a seeded sample of 100,000 of the 1,000,000 records": what a whole-registry read worked on above its bound (of
 * records, or of what `what` names).
 */
export function recordSampleText(sampled: number, records: number, what = 'records'): string {
  return `a seeded sample of ${formatCount(sampled)} of the ${formatCount(records)} ${what}`;
}

/** The user's IANA time zone (for labelling date-time inputs). */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * A threshold as the pages show it large: as it is when short; near 1 as "1 − 1e-15" and near 0 in e-notation to two
 * significant digits, where its digits could not be counted at a glance (a cut at the highest held-out score can sit
 * fifteen nines up). `exact` is the value as saved with the model, for a title and for copying.
 */
export function thresholdFigure(value: number): { readonly text: string; readonly exact: string } {
  const exact = String(value);
  if (exact.length <= 8) return { text: exact, exact };
  // No-break spaces: the figure never wraps between its parts in running text.
  if (value > 0.9999 && value < 1) return { text: `1\u00a0−\u00a0${twoDigitExponent(1 - value)}`, exact };
  if (value > 0 && value < 0.0001) return { text: twoDigitExponent(value), exact };
  return { text: exact, exact };
}

/** 9.99e-16 → "1e-15", 1.234e-5 → "1.2e-5". */
function twoDigitExponent(x: number): string {
  return Number(x.toPrecision(2)).toExponential();
}
