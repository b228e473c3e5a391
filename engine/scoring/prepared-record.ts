/**
 * A record made ready for fast comparison: its name fields prepared for the profile's comparators (phonetic
 * codes, nickname groups), its birth date as 8 digits, and its identifiers split into trusted and other.
 * Preparing once per record keeps per-pair work to plain string comparisons.
 */
import type { MatchFields } from '../contract/fields.ts';
import { prepareName, type NameComparatorSet, type PreparedName } from '../comparators/name-comparison.ts';

export interface NameSets {
  readonly family: NameComparatorSet;
  readonly given: NameComparatorSet;
  readonly trustedSystems: ReadonlySet<string>;
}

export interface PreparedRecord {
  readonly fields: MatchFields;
  readonly family: PreparedName | null;
  readonly previousFamilies: readonly PreparedName[];
  readonly given: PreparedName | null;
  readonly birthDigits: string | null;
  /** Trusted identifiers as [system, value], first value per system. */
  readonly trusted: readonly IdentifierEntry[];
  /** Other identifiers as [system, value], first value per system. */
  readonly otherIdentifiers: readonly IdentifierEntry[];
}

/** A record has few identifiers: small arrays cost less to build and collect than Maps. */
export type IdentifierEntry = readonly [system: string, value: string];

export function identifierValue(entries: readonly IdentifierEntry[], system: string): string | undefined {
  for (const [s, value] of entries) if (s === system) return value;
  return undefined;
}

export function prepareRecord(fields: MatchFields, sets: NameSets): PreparedRecord {
  const trusted: IdentifierEntry[] = [];
  const otherIdentifiers: IdentifierEntry[] = [];
  for (const { system, value } of fields.identifiers) {
    const target = sets.trustedSystems.has(system) ? trusted : otherIdentifiers;
    if (identifierValue(target, system) === undefined) target.push([system, value]);
  }
  return {
    fields,
    family: fields.familyName === null ? null : prepareName(fields.familyName, sets.family),
    previousFamilies: fields.previousFamilyNames.map((name) => prepareName(name, sets.family)),
    given: fields.givenName === null ? null : prepareName(fields.givenName, sets.given),
    birthDigits: fields.birthDate === null ? null : fields.birthDate.replaceAll('-', ''),
    trusted,
    otherIdentifiers,
  };
}
