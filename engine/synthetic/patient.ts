import { NATIONAL_ID_SYSTEM } from './national-id.ts';
import type { RecordDraft } from './record.ts';

/**
 * Writes a draft as an R4 Patient JSON object. Keys are always added in the same order, so that
 * JSON.stringify gives byte-identical output for the same seed. Absent data is left out, never null.
 */
export function toPatient(
  draft: RecordDraft,
  id: string,
  localSystem: string,
  localId: string,
): Record<string, unknown> {
  const identifier: { system: string; value: string }[] = [{ system: localSystem, value: localId }];
  if (draft.hasNationalId) identifier.push({ system: NATIONAL_ID_SYSTEM, value: draft.person.nationalId });

  const patient: Record<string, unknown> = {
    resourceType: 'Patient',
    id,
    meta: { lastUpdated: draft.lastUpdated },
    identifier,
    name: draft.names.map((n) => ({ use: n.use, family: n.family, given: [...n.given] })),
  };

  const telecom: { system: string; value: string; use?: string }[] = [];
  if (draft.phone !== null) telecom.push({ system: 'phone', value: draft.phone, use: draft.person.phoneUse });
  if (draft.email !== null) telecom.push({ system: 'email', value: draft.email });
  if (telecom.length > 0) patient['telecom'] = telecom;

  patient['gender'] = draft.person.sex;
  if (draft.birthDate !== null) patient['birthDate'] = draft.birthDate;
  if (draft.address !== null) {
    const { line, city, state, postalCode } = draft.address;
    patient['address'] = [{ use: 'home', type: 'physical', line: [...line], city, state, postalCode, country: 'US' }];
  }
  return patient;
}
