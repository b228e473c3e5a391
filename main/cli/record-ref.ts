/** A record named on the command line as SYSTEM/ID: its source system, a slash, its local identifier. */
import { usage } from './context.ts';

export function parseRecordRef(value: string, what: string): { sourceSystem: string; localId: string } {
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1)
    throw usage(`${what} is SYSTEM/ID (a source system, a slash, a local identifier)`);
  return { sourceSystem: value.slice(0, slash), localId: value.slice(slash + 1) };
}
