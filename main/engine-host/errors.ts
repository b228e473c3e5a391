/**
 * Errors as data at the console's boundaries (threads, IPC, HTTP): an EngineError keeps its kind; anything else is named
 * only. An unexpected failure (anything but an EngineError, or an internal one made from such a failure) is also
 * written to standard error as where it happened (engine/files/unexpected-trace.ts: its name, code and first frames,
 * never its text), so the line the person reads has something to point to in the console's log.
 */
import { EngineError, isEngineError, type ErrorData } from '../../engine/contract/errors.ts';
import { unexpectedTrace } from '../../engine/host-side.ts';

export const UNEXPECTED_ADVICE =
  'try again, and if it fails again, give your support team the line beginning "mpi-console: unexpected failure" from the console\'s output (the terminal that started it)';

export function toErrorData(error: unknown, log: (line: string) => void = writeToStderr): ErrorData {
  if (isEngineError(error)) {
    if (error.kind === 'internal' && error.cause !== undefined) log(`unexpected failure: ${unexpectedTrace(error)}`);
    return error.toData();
  }
  log(`unexpected failure: ${unexpectedTrace(error)}`);
  // Unexpected errors are not echoed: their text could carry paths or values the renderer should not see.
  return {
    type: 'EngineError',
    kind: 'internal',
    message: `the console failed unexpectedly (${error instanceof Error ? error.name : 'error'}): ${UNEXPECTED_ADVICE}`,
    issues: [],
  };
}

function writeToStderr(line: string): void {
  process.stderr.write(`mpi-console: ${line}\n`);
}

export function fromErrorData(data: ErrorData): EngineError {
  return new EngineError(data.kind, data.message, data.issues);
}
