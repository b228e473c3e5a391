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
  /** Trusted identifier system → value. */
  readonly trusted: ReadonlyMap<string, string>;
  /** Other identifiers, system → value (first value per system). */
  readonly otherIdentifiers: ReadonlyMap<string, string>;
}

export function prepareRecord(fields: MatchFields, sets: NameSets): PreparedRecord {
  const trusted = new Map<string, string>();
  const otherIdentifiers = new Map<string, string>();
  for (const { system, value } of fields.identifiers) {
    const target = sets.trustedSystems.has(system) ? trusted : otherIdentifiers;
    if (!target.has(system)) target.set(system, value);
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
