import { describe, expect, it } from 'vitest';
import {
  isPlaceholderAddressLine,
  isPlaceholderEmail,
  isPlaceholderIdentifier,
  isPlaceholderPhone,
} from '../../../engine/normalise/placeholder-values.ts';
import { normaliseIdentifierValue } from '../../../engine/normalise/identifier.ts';
import { normalisePhone } from '../../../engine/normalise/phone.ts';
import { normaliseEmail } from '../../../engine/normalise/email.ts';
import { normaliseAddressLines } from '../../../engine/normalise/address.ts';

const SSN = 'http://hl7.org/fhir/sid/us-ssn';
const SSN_OID = 'urn:oid:2.16.840.1.113883.4.1';
const NHS = 'https://fhir.nhs.uk/Id/nhs-number';
const MEMBER = 'urn:oid:1.2.3.4.5.member';

const identifier = (system: string, raw: string): boolean =>
  isPlaceholderIdentifier(system, raw, normaliseIdentifierValue(raw) ?? '');

describe('isPlaceholderIdentifier', () => {
  it.each([
    [MEMBER, '999-99-9999'],
    [MEMBER, '000000000'],
    [MEMBER, '0'],
    [MEMBER, '111 111 111'],
    [MEMBER, 'XXXX'],
    [MEMBER, '123-45-6789'],
    [MEMBER, '1234567890'],
    [MEMBER, '987654321'],
    [MEMBER, '***-**-1234'],
    [MEMBER, 'xxx-xx-1234'],
    [MEMBER, 'Unknown'],
    [MEMBER, 'N/A'],
    [MEMBER, 'declined'],
    [SSN, '666-12-3456'],
    [SSN, '532-00-8842'],
    [SSN, '532-61-0000'],
    [SSN, '078-05-1120'],
    [SSN, '219-09-9999'],
    [SSN, '1234'],
    [SSN_OID, '000-61-8842'],
  ])('%s %j is a placeholder', (system, raw) => {
    expect(identifier(system, raw)).toBe(true);
  });

  it.each([
    [SSN, '532-61-8842'],
    [SSN_OID, '078-05-1121'],
    [SSN, '912-70-1234'],
    [NHS, '943 476 5919'],
    [NHS, '900 000 0009'],
    [MEMBER, '666-12-3456'],
    [MEMBER, '1'],
    [MEMBER, '11'],
    [MEMBER, '123456'],
    [MEMBER, '1234568'],
    [MEMBER, 'AB-123.45 6'],
    [MEMBER, 'NAOMI01'],
    [MEMBER, 'X1234'],
  ])('%s %j is a number', (system, raw) => {
    expect(identifier(system, raw)).toBe(false);
  });
});

describe('isPlaceholderPhone', () => {
  it.each(['000-000-0000', '999 999 9999', '(204) 000-0000', '555-5555', '123-4567', '0123456789', '9876543210'])(
    '%s is a placeholder',
    (raw) => {
      expect(isPlaceholderPhone(normalisePhone(raw) ?? '')).toBe(true);
    },
  );

  it.each(['(204) 555-0142', '555-0199', '+61 (02) 9876-5432', '0412 345 678', '123456', '(204) 100-0000'])(
    '%s is a number',
    (raw) => {
      expect(isPlaceholderPhone(normalisePhone(raw) ?? '')).toBe(false);
    },
  );
});

describe('isPlaceholderEmail', () => {
  it.each([
    'noemail@noemail.com',
    'NoEmail@gmail.com',
    'no.email@clinic.org',
    'none@none.com',
    'declined@hospital.org',
    'patient_declined@hospital.org',
    'x@none.com',
    'anna@noemail.net',
    'xxx@mail.com',
    'do-not-reply@clinic.org',
  ])('%s is a placeholder', (raw) => {
    expect(isPlaceholderEmail(normaliseEmail(raw) ?? '')).toBe(true);
  });

  it.each(['anne.smith@example.org', 'anna@email.com', 'nina@clinic.org', 'nonie@gmail.com', 'xx@mail.com'])(
    '%s is an address',
    (raw) => {
      expect(isPlaceholderEmail(normaliseEmail(raw) ?? '')).toBe(false);
    },
  );
});

describe('isPlaceholderAddressLine', () => {
  const line = (raw: string[]): boolean => isPlaceholderAddressLine(normaliseAddressLines(raw) ?? '');
  it.each([['Homeless'], ['NO FIXED ABODE'], ['N/A'], ['unknown'], ['General Delivery'], ['No', 'fixed address']])(
    '%j is a placeholder',
    (...raw) => {
      expect(line(raw)).toBe(true);
    },
  );
  it.each([['27 Alder Road'], ['Homeless shelter, 12 Quay Road'], ['1 Unknown Street'], ['None Road']])(
    '%j is an address',
    (...raw) => {
      expect(line(raw)).toBe(false);
    },
  );
});
