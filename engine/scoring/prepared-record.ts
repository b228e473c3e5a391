/**
 * A record made ready for fast comparison: its name fields prepared for the profile's comparators (phonetic
 * codes, nickname groups), its birth date as 8 digits, its address line's sorted bigrams, and its identifiers split
 * into trusted and other.
 * Preparing once per record keeps per-pair work to plain string comparisons.
 *
 * It is also where the work of one comparison is bounded, whatever a source sends. Jaro-Winkler and
 * Damerau-Levenshtein take time proportional to the product of the lengths, and identifiers are compared
 * system by system, so comparators see at most:
 *   - MAX_COMPARED_LENGTH (128) code units of a name, city, postcode, phone, birth date or identifier value;
 *   - MAX_COMPARED_ADDRESS_LENGTH (512) of the address line (Dice, linear in the length);
 *   - MAX_COMPARED_IDENTIFIER_SYSTEMS (16) non-trusted identifier systems (the first in system order), one
 *     value each;
 *   - MAX_COMPARED_PREVIOUS_FAMILY_NAMES (8) previous family names, in the order received.
 * No real record reaches these (the longest names are about 40 characters, addresses about 150, records
 * carry a handful of identifiers), so real comparisons are unchanged; a hostile record costs at most
 * about 16 + 15 comparisons of 128 × 128. A value cut at the cap is compared on what remains, so two values
 * that first differ beyond it compare as equal: only values no real record has. Trusted identifiers are
 * never cut (their equality decides certain) and are bounded by the profile (at most 20 systems). The
 * record's own fields stay whole: survivorship, blocking and storage use them.
 */
import type { MatchFields } from '../contract/fields.ts';
import { prepareName, type NameComparatorSet, type PreparedName } from '../comparators/name-comparison.ts';
import type { TermCount, TermFrequencyReader } from './term-frequency.ts';
import { sortedBigrams } from '../comparators/dice-coefficient.ts';
import { middleNameList } from '../comparators/middle-names.ts';
import { isNewbornName } from '../normalise/newborn-name.ts';
import { addressKey } from '../comparators/address-key.ts';
import { familyNameKey } from '../comparators/family-name-key.ts';

export interface NameSets {
  readonly family: NameComparatorSet;
  readonly given: NameComparatorSet;
  readonly trustedSystems: ReadonlySet<string>;
  /** Non-trusted identifier systems that are personal (household-evidence.ts); the others may be shared by a family. */
  readonly personalSystems: ReadonlySet<string>;
}

export const MAX_COMPARED_LENGTH = 128;
export const MAX_COMPARED_ADDRESS_LENGTH = 512;
export const MAX_COMPARED_IDENTIFIER_SYSTEMS = 16;
export const MAX_COMPARED_PREVIOUS_FAMILY_NAMES = 8;

export interface PreparedRecord {
  /** The record's fields, whole. */
  readonly fields: MatchFields;
  /** The fields as comparators see them: strings cut at the caps above (the same object when nothing is cut). */
  readonly compared: MatchFields;
  readonly family: PreparedName | null;
  readonly previousFamilies: readonly PreparedName[];
  /** Null without a given name, and for a newborn's placeholder (newborn). */
  readonly given: PreparedName | null;
  /**
   * The given names are a newborn's placeholder ("Baby Boy", "Twin A": normalise/newborn-name.ts): compared as
   * missing, with given and middle names null here, and the pair held for review (possible-twin.ts).
   */
  readonly newborn: boolean;
  /** The compared middle names, split (comparators/middle-names.ts middleNameList); null without any. */
  readonly middleNames: readonly string[] | null;
  /**
   * The birth date's digits, YYYYMMDD; without one, a partial date's (YYYY or YYYYMM: MatchFields.partialBirthDate),
   * the length saying which; null with neither.
   */
  readonly birthDigits: string | null;
  /**
   * The compared address line's bigrams, sorted once for the Dice coefficient of every pair the record is in (none
   * without an address line).
   */
  readonly addressBigrams: readonly number[];
  /**
   * The compared address line with its street types, directions and unit designators written one way
   * (comparators/address-key.ts): two lines with one key are one address. Null without an address line.
   */
  readonly addressKey: string | null;
  /** Trusted identifiers as [system, value], first value per system. */
  readonly trusted: readonly IdentifierEntry[];
  /** Other identifiers as [system, value], first value per system. */
  readonly otherIdentifiers: readonly IdentifierEntry[];
  /**
   * The tenant's counts of the record's family and given name when it was prepared (scoring/term-frequency.ts);
   * undefined without a name or a reader. Always present, so every prepared record has one shape: built by spreading
   * an object of optional counts, preparing took about half as long again.
   */
  readonly familyCount: TermCount | undefined;
  readonly givenCount: TermCount | undefined;
}

