import { z } from 'zod';

/**
 * The normalised matching fields of one source record. Every string is already normalised
 * (see engine/normalise): lower case, no diacritics, no punctuation, single spaces. Null means missing.
 */
export interface MatchFields {
  readonly familyName: string | null;
  /** Previous family names (R4 name.use = old or maiden), normalised; used for married-name changes. */
  readonly previousFamilyNames: readonly string[];
  /** First given name. */
  readonly givenName: string | null;
  /** Remaining given names, space separated. */
  readonly middleNames: string | null;
  /** ISO date `YYYY-MM-DD`; only a real calendar date. */
  readonly birthDate: string | null;
  /**
   * A partial birth date (FHIR `YYYY` or `YYYY-MM`) when the source sends only that, so birthDate is null; absent
   * otherwise, and on records normalised before it was kept. Compared at its precision: it can tell two people apart,
   * never join them (comparators/partial-birth-date.ts).
   */
  readonly partialBirthDate?: string;
  readonly sex: 'male' | 'female' | 'other' | null;
  readonly addressLine: string | null;
  readonly city: string | null;
  readonly state: string | null;
  /** Upper-case letters and digits, no spaces. */
  readonly postalCode: string | null;
  /** Digits only, national significant number (at most the last 10 digits). */
  readonly phone: string | null;
  readonly email: string | null;
  /** Identifiers other than the record's own local identifier, normalised values. */
  readonly identifiers: readonly { readonly system: string; readonly value: string }[];
  /**
   * The name's generational suffix (jr, sr, ii, iii, iv: normalise/name.ts generationOf); absent without one, and on
   * records normalised before it was kept.
   */
  readonly generation?: string;
  /**
   * The birth order of one of a multiple birth (FHIR multipleBirthInteger: 1, 2, ...), when the source sends one;
   * absent otherwise, and on records normalised before it was kept.
   */
  readonly birthOrder?: number;
  /**
   * True when the source says the person is one of a multiple birth (FHIR multipleBirthBoolean true, or a birth
   * order); absent otherwise.
   */
  readonly multipleBirth?: true;
}

/**
 * An identity's canonical record, rebuilt by survivorship from its source records: the surviving value of
 * each field and, per field, the record it came from (`system/localId`).
 */
export interface CanonicalRecord {
  readonly fields: MatchFields;
  readonly provenance: Partial<Record<Exclude<keyof MatchFields, 'previousFamilyNames' | 'identifiers'>, string>>;
  readonly recordCount: number;
}

/** The fields compared when scoring a record pair, in evidence order. */
export const FIELD_NAMES = [
  'familyName',
  'givenName',
  'birthDate',
  'sex',
  'addressLine',
  'city',
  'state',
  'postalCode',
  'phone',
  'email',
  'identifier',
] as const;
export type FieldName = (typeof FIELD_NAMES)[number];
export const FieldNameSchema = z.enum(FIELD_NAMES);
/**
 * Each compared field's place in FIELD_NAMES: where a scored pair holds its similarity, band, level and evidence. The
 * scoring modules name a field by it, never by a number of their own.
 */
export const FIELD_INDEX: Readonly<Record<FieldName, number>> = Object.freeze(
  Object.fromEntries(FIELD_NAMES.map((name, index) => [name, index])) as Record<FieldName, number>,
);

export const COMPARATOR_NAMES = [
  'Exact',
  'JaroWinkler',
  'NormalisedDamerauLevenshtein',
  'DiceCoefficient',
  'Phonetic',
  'Nickname',
  // Field comparators in comparison levels (birth dates; postcodes, phones, identifiers): not for names.
  'BirthDateLevels',
  'EditDistanceLevels',
] as const;
/** Comparators that compare one kind of field in levels; the validator refuses them for names. */
export const FIELD_LEVEL_COMPARATORS: readonly ComparatorName[] = ['BirthDateLevels', 'EditDistanceLevels'];
export type ComparatorName = (typeof COMPARATOR_NAMES)[number];
export const ComparatorNameSchema = z.enum(COMPARATOR_NAMES);

/** Similarity bands shared by scoring, evaluation and calibration. */
export const BANDS = ['Exact', 'Strong', 'Partial', 'Different'] as const;
export type Band = (typeof BANDS)[number];
export const BandSchema = z.enum(BANDS);

export const BAND_FLOORS = { Exact: 0.999999, Strong: 0.85, Partial: 0.5 } as const;

export function bandOf(similarity: number): Band {
  if (similarity >= BAND_FLOORS.Exact) return 'Exact';
  if (similarity >= BAND_FLOORS.Strong) return 'Strong';
  if (similarity >= BAND_FLOORS.Partial) return 'Partial';
  return 'Different';
}
