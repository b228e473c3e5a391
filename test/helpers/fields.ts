import type { MatchFields } from '../../engine/contract/fields.ts';

/** Normalised matching fields of one synthetic person, for unit tests to vary. */
export const SAMPLE_FIELDS: MatchFields = {
  familyName: 'fairweather',
  previousFamilyNames: [],
  givenName: 'annabel',
  middleNames: null,
  birthDate: '1984-03-17',
  sex: 'female',
  addressLine: '12 harbour road',
  city: 'portsmouth',
  state: null,
  postalCode: 'PO13AX',
  phone: '2392001122',
  email: null,
  identifiers: [],
};
