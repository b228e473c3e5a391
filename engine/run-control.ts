/**
 * What a long operation tells its host while it computes, and how the host stops it. The operations are
 * synchronous (SQLite reads and arithmetic), so a cancel cannot interrupt them from outside: they call step()
 * in their loops, which reports progress (at most every PROGRESS_EVERY_MS) and throws RunCancelled once the host
 * has asked them to stop. A host that runs the operation in a worker thread sets the cancel flag from another
 * thread (a SharedArrayBuffer), so a cancel is seen within one step.
 */
import { EngineError } from './contract/errors.ts';

export interface RunControl {
  /** Reports the phase and items done; throws RunCancelled when the run was asked to stop. */
  step(phase: string, done: number, total?: number | null): void;
}

/** A run asked to stop: not a failure of the operation. */
export class RunCancelled extends EngineError {
  constructor() {
    super('conflict', 'the run was cancelled before it finished; nothing was written');
  }
}

export function isRunCancelled(error: unknown): error is RunCancelled {
  return error instanceof RunCancelled;
}

/** For calls no host follows (the CLI, tests): steps cost a comparison each. */
export const NO_CONTROL: RunControl = { step: () => undefined };

const PROGRESS_EVERY_MS = 200;

/**
 * A control over a cancel flag (an Int32Array whose element 0 becomes 1 to cancel) and a progress sink; the sink
 * is called at most every PROGRESS_EVERY_MS and always for a new phase.
 */
export function flagControl(
  flag: Int32Array,
  report: (phase: string, done: number, total: number | null) => void,
): RunControl {
  let last = 0;
  let lastPhase = '';
  return {
    step(phase, done, total = null) {
      if (Atomics.load(flag, 0) !== 0) throw new RunCancelled();
      const now = Date.now();
      if (phase !== lastPhase || now - last >= PROGRESS_EVERY_MS) {
        last = now;
        lastPhase = phase;
        report(phase, done, total);
      }
    },
  };
}
