/** The fields of a record as the workbench and the comparison viewer show them, in reading order (the schema's). */
import { fieldTitle } from '../../../engine/contract/field-title.ts';
import { DisplayFieldsSchema, type DisplayFields } from '../../../engine/contract/workbench.ts';
import type { FieldEvidence } from '../../../engine/contract/matching.ts';
import { signed } from './metric-text.ts';

export { fieldValue, showValue } from '../../../engine/contract/field-value.ts';

export const FIELD_ROWS: readonly (readonly [keyof DisplayFields, string])[] = (
  Object.keys(DisplayFieldsSchema.shape) as (keyof DisplayFields)[]
)
  // A partial birth date is shown in the birth date's row (fieldValue).
  .filter((field) => field !== 'partialBirthDate')
  .map((field) => [field, fieldTitle(field)]);

/** The evidence field a display row is compared under (previous family names and middle names beside the name). */
export const EVIDENCE_FIELD: Readonly<Partial<Record<keyof DisplayFields, string>>> = {
  familyName: 'familyName',
  givenName: 'givenName',
  birthDate: 'birthDate',
  sex: 'sex',
  addressLine: 'addressLine',
  city: 'city',
  state: 'state',
  postalCode: 'postalCode',
  phone: 'phone',
  email: 'email',
  identifiers: 'identifier',
};

const NEWBORN_PLACEHOLDER_TEXT = 'not compared: a newborn’s placeholder name';

/**
 * A field's band as the comparison viewer shows it, with the reason when the comparison was not the names' own
 * (scoring/field-comparison.ts): a newborn's placeholder is not compared; two generations of one name, and two of one
 * multiple birth, differ; two birth dates on 1 January, or a partial date beside another, say the year only; a
 * compound family name and one of its names, or a given name and the other record's middle name, share a name
 * (Strong), not the whole name; so do an initial alone and a name of that letter, given or middle.
 * `compared`: the row is a field the scorer compares (else it is compared with the name).
 */
export function bandText(e: Pick<FieldEvidence, 'band' | 'level'> | undefined, compared: boolean): string {
  if (e?.level === 'newborn-placeholder') return NEWBORN_PLACEHOLDER_TEXT;
  if (e?.level === 'generation-differs') return 'Different: the generational suffixes differ';
  if (e?.level === 'birth-order-differs') return 'Different: the birth orders differ (two of one multiple birth)';
  if (e?.level === 'first-of-january-same-year')
    return 'not compared: 1 January, where an unknown birth date is written; the years agree';
  if (e?.level === 'first-of-january-other-year') return 'Different: 1 January of another year';
  if (e?.level === 'partial-date-agrees')
    return 'not compared: one record gives the year (or year and month) only, and it agrees';
  if (e?.level === 'partial-date-differs')
    return 'Different: one record gives the year (or year and month) only, another';
  if (e?.level === 'compound-name-part') return 'Strong: one name of a compound family name';
  if (e?.level === 'middle-name-as-given') return "Strong: one record's given name is the other's middle name";
  if (e?.level === 'initial-of-name') return 'Strong: an initial alone and a name of that letter';
  if (e?.level === 'initial-of-middle-name')
    return "Strong: an initial alone and the other record's middle name of that letter";
  return e?.band ?? (compared ? 'missing' : '(compared with the name)');
}

/**
 * The band column of one display row. A row compared with the name (middle names, previous family names, the suffix)
 * has no band of its own; the middle names of a newborn's placeholder ("Baby Girl": "girl") are part of the
 * placeholder, which is not compared.
 */
export function rowBandText(
  field: keyof DisplayFields,
  byField: ReadonlyMap<string, Pick<FieldEvidence, 'band' | 'level'>>,
): string {
  const evidenceField = EVIDENCE_FIELD[field];
  if (evidenceField !== undefined) return bandText(byField.get(evidenceField), true);
  if (field === 'middleNames' && byField.get('givenName')?.level === 'newborn-placeholder')
    return NEWBORN_PLACEHOLDER_TEXT;
  return bandText(undefined, false);
}

/** The colour family of a field's band in the console's pictures (evidence-marks.tsx): its band's, or none. */
export type BandTone = 'exact' | 'strong' | 'partial' | 'different' | 'none';

const TONE_OF_BAND = { Exact: 'exact', Strong: 'strong', Partial: 'partial', Different: 'different' } as const;

/**
 * The tone of one display row, as rowBandText words it: the band of the field it is compared under; none for a field
 * missing on either side or not compared (a newborn's placeholder, a 1 January or a partial date whose years agree)
 * and for a row compared with the name (middle names, previous family names, the suffix).
 */
export function rowBandTone(
  field: keyof DisplayFields,
  byField: ReadonlyMap<string, Pick<FieldEvidence, 'band' | 'level'>>,
): BandTone {
  const evidenceField = EVIDENCE_FIELD[field];
  return evidenceTone(evidenceField === undefined ? undefined : byField.get(evidenceField));
}

/** The tone of one field's evidence: its band's, or none where it was missing or not compared. */
export function evidenceTone(e: Pick<FieldEvidence, 'band' | 'level'> | undefined): BandTone {
  if (e === undefined || e.band === null || e.level === 'newborn-placeholder') return 'none';
  return TONE_OF_BAND[e.band];
}

/**
 * What a field's evidence adds to the score's log-odds, as evidenceText words it: 0 for household evidence and for a
 * field its address line implies; undefined where no Fellegi-Sunter weight is known (a weighted-similarity score).
 */
export function countedWeight(
  e: Pick<FieldEvidence, 'logLikelihood' | 'householdOnly' | 'impliedBy'> | undefined,
): number | undefined {
  if (e?.householdOnly === true || e?.impliedBy !== undefined) return 0;
  return e?.logLikelihood;
}

/** Shown to two places: a weight that rounds to zero counts neither way. */
const ZERO_WEIGHT = 0.005;

/** Which way a counted weight goes, as evidenceText says it: "for", "against", or neither where it rounds to 0. */
export function weightDirection(weight: number | undefined): 'for' | 'against' | 'none' {
  if (weight === undefined || Math.abs(weight) < ZERO_WEIGHT) return 'none';
  return weight > 0 ? 'for' : 'against';
}

/**
 * A field's contribution to the score in words a reviewer reads at a glance: its weight and which way it counts. A
 * band's name alone can mislead: "Partial" given names may be far apart (theo and christopher) and count against.
 */
export function evidenceText(
  e: Pick<FieldEvidence, 'logLikelihood' | 'householdOnly' | 'impliedBy'> | undefined,
): string {
  const { figure, why } = evidenceParts(e);
  return why === null ? figure : `${figure} ${why}`;
}

/**
 * evidenceText in its two parts: the figure with its way ("−2.56 against", "0") and, for a field that counts nothing
 * although it agrees, why ("(household)", "(with the address)"), which a narrow cell may put under the figure.
 */
export function evidenceParts(e: Pick<FieldEvidence, 'logLikelihood' | 'householdOnly' | 'impliedBy'> | undefined): {
  readonly figure: string;
  readonly why: string | null;
} {
  if (e?.householdOnly === true) return { figure: '0', why: '(household)' };
  if (e?.impliedBy !== undefined) return { figure: '0', why: '(with the address)' };
  const value = e?.logLikelihood;
  if (value === undefined) return { figure: '—', why: null };
  const way = weightDirection(value);
  return { figure: way === 'none' ? '0' : `${signed(value, 2)} ${way}`, why: null };
}
