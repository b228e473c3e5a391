/**
 * A long command's progress on a terminal: one line on standard error, rewritten in place as the work goes and
 * cleared when it ends, so what the command prints after it stays clean. Nothing is written when standard error is
 * not a terminal: a pipe, a file or a script keeps only the result.
 */
import { countText, percentText } from '../../engine/contract/count-text.ts';
import { remainingText } from '../../engine/contract/duration-text.ts';

export interface ProgressSink {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** A terminal is rewritten at most this often (an operation may step thousands of times a second), but for a new phase. */
const REWRITE_EVERY_MS = 100;
/** Below this much time the pace is not yet worth saying. */
const RATE_AFTER_MS = 1000;
const REMAINING_AFTER_MS = 3000;

export class TerminalProgress {
  private shown = '';
  private shownAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly sink: ProgressSink = process.stderr) {}

  /** Rewrites the line, unless it was rewritten under REWRITE_EVERY_MS ago and this is no new phase (`force`). */
  show(text: string, force = false): void {
    if (this.sink.isTTY !== true || text === this.shown) return;
    const now = performance.now();
    if (!force && now - this.shownAt < REWRITE_EVERY_MS) return;
    this.shown = text;
    this.shownAt = now;
    this.sink.write(`\r\u001b[2K${text}`);
  }

  end(): void {
    if (this.shown !== '') this.sink.write('\r\u001b[2K');
    this.shown = '';
    this.shownAt = Number.NEGATIVE_INFINITY;
  }
}

export interface Pace {
  readonly done: number;
  /** What is counted, plural: "lines", "records"; none when the phase before the count names it. */
  readonly unit?: string;
  /** The items in all, when known. */
  readonly total?: number | null;
  /** The share done when the items in all are not known (bytes of a file read, say), and what it is a share of. */
  readonly share?: { readonly of: string; readonly value: number } | null;
  readonly elapsedMs: number;
}

/**
 * "45,000 of 220,000 records, 2,013 a second, about 1 min 27 s left" or "123,456 lines (37.0% of the file), …": the
 * pace since the work began, and the time left at that pace once it has run a few seconds.
 */
export function paceText(pace: Pace): string {
  const total = pace.total ?? null;
  const unit = pace.unit === undefined ? '' : ` ${pace.unit}`;
  const of = pace.share ?? null;
  const share = total !== null && total > 0 ? pace.done / total : (of?.value ?? null);
  const parts = [
    total !== null
      ? `${countText(pace.done)} of ${countText(total)}${unit}`
      : `${countText(pace.done)}${unit}${of === null ? '' : ` (${percentText(of.value)} of ${of.of})`}`,
  ];
  if (pace.elapsedMs >= RATE_AFTER_MS && pace.done > 0)
    parts.push(`${countText(Math.round((pace.done * 1000) / pace.elapsedMs))} a second`);
  if (pace.elapsedMs >= REMAINING_AFTER_MS && share !== null && share > 0 && share < 1)
    parts.push(`${remainingText((pace.elapsedMs * (1 - share)) / share)} left`);
  return parts.join(', ');
}
