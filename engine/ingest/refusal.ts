import { isEngineError } from '../contract/errors.ts';
import { databaseErrorCode } from '../store/database-error.ts';

/** Why a record's work failed, in words that carry no value: an engine error's message, else the error's code or class. */
export function refusalOf(error: unknown): string {
  if (isEngineError(error)) return error.message;
  const code = databaseErrorCode(error);
  if (code !== undefined) return `the database refused this record (${code}); nothing was written for it`;
  return `this record could not be ingested (internal ${error instanceof Error ? error.name : 'error'}); nothing was written for it`;
}