/** A record has few identifiers: small arrays cost less to build and collect than Maps. */
export type IdentifierEntry = readonly [system: string, value: string];

export function identifierValue(entries: readonly IdentifierEntry[], system: string): string | undefined {
  for (const [s, value] of entries) if (s === system) return value;
  return undefined;
}

/** The first `max` code units, never ending inside a surrogate pair. */
function cut(text: string, max = MAX_COMPARED_LENGTH): string {
  if (text.length <= max) return text;
  const high = text.charCodeAt(max - 1);
  return text.slice(0, high >= 0xd800 && high <= 0xdbff ? max - 1 : max);
}

function cutNullable(text: string | null, max = MAX_COMPARED_LENGTH): string | null {
  return text === null ? null : cut(text, max);
}

/** The fields comparators see; real records come back as the same object. */
function comparedFields(fields: MatchFields): MatchFields {
  const long = (text: string | null, max = MAX_COMPARED_LENGTH): boolean => text !== null && text.length > max;
  if (
    !long(fields.familyName) &&
    !long(fields.givenName) &&
    !long(fields.middleNames) &&
    !long(fields.addressLine, MAX_COMPARED_ADDRESS_LENGTH) &&
    !long(fields.city) &&
    !long(fields.postalCode) &&
    !long(fields.phone) &&
    fields.previousFamilyNames.length <= MAX_COMPARED_PREVIOUS_FAMILY_NAMES &&
    fields.previousFamilyNames.every((name) => !long(name))
  ) {
    return fields;
  }
  return {
    ...fields,
    familyName: cutNullable(fields.familyName),
    givenName: cutNullable(fields.givenName),
    middleNames: cutNullable(fields.middleNames),
    previousFamilyNames: fields.previousFamilyNames
      .slice(0, MAX_COMPARED_PREVIOUS_FAMILY_NAMES)
      .map((name) => cut(name)),
    addressLine: cutNullable(fields.addressLine, MAX_COMPARED_ADDRESS_LENGTH),
    city: cutNullable(fields.city),
    postalCode: cutNullable(fields.postalCode),
    phone: cutNullable(fields.phone),
  };
}

export function prepareRecord(fields: MatchFields, sets: NameSets, frequencies?: TermFrequencyReader): PreparedRecord {
  const trusted: IdentifierEntry[] = [];
  const otherIdentifiers: IdentifierEntry[] = [];
  for (const { system, value } of fields.identifiers) {
    if (sets.trustedSystems.has(system)) {
      if (identifierValue(trusted, system) === undefined) trusted.push([system, value]);
    } else if (
      otherIdentifiers.length < MAX_COMPARED_IDENTIFIER_SYSTEMS &&
      identifierValue(otherIdentifiers, system) === undefined
    ) {
      otherIdentifiers.push([system, cut(value)]);
    }
  }
  const compared = comparedFields(fields);
  const counts = nameCounts(fields, frequencies);
  const newborn = isNewbornName(fields.givenName, fields.middleNames);
  return {
    fields,
    compared,
    family: compared.familyName === null ? null : prepareName(familyNameKey(compared.familyName), sets.family),
    previousFamilies: compared.previousFamilyNames.map((name) => prepareName(familyNameKey(name), sets.family)),
    given: compared.givenName === null || newborn ? null : prepareName(compared.givenName, sets.given),
    newborn,
    middleNames: newborn ? null : middleNameList(compared.middleNames),
    birthDigits: (fields.birthDate ?? fields.partialBirthDate)?.replaceAll('-', '') ?? null,
    addressBigrams: sortedBigrams(compared.addressLine ?? ''),
    addressKey: compared.addressLine === null ? null : addressKey(compared.addressLine),
    trusted,
    otherIdentifiers,
    familyCount: counts?.[0],
    givenCount: counts?.[1],
  };
}

/** The tenant's counts of the record's family and given name; undefined without a reader. */
function nameCounts(
  { familyName, givenName }: MatchFields,
  frequencies: TermFrequencyReader | undefined,
): readonly [family: TermCount | undefined, given: TermCount | undefined] | undefined {
  if (frequencies === undefined) return undefined;
  if (familyName !== null && givenName !== null && frequencies.countNames !== undefined)
    return frequencies.countNames(familyName, givenName);
  return [
    familyName === null ? undefined : frequencies.count('familyName', familyName),
    givenName === null ? undefined : frequencies.count('givenName', givenName),
  ];
}
