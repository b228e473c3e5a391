/**
 * Survivorship: the canonical record of an identity, rebuilt from its source records. Each field takes the
 * value of the most trusted source that has one (SourceTrust order; a source not listed ranks last), then
 * the most recently updated record (meta.lastUpdated compared as instants), then the oldest record.
 * Identifiers and previous family names are the union over all records. Provenance names the record each
 * field came from (system/localId).
 *
 * The fields a record carries only when its source sent them (a partial birth date, a generational suffix, a birth
 * order, a multiple birth) survive the same way and are absent when no record has one, so an identity without them
 * keeps the canonical record it had. A partial birth date survives only where no record gives a full one, as a
 * record carries it only beside a missing birth date (MatchFields.partialBirthDate).
 */
import type { CanonicalRecord, MatchFields } from '../contract/fields.ts';
import { compareInstants } from '../fhir/instant.ts';

export interface SurvivorInput {
  readonly recordId: number;
  readonly sourceSystem: string;
  readonly localId: string;
  readonly fields: MatchFields;
  readonly sourceLastUpdated: string | null;
}

type ScalarField = Exclude<keyof MatchFields, 'previousFamilyNames' | 'identifiers' | OptionalField>;
type OptionalField = 'partialBirthDate' | 'generation' | 'birthOrder' | 'multipleBirth';
export type { CanonicalRecord };
const SCALAR_FIELDS: readonly ScalarField[] = [
  'familyName',
  'givenName',
  'middleNames',
  'birthDate',
  'sex',
  'addressLine',
  'city',
  'state',
  'postalCode',
  'phone',
  'email',
];
const OPTIONAL_FIELDS: readonly OptionalField[] = ['partialBirthDate', 'generation', 'birthOrder', 'multipleBirth'];

export function survivorOrder(records: readonly SurvivorInput[], trustOrder: readonly string[]): SurvivorInput[] {
  const rank = (system: string): number => {
    const index = trustOrder.indexOf(system);
    return index === -1 ? trustOrder.length : index;
  };
  return [...records].sort((a, b) => {
    const byTrust = rank(a.sourceSystem) - rank(b.sourceSystem);
    if (byTrust !== 0) return byTrust;
    // A record without meta.lastUpdated ranks after every dated one.
    const la = a.sourceLastUpdated;
    const lb = b.sourceLastUpdated;
    if (la !== lb) {
      if (la === null) return 1;
      if (lb === null) return -1;
      const byRecency = compareInstants(lb, la);
      if (byRecency !== 0) return byRecency;
    }
    return a.recordId - b.recordId;
  });
}

export function buildCanonical(records: readonly SurvivorInput[], trustOrder: readonly string[]): CanonicalRecord {
  const ordered = survivorOrder(records, trustOrder);
  const fields: Record<string, unknown> = {};
  const provenance: Partial<Record<ScalarField | OptionalField, string>> = {};
  /** The field's value from the first record in survivor order that has one (`missing` is its absence). */
  const survive = (field: ScalarField | OptionalField, missing: null | undefined): void => {
    const record = ordered.find((r) => r.fields[field] !== missing);
    if (record === undefined) return;
    fields[field] = record.fields[field];
    provenance[field] = `${record.sourceSystem}/${record.localId}`;
  };
  for (const field of SCALAR_FIELDS) {
    fields[field] = null;
    survive(field, null);
  }
  for (const field of OPTIONAL_FIELDS)
    if (field !== 'partialBirthDate' || fields.birthDate === null) survive(field, undefined);
  const previous = new Set<string>();
  const identifiers = new Map<string, { system: string; value: string }>();
  for (const record of ordered) {
    for (const name of record.fields.previousFamilyNames) previous.add(name);
    if (record.fields.familyName !== null && record.fields.familyName !== fields.familyName)
      previous.add(record.fields.familyName);
    for (const id of record.fields.identifiers) identifiers.set(`${id.system}\u001f${id.value}`, id);
  }
  fields.previousFamilyNames = [...previous].sort();
  fields.identifiers = [...identifiers.values()].sort((a, b) =>
    a.system === b.system ? (a.value < b.value ? -1 : 1) : a.system < b.system ? -1 : 1,
  );
  return { fields: fields as unknown as MatchFields, provenance, recordCount: records.length };
}
