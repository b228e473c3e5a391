/**
 * How long a running operation's current step has left at its pace so far (step-estimate.ts), as a component sees
 * it: the clock ticks each second while the operation is active, and the step's first sight is kept across renders
 * (replaced only when the run or the step changes). A task's progress (task-progress.tsx) and a sandbox's creation
 * (the Sandboxes page) both show it.
 */
import { useEffect, useState } from 'react';
import { nextMark, stepRemainingMs, type StepMark } from './step-estimate.ts';

export interface StepProgress {
  readonly phase: string;
  readonly done: number;
  /** The step's items in all; null or 0 while not known. */
  readonly total: number | null;
}

/** `now`, the clock the component reads too; `remainingMs`, null while the pace is not yet known. */
export function useStepRemaining(
  active: boolean,
  run: string,
  progress: StepProgress | null,
): { readonly now: number; readonly remainingMs: number | null } {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => {
      setNow(Date.now());
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, [active]);
  const [mark, setMark] = useState<StepMark | null>(null);
  const seen = nextMark(mark, run, active ? progress : null, now);
  if (seen !== mark) setMark(seen);
  const remainingMs =
    progress === null || seen === null ? null : stepRemainingMs(seen, progress.done, progress.total, now);
  return { now, remainingMs };
}
