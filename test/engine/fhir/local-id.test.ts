import { describe, expect, it } from 'vitest';
import { isLocalIdentifier, localIdentifierOf } from '../../../engine/fhir/local-id.ts';
import type { R4Patient } from '../../../engine/fhir/patient.ts';

const MRN = 'urn:oid:1.2.36.146.595.217.0.1';

function patient(fields: Omit<R4Patient, 'resourceType'>): R4Patient {
  return { resourceType: 'Patient', ...fields };
}

describe('localIdentifierOf', () => {
  it('takes the first identifier in the configured system', () => {
    const p = patient({
      id: 'fallback',
      identifier: [
        { system: 'http://ns.electronichealth.net.au/id/medicare-number', value: '1234' },
        { system: MRN, value: 'Zebedee-1' },
        { system: MRN, value: 'Zebedee-2' },
      ],
    });
    expect(localIdentifierOf(p, MRN)).toEqual({ ok: true, localId: 'Zebedee-1' });
  });

  it('compares systems trimmed and trims the value', () => {
    const p = patient({ identifier: [{ system: ` ${MRN} `, value: ' 77 ' }] });
    expect(localIdentifierOf(p, MRN)).toEqual({ ok: true, localId: '77' });
    expect(localIdentifierOf(p, ` ${MRN}`)).toEqual({ ok: true, localId: '77' });
  });

  it('is case-sensitive on the system, as URIs are', () => {
    const p = patient({ id: 'p1', identifier: [{ system: MRN.toUpperCase(), value: '77' }] });
    expect(localIdentifierOf(p, MRN)).toEqual({ ok: true, localId: 'p1' });
  });

  it('falls back to Patient.id when no identifier has the system', () => {
    const p = patient({ id: 'p1', identifier: [{ system: 'urn:other', value: '9' }] });
    expect(localIdentifierOf(p, MRN)).toEqual({ ok: true, localId: 'p1' });
  });

  it('uses Patient.id when no system is configured, ignoring identifiers', () => {
    const p = patient({ id: 'p1', identifier: [{ system: MRN, value: '9' }] });
    expect(localIdentifierOf(p, undefined)).toEqual({ ok: true, localId: 'p1' });
  });

  it('names the expected system when neither exists, without patient values', () => {
    const p = patient({ identifier: [{ system: 'urn:other', value: 'Zebedee' }] });
    const result = localIdentifierOf(p, MRN);
    if (result.ok) throw new Error('expected an issue');
    expect(result.issue.path).toBe('identifier');
    expect(result.issue.message).toContain(MRN);
    expect(result.issue.message).not.toContain('Zebedee');
  });

  it('says that id is missing when no system is configured', () => {
    const result = localIdentifierOf(patient({ identifier: [{ system: MRN, value: 'Zebedee' }] }), undefined);
    if (result.ok) throw new Error('expected an issue');
    expect(result.issue.path).toBe('identifier');
    expect(result.issue.message).toContain('Patient.id');
    expect(result.issue.message).not.toContain('Zebedee');
  });
});

describe('isLocalIdentifier', () => {
  it('is false without a configured system', () => {
    expect(isLocalIdentifier({ system: MRN, value: '1' }, undefined)).toBe(false);
    expect(isLocalIdentifier({ system: MRN, value: '1' }, MRN)).toBe(true);
  });
});
