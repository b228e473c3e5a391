import { describe, expect, it } from 'vitest';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import { validatePatient, type R4Patient } from '../../../engine/fhir/patient.ts';
import { matchFieldsOf } from '../../../engine/normalise/record.ts';

const MRN = 'urn:oid:1.2.36.146.595.217.0.1';

function validated(resource: unknown): R4Patient {
  const result = validatePatient(resource);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.patient;
}

describe('matchFieldsOf', () => {
  it('assembles every field from a validated Patient', () => {
    const patient = validated({
      resourceType: 'Patient',
      id: 'p1',
      identifier: [
        { system: MRN, value: 'MRN-1' },
        { system: 'http://ns.electronichealth.net.au/id/medicare-number', value: '2123 45670 1' },
        { system: 'http://hl7.org/fhir/sid/us-ssn', value: '532-61-8842' },
      ],
      name: [
        { use: 'maiden', family: 'Jones' },
        { use: 'official', family: "Dr O'Brien-Müller", given: ['María José', 'Luisa'], prefix: ['Dr'] },
        { use: 'nickname', given: ['Majo'] },
      ],
      gender: 'female',
      birthDate: '1980-02-29',
      address: [
        { use: 'work', line: ['1 Work St'], city: 'Elsewhere' },
        { use: 'home', line: ['Unit 4', '12 Main St.'], city: 'Saint-Étienne', state: 'NSW', postalCode: 'sw1a 1aa' },
      ],
      telecom: [
        { system: 'phone', value: '03 1111 1111', use: 'work' },
        { system: 'phone', value: '+61 (02) 9876-5432', use: 'home' },
        { system: 'email', value: 'Maria@Example.org' },
      ],
    });
    const expected: MatchFields = {
      familyName: 'obrien muller',
      previousFamilyNames: ['jones'],
      givenName: 'maria',
      middleNames: 'jose luisa',
      birthDate: '1980-02-29',
      sex: 'female',
      addressLine: 'unit 4 12 main st',
      city: 'saint etienne',
      state: 'nsw',
      postalCode: 'SW1A1AA',
      phone: '0298765432',
      email: 'maria@example.org',
      identifiers: [
        { system: 'http://hl7.org/fhir/sid/us-ssn', value: '532618842' },
        { system: 'http://ns.electronichealth.net.au/id/medicare-number', value: '2123456701' },
      ],
    };
    expect(matchFieldsOf(patient, { localIdentifierSystem: MRN })).toEqual(expected);
  });

  it('gives nulls and empty lists for a minimal Patient', () => {
    const fields = matchFieldsOf(
      validated({ resourceType: 'Patient', name: [{ given: ['Anne'] }], birthDate: '1980' }),
      {},
    );
    expect(fields).toEqual({
      familyName: null,
      previousFamilyNames: [],
      givenName: 'anne',
      middleNames: null,
      birthDate: null,
      sex: null,
      addressLine: null,
      city: null,
      state: null,
      postalCode: null,
      phone: null,
      email: null,
      identifiers: [],
      // The year alone is kept apart, to tell two people apart (comparators/partial-birth-date.ts).
      partialBirthDate: '1980',
    });
  });

  it.each([
    ['male', 'male'],
    ['female', 'female'],
    ['other', 'other'],
    ['unknown', null],
  ] as const)('maps gender %s to sex %s', (gender, sex) => {
    const patient = validated({ resourceType: 'Patient', name: [{ family: 'X' }], gender });
    expect(matchFieldsOf(patient, {}).sex).toBe(sex);
  });

  it('keeps identifiers of every system when no local system is configured', () => {
    const patient = validated({
      resourceType: 'Patient',
      name: [{ family: 'X' }],
      identifier: [{ system: MRN, value: 'a1' }],
    });
    expect(matchFieldsOf(patient, { localIdentifierSystem: undefined }).identifiers).toEqual([
      { system: MRN, value: 'A1' },
    ]);
  });
});
