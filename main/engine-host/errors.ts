/**
 * Errors as data at the console's boundaries (threads, IPC, HTTP): an EngineError keeps its kind; anything else is named
 * only. An unexpected failure (anything but an EngineError, or an internal one made from such a failure) is also
 * written to the console's output and log file as where it happened (engine/files/unexpected-trace.ts: its name, code
 * and first frames, never its text; failure-log.ts), so the line the person reads has something to point to.
 */
import { EngineError, isEngineError, type ErrorData } from '../../engine/contract/errors.ts';
import { unexpectedTrace } from '../../engine/host-side.ts';
import { failureLogPath, writeFailureLine } from './failure-log.ts';

/**
 * What to do after an unexpected failure: where the line for support is. The console names its log file; without
 * one (the registry server's engine threads) the line is in the output of whatever hosts the engine, which the person
 * reading the message may not see, so the words fit both the console's terminal and the server's log.
 */
export function unexpectedAdvice(logFile: string | undefined = failureLogPath()): string {
  const where =
    logFile === undefined
      ? "the output of the program that ran it (the console's terminal, or the registry server's log)"
      : `the console's log, ${logFile}`;
  return `try again, and if it fails again, give your support team the last line beginning "mpi-console: unexpected failure" in ${where}`;
}

export function toErrorData(error: unknown, log: (line: string) => void = writeFailureLine): ErrorData {
  // An EngineError is the engine's own word, unless it is an internal one made from an unexpected failure.
  if (isEngineError(error) && (error.kind !== 'internal' || error.cause === undefined)) return error.toData();
  log(`unexpected failure: ${unexpectedTrace(error)}`);
  const logFile = failureLogPath();
  if (isEngineError(error)) {
    // The engine named the failure; in the console, which keeps a log file, the person is told what to do too (the
    // registry server's answer keeps the engine's words, as its clients read).
    return logFile === undefined
      ? error.toData()
      : { ...error.toData(), message: `${error.message}: ${unexpectedAdvice(logFile)}` };
  }
  // Unexpected errors are not echoed: their text could carry paths or values the renderer should not see.
  return {
    type: 'EngineError',
    kind: 'internal',
    message: `${logFile === undefined ? 'the engine' : 'the console'} failed unexpectedly (${error instanceof Error ? error.name : 'error'}): ${unexpectedAdvice(logFile)}`,
    issues: [],
  };
}

export function fromErrorData(data: ErrorData): EngineError {
  return new EngineError(data.kind, data.message, data.issues);
}
