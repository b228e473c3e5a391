import type { R4Identifier } from '../fhir/patient.ts';
import { isLocalIdentifier } from '../fhir/local-id.ts';
import { normaliseCode } from './code.ts';
import { isPlaceholderIdentifier } from './placeholder-values.ts';

export interface MatchIdentifier {
  readonly system: string;
  readonly value: string;
}

/** Identifier values compare as upper-case letters and digits: 'ab-123.45 6' → 'AB123456'. */
export function normaliseIdentifierValue(value: string): string | null {
  return normaliseCode(value);
}

function compare(a: MatchIdentifier, b: MatchIdentifier): number {
  // Code-unit order, not locale order: the result must not depend on the machine's locale.
  if (a.system !== b.system) return a.system < b.system ? -1 : 1;
  if (a.value !== b.value) return a.value < b.value ? -1 : 1;
  return 0;
}

/**
 * The identifiers used for matching: all but the record's own local identifier(s), system trimmed but
 * otherwise verbatim (systems are case-sensitive URIs), value normalised; sorted by system then value,
 * without duplicates. Identifiers whose value normalises to nothing or is a placeholder (placeholder-values.ts:
 * "999-99-9999", "UNKNOWN") are dropped.
 */
export function matchIdentifiersOf(
  identifiers: readonly R4Identifier[] | undefined,
  localIdentifierSystem: string | undefined,
): MatchIdentifier[] {
  if (identifiers === undefined || identifiers.length === 0) return [];
  const out: MatchIdentifier[] = [];
  for (const identifier of identifiers) {
    if (isLocalIdentifier(identifier, localIdentifierSystem)) continue;
    const system = identifier.system.trim();
    const value = normaliseIdentifierValue(identifier.value);
    if (system !== '' && value !== null && !isPlaceholderIdentifier(system, identifier.value, value)) {
      out.push({ system, value });
    }
  }
  out.sort(compare);
  return out.filter((id, i) => i === 0 || compare(id, out[i - 1] ?? id) !== 0);
}

/**
 * The indexes of the identifiers (other than the record's own) whose value is a placeholder: matching drops them,
 * and the ingest report warns of each (record-preparer.ts), naming the element, never the value.
 */
export function placeholderIdentifierIndexes(
  identifiers: readonly R4Identifier[] | undefined,
  localIdentifierSystem: string | undefined,
): number[] {
  const out: number[] = [];
  (identifiers ?? []).forEach((identifier, index) => {
    if (isLocalIdentifier(identifier, localIdentifierSystem)) return;
    const value = normaliseIdentifierValue(identifier.value);
    if (value !== null && isPlaceholderIdentifier(identifier.system.trim(), identifier.value, value)) out.push(index);
  });
  return out;
}
