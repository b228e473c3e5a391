import type { ErrorIssue } from '../contract/errors.ts';
import type { R4Identifier, R4Patient } from './patient.ts';

/**
 * The record's own identifier within its source: the value of the first identifier in the source's
 * configured LocalIdentifierSystem, else Patient.id. Systems are compared trimmed (sources pad them);
 * the value is trimmed too, since validation only guarantees it is not blank.
 */

export type LocalIdentifierResult = { ok: true; localId: string } | { ok: false; issue: ErrorIssue };

export function isLocalIdentifier(identifier: R4Identifier, localIdentifierSystem: string | undefined): boolean {
  return localIdentifierSystem !== undefined && identifier.system.trim() === localIdentifierSystem.trim();
}

export function localIdentifierOf(patient: R4Patient, localIdentifierSystem: string | undefined): LocalIdentifierResult {
  const local = patient.identifier?.find((identifier) => isLocalIdentifier(identifier, localIdentifierSystem));
  if (local !== undefined) return { ok: true, localId: local.value.trim() };
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
      message: 'Patient.id is missing and the source has no LocalIdentifierSystem, so the record has no local identifier',
    },
  };
}
