/**
 * Errors as data at the console's boundaries (threads, IPC, HTTP): an EngineError keeps its kind; anything else is named
 * only. An unexpected failure (anything but an EngineError, or an internal one made from such a failure) is also
 * written to the console's output and log file as where it happened (engine/files/unexpected-trace.ts: its name, code
 * and first frames, never its text; failure-log.ts), so the line the person reads has something to point to.
 */
import { EngineError, isEngineError, type ErrorData } from '../../engine/contract/errors.ts';
import { unexpectedTrace } from '../../engine/host-side.ts';
import { failureLogPath, writeFailureLine } from './failure-log.ts';

/** What to do after an unexpected failure: where the line for support is, the log file first when there is one. */
export function unexpectedAdvice(logFile: string | undefined = failureLogPath()): string {
  const where =
    logFile === undefined ? "the console's output (the terminal that started it)" : `the console's log, ${logFile}`;
  return `try again, and if it fails again, give your support team the last line beginning "mpi-console: unexpected failure" in ${where}`;
}

export function toErrorData(error: unknown, log: (line: string) => void = writeFailureLine): ErrorData {
  if (isEngineError(error)) {
    if (error.kind !== 'internal' || error.cause === undefined) return error.toData();
    // An internal error made from an unexpected failure: the engine named it; the person is told what to do too.
    log(`unexpected failure: ${unexpectedTrace(error)}`);
    return { ...error.toData(), message: `${error.message}: ${unexpectedAdvice()}` };
  }
  log(`unexpected failure: ${unexpectedTrace(error)}`);
  // Unexpected errors are not echoed: their text could carry paths or values the renderer should not see.
  return {
    type: 'EngineError',
    kind: 'internal',
    message: `the console failed unexpectedly (${error instanceof Error ? error.name : 'error'}): ${unexpectedAdvice()}`,
    issues: [],
  };
}

export function fromErrorData(data: ErrorData): EngineError {
  return new EngineError(data.kind, data.message, data.issues);
}
