/**
 * How long the running step of a long operation has left, from its own pace since the window first saw it (items
 * done since then × time per item, over the items left of its total), as the Maintenance page estimates a job's phase.
 * Steps cost very different amounts per item, so only the running one is estimated. Null while the pace is not yet
 * known: no total, nothing done since the mark, or under MIN_OBSERVED_MS of watching.
 */

/** Where and when the window first saw a step: its run (the task's start), its name and the items it had done. */
export interface StepMark {
  readonly run: string;
  readonly phase: string;
  readonly at: number;
  readonly done: number;
}

export const MIN_OBSERVED_MS = 3000;

export function stepRemainingMs(mark: StepMark, done: number, total: number | null, now: number): number | null {
  if (total === null || total <= 0) return null;
  const spent = now - mark.at;
  const progressed = done - mark.done;
  if (spent < MIN_OBSERVED_MS || progressed <= 0) return null;
  return (Math.max(0, total - done) * spent) / progressed;
}

/** The mark to keep for this step: the same one while the run and step are the same, a new one when either changes. */
export function nextMark(
  mark: StepMark | null,
  run: string,
  progress: { readonly phase: string; readonly done: number } | null,
  now: number,
): StepMark | null {
  if (progress === null) return null;
  if (mark !== null && mark.run === run && mark.phase === progress.phase) return mark;
  return { run, phase: progress.phase, at: now, done: progress.done };
}
