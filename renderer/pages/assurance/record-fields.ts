/** The fields of a record as the workbench and the comparison viewer show them, in reading order (the schema's). */
import { fieldTitle } from '../../../engine/contract/field-title.ts';
import { DisplayFieldsSchema, type DisplayFields } from '../../../engine/contract/workbench.ts';

export const FIELD_ROWS: readonly (readonly [keyof DisplayFields, string])[] = (
  Object.keys(DisplayFieldsSchema.shape) as (keyof DisplayFields)[]
).map((field) => [field, fieldTitle(field)]);

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

export function showValue(value: DisplayFields[keyof DisplayFields]): string {
  if (value === null) return '—';
  if (typeof value === 'string') return value;
  if (value.length === 0) return '—';
  return value.map((v) => (typeof v === 'string' ? v : `${v.system}: ${v.value}`)).join(', ');
}
