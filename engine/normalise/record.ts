import type { MatchFields } from '../contract/fields.ts';
import { birthOrderOf, type Gender, type R4Patient } from '../fhir/patient.ts';
import { addressFieldsOf } from './address.ts';
import { normaliseBirthDate, partialBirthDateOf } from './date.ts';
import { matchIdentifiersOf } from './identifier.ts';
import {
  generationOf,
  normaliseFamilyName,
  normaliseGivenNames,
  previousFamilyNamesOf,
  selectCurrentName,
} from './name.ts';
import { emailOf, phoneOf } from './telecom.ts';

export interface MatchFieldsOptions {
  /** The source's LocalIdentifierSystem; identifiers in it are the record's own key, not evidence. */
  readonly localIdentifierSystem?: string | undefined;
  /** Validation warned about the birth date (impossible, implausible or in the future): match as if it were missing. */
  readonly ignoreBirthDate?: boolean | undefined;
}

/** `unknown` says nothing about the person, so it is missing rather than a value that could conflict. */
function sexOf(gender: Gender | undefined): MatchFields['sex'] {
  return gender === undefined || gender === 'unknown' ? null : gender;
}

/** Assembles the normalised matching fields of a validated Patient (see the normalise/ files for each rule). */
export function matchFieldsOf(patient: R4Patient, options: MatchFieldsOptions): MatchFields {
  const current = selectCurrentName(patient.name);
  const familyName = normaliseFamilyName(current?.family);
  const { givenName, middleNames } = normaliseGivenNames(current?.given);
  const address = addressFieldsOf(patient.address);
  return {
    familyName,
    previousFamilyNames: previousFamilyNamesOf(patient.name, familyName),
    givenName,
    middleNames,
    birthDate: options.ignoreBirthDate === true ? null : normaliseBirthDate(patient.birthDate),
    sex: sexOf(patient.gender),
    addressLine: address.addressLine,
    city: address.city,
    state: address.state,
    postalCode: address.postalCode,
    phone: phoneOf(patient.telecom),
    email: emailOf(patient.telecom),
    identifiers: matchIdentifiersOf(patient.identifier, options.localIdentifierSystem),
    ...generationField(generationOf(current)),
    ...multipleBirthFields(patient),
    ...(options.ignoreBirthDate === true ? {} : partialBirthDateField(patient.birthDate)),
  };
}

/** Only a record whose birth date is partial carries the field, so other records' stored fields stay as they were. */
function partialBirthDateField(fhirDate: string | undefined): { partialBirthDate?: string } {
  const partial = partialBirthDateOf(fhirDate);
  return partial === null ? {} : { partialBirthDate: partial };
}

/** Only a record of a multiple birth carries the fields, as with the generation. */
function multipleBirthFields(patient: R4Patient): { birthOrder?: number; multipleBirth?: true } {
  const birthOrder = birthOrderOf(patient.multipleBirthInteger);
  if (birthOrder !== null) return { birthOrder, multipleBirth: true };
  return patient.multipleBirthBoolean === true ? { multipleBirth: true } : {};
}

/** Only a record with a generational suffix carries the field, so other records' stored fields stay as they were. */
function generationField(generation: string | null): { generation?: string } {
  return generation === null ? {} : { generation };
}
