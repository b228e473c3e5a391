import type { ErrorIssue } from '../contract/errors.ts';
import { LOCAL_ID_MAX_LENGTH } from '../contract/limits.ts';
import type { R4Identifier, R4Patient } from './patient.ts';

/**
 * The record's own identifier within its source: the value of the first identifier in the source's
 * configured LocalIdentifierSystem, else Patient.id. Systems are compared trimmed (sources pad them);
 * the value is trimmed too, since validation only guarantees it is not blank. The stored local identifier is
 * at most LOCAL_ID_MAX_LENGTH characters (code points, as the schema's CHECK counts them); a longer one is
 * reported on the identifier's value, never written.
 */

function codePoints(s: string): number {
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A low surrogate continues the code point its high surrogate started.
    if (c < 0xdc00 || c > 0xdfff) count++;
  }
  return count;
}

export type LocalIdentifierResult = { ok: true; localId: string } | { ok: false; issue: ErrorIssue };

export function isLocalIdentifier(identifier: R4Identifier, localIdentifierSystem: string | undefined): boolean {
  return localIdentifierSystem !== undefined && identifier.system.trim() === localIdentifierSystem.trim();
}

export function localIdentifierOf(
  patient: R4Patient,
  localIdentifierSystem: string | undefined,
): LocalIdentifierResult {
  const index =
    patient.identifier?.findIndex((identifier) => isLocalIdentifier(identifier, localIdentifierSystem)) ?? -1;
  const local = patient.identifier?.[index];
  if (local !== undefined) {
    const localId = local.value.trim();
    if (codePoints(localId) > LOCAL_ID_MAX_LENGTH) {
      return {
        ok: false,
        issue: {
          path: `identifier[${String(index)}].value`,
          message: `the local identifier must be at most ${String(LOCAL_ID_MAX_LENGTH)} characters (after trimming)`,
        },
      };
    }
    return { ok: true, localId };
  }
  if (patient.id !== undefined) return { ok: true, localId: patient.id };
  // The expected system is configuration, not patient data, so it may be named.
  if (localIdentifierSystem !== undefined) {
    return {
      ok: false,
      issue: {
        path: 'identifier',
        message: `no identifier with the source's local identifier system "${localIdentifierSystem}" and no Patient.id`,
      },
    };
  }
  // Reported on `identifier` like the case above: the record lacks a local identifier either way.
  return {
    ok: false,
    issue: {
      path: 'identifier',
      message:
        'Patient.id is missing and the source has no LocalIdentifierSystem, so the record has no local identifier',
    },
  };
}
