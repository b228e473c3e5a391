/**
 * Samples of a running job's work over time, taken from the backend's pushes, for the items-per-second
 * rate and the throughput chart. Kept in the renderer: they describe what this window has watched.
 */
import type { JobState } from '../../engine/contract/maintenance.ts';
import { itemsDone } from '../pages/maintenance/job-text.ts';

export interface Sample {
  readonly at: number;
  readonly items: number;
}

const MAX_SAMPLES = 600;
const RATE_WINDOW_MS = 5000;
/** Two pushes a few milliseconds apart would give a meaningless rate: a rate spans at least this long. */
const MIN_SPAN_MS = 500;

export class ThroughputSamples {
  private readonly samples = new Map<string, readonly Sample[]>();
  private readonly listeners = new Set<() => void>();

  record(job: JobState, at = Date.now()): void {
    if (job.status !== 'running') return;
    const items = itemsDone(job);
    const previous = this.samples.get(job.jobId) ?? [];
    const last = previous.at(-1);
    if (last !== undefined && last.items === items) return;
    this.samples.set(job.jobId, [...previous, { at, items }].slice(-MAX_SAMPLES));
    for (const listener of this.listeners) listener();
  }

  of(jobId: string): readonly Sample[] {
    return this.samples.get(jobId) ?? EMPTY;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}

const EMPTY: readonly Sample[] = [];

/** Items per second over the last few seconds of samples; null until the samples span long enough. */
export function recentRate(samples: readonly Sample[]): number | null {
  const last = samples.at(-1);
  if (last === undefined) return null;
  const first = samples.find((s) => last.at - s.at <= RATE_WINDOW_MS) ?? last;
  if (last.at - first.at < MIN_SPAN_MS) return null;
  return ((last.items - first.items) * 1000) / (last.at - first.at);
}

/**
 * Points for the chart: seconds since the first sample and the rate over the trailing second (a rate
 * between two pushes 200 ms apart swings with batch boundaries; a one-second window reads steadily).
 */
export function ratePoints(samples: readonly Sample[], windowMs = 1000): { second: number; rate: number }[] {
  const first = samples[0];
  if (first === undefined) return [];
  const points: { second: number; rate: number }[] = [];
  let from = 0;
  for (let i = 1; i < samples.length; i++) {
    const b = samples[i];
    if (b === undefined) continue;
    while (from < i - 1 && b.at - (samples[from + 1]?.at ?? b.at) >= windowMs) from++;
    const a = samples[from];
    if (a === undefined || b.at - a.at < MIN_SPAN_MS) continue;
    points.push({
      second: Math.round((b.at - first.at) / 100) / 10,
      rate: Math.round(((b.items - a.items) * 1000) / (b.at - a.at)),
    });
  }
  return points;
}

/**
 * Tops whose quarters read as round numbers (a quarter of 2.4 thousand is 600): the chart's axis is drawn in four
 * equal steps from 0.
 */
const ROUND_TOPS = [1, 1.2, 1.6, 2, 2.4, 3.2, 4, 4.8, 6, 8, 10];

/** The smallest top at or above value whose four steps are round whole numbers (4, 8 and 12 below 12). */
export function roundAxisTop(value: number): number {
  const small = [4, 8, 12].find((top) => value <= top);
  if (small !== undefined) return small;
  const scale = 10 ** Math.floor(Math.log10(value));
  return (ROUND_TOPS.find((m) => m * scale >= value) ?? 10) * scale;
}

/**
 * The top of the throughput chart's axis: it follows the steady rate, not one burst (a batch committed just as the
 * watch began can read ten times the rest). The 90th percentile with half again of room, never above the peak, then
 * rounded up so the axis reads in round steps (roundAxisTop); a burst is drawn to the top edge, its value in the
 * chart's label and tooltip.
 */
export function rateAxisTop(rates: readonly number[]): number {
  if (rates.length === 0) return roundAxisTop(1);
  const sorted = [...rates].sort((a, b) => a - b);
  const peak = sorted.at(-1) ?? 1;
  const typical = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))] ?? peak;
  return roundAxisTop(Math.max(1, Math.min(peak, typical * 1.5)));
}

/** The axis's five ticks, 0 to its top in four equal steps. */
export function axisTicks(top: number): number[] {
  return [0, 1, 2, 3, 4].map((quarter) => (top * quarter) / 4);
}

/** Steps between the time axis's ticks, in seconds: round to a person reading a clock. */
const SECOND_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600];

/**
 * The time axis's ticks: whole multiples of the smallest round step that gives at most six between the first second
 * and the last (the chart library's own choice ended on the last second, beside a tick one second before it).
 */
export function secondTicks(first: number, last: number): number[] {
  const step = SECOND_STEPS.find((s) => Math.floor(last / s) - Math.ceil(first / s) + 1 <= 6) ?? 3600;
  const ticks: number[] = [];
  for (let tick = Math.ceil(first / step) * step; tick <= last; tick += step) ticks.push(tick);
  return ticks;
}
