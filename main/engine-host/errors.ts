/** Errors as data at the console's boundaries (threads, IPC, HTTP): an EngineError keeps its kind; anything else is named only. */
import { EngineError, isEngineError, type ErrorData } from '../../engine/contract/errors.ts';

export function toErrorData(error: unknown): ErrorData {
  if (isEngineError(error)) return error.toData();
  // Unexpected errors are not echoed: their text could carry paths or values the renderer should not see.
  return {
    type: 'EngineError',
    kind: 'internal',
    message: `the console failed unexpectedly (${error instanceof Error ? error.name : 'error'})`,
    issues: [],
  };
}

export function fromErrorData(data: ErrorData): EngineError {
  return new EngineError(data.kind, data.message, data.issues);
}
