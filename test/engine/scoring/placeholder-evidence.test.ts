/**
 * A placeholder number under a trusted identifier system. Registration staff type 999-99-9999 (or 000-00-0000, a
 * masked ***-**-1234, "UNKNOWN") for a patient without a number: the value is the same on every such patient's
 * record, so on a system the profile trusts, two strangers of another name, sex, birth date and home were linked at
 * score 1 on it, and one person registered with the placeholder at one source and the real number at another was
 * refused as a trusted-identifier conflict. The placeholder is now missing for matching (normalise/placeholder-values.ts).
 * So is a homeless patient's "Homeless" address line (and the postcode beside it): two namesakes, one without a birth
 * date, were linked on it as on a shared home. And a name of use `anonymous` (an alias protecting a patient) is not
 * matched as the patient's name. Nor is an employer's phone or address (use `work`) the patient's: two colleagues of one
 * name, one without a birth date, were linked on the company's switchboard number.
 */
import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import type { MatchingProfile } from '../../../engine/contract/profile.ts';
import { explainPair, householdRecord } from '../../helpers/household-patient.ts';
import { validatePatient } from '../../../engine/fhir/patient.ts';
import { matchFieldsOf } from '../../../engine/normalise/record.ts';
import { PLACEHOLDER_NUMBERS } from '../../helpers/repeated-patient.ts';

const SSN = 'http://hl7.org/fhir/sid/us-ssn';
const trusted: MatchingProfile = {
  ...defaultProfile([{ SourceSystem: 'a' }]),
  TrustedIdentifierSystems: [SSN],
  HardConflictRules: ['TrustedIdentifierMismatch'],
};

const record = (family: string, given: string, gender: string, birthDate: string, ssn: string, line: string) =>
  householdRecord({
    name: [{ family, given: [given] }],
    gender,
    birthDate,
    identifier: [{ system: SSN, value: ssn }],
    address: [{ line: [line], city: 'Springfield', postalCode: '72419' }],
  });

describe('a placeholder number under a trusted identifier system', () => {
  it('never links strangers who share it', () => {
    for (const placeholder of PLACEHOLDER_NUMBERS) {
      const r = explainPair(
        trusted,
        record('Smith', 'John', 'male', '1980-01-02', placeholder, '1 Harbour Street'),
        record('Jones', 'Mary', 'female', '1955-06-07', placeholder, '9 Quay Road'),
      );
      expect(r.decision, placeholder).toBe('no-match');
    }
  });

  it("is no conflict with the person's real number on another record", () => {
    for (const placeholder of PLACEHOLDER_NUMBERS) {
      const r = explainPair(
        trusted,
        record('Smith', 'John', 'male', '1980-01-02', placeholder, '1 Harbour Street'),
        record('Smith', 'John', 'male', '1980-01-02', '532-61-8842', '1 Harbour Street'),
      );
      expect(r.decision, placeholder).toBe('certain');
    }
  });

  it('still links on a real number, and still refuses two real numbers that differ', () => {
    const john = record('Smith', 'John', 'male', '1980-01-02', '532-61-8842', '1 Harbour Street');
    const renamed = record('Smith', 'Jon', 'male', '1980-01-20', '532-61-8842', '9 Quay Road');
    expect(explainPair(trusted, john, renamed).decision).toBe('certain');
    const other = record('Smith', 'John', 'male', '1980-01-02', '532-61-8843', '1 Harbour Street');
    expect(explainPair(trusted, john, other).decision).toBe('no-match');
  });
});

describe('a placeholder address line', () => {
  const homeless = (line: string, birthDate?: string) => {
    const v = validatePatient({
      resourceType: 'Patient',
      name: [{ family: 'Smith', given: ['John'] }],
      gender: 'male',
      ...(birthDate === undefined ? {} : { birthDate }),
      address: [{ line: [line], city: 'Springfield', postalCode: '72419' }],
    });
    if (!v.ok) throw new Error('invalid test patient');
    return matchFieldsOf(v.patient, {});
  };

  it('does not lift the hold on namesakes of whom one has no birth date', () => {
    for (const line of ['Homeless', 'No fixed abode', 'N/A']) {
      const r = explainPair(trusted, homeless(line, '1970-01-01'), homeless(line));
      expect([r.decision, r.limitedBy], line).toEqual(['probable', 'NamesOnly']);
    }
    // A real address shared is still as before: it lifts the hold.
    expect(explainPair(trusted, homeless('27 Alder Road', '1970-01-01'), homeless('27 Alder Road')).decision).toBe(
      'certain',
    );
  });
});

describe('an anonymous alias', () => {
  it('is not matched as the name of the patient it protects', () => {
    const mary = householdRecord({
      name: [{ family: 'Jones', given: ['Mary'] }],
      gender: 'female',
      birthDate: '1971-04-02',
    });
    const alias = householdRecord({
      name: [{ use: 'anonymous', family: 'Jones', given: ['Mary'] }],
      gender: 'female',
      birthDate: '1971-04-02',
    });
    const r = explainPair(trusted, mary, alias);
    expect(r.decision).not.toBe('certain');
    expect(r.limitedBy).toBe('NoNameEvidence');
  });
});

describe("an employer's phone and address", () => {
  it('do not lift the hold on namesakes of whom one has no birth date', () => {
    const colleague = (birthDate?: string) => {
      const v = validatePatient({
        resourceType: 'Patient',
        name: [{ family: 'Smith', given: ['John'] }],
        gender: 'male',
        ...(birthDate === undefined ? {} : { birthDate }),
        telecom: [{ system: 'phone', value: '(204) 555-0100', use: 'work' }],
        address: [{ use: 'work', line: ['1 Commerce Plaza'], city: 'Springfield', postalCode: '72419' }],
      });
      if (!v.ok) throw new Error('invalid test patient');
      return matchFieldsOf(v.patient, {});
    };
    const r = explainPair(trusted, colleague('1970-01-01'), colleague());
    expect([r.decision, r.limitedBy]).toEqual(['probable', 'NamesOnly']);
  });
});
