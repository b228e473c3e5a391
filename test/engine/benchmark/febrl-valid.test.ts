import { describe, expect, it } from 'vitest';
import { febrlFile } from '../../helpers/febrl.ts';
import { readFebrl } from '../../../engine/benchmark/febrl.ts';
import { validatePatient } from '../../../engine/fhir/patient.ts';
import { matchFieldsOf } from '../../../engine/normalise/record.ts';

/**
 * Every FEBRL record maps to a valid R4 Patient, and validation accepts them all: the records with neither a
 * given nor a family name (3 in FEBRL 4, refused before issue 12) are accepted and matched on what they have.
 */
describe('FEBRL records as R4 Patients', () => {
  it.each([
    ['dataset1.csv', 1000],
    ['dataset2.csv', 5000],
    ['dataset3.csv', 5000],
    ['dataset4a.csv', 5000],
    ['dataset4b.csv', 5000],
  ])('%s: all %i accepted, with no warning', (file, count) => {
    const records = readFebrl(febrlFile(file));
    expect(records).toHaveLength(count);
    for (const record of records) {
      const result = validatePatient(record.patient);
      expect(result.ok, record.recId).toBe(true);
      if (!result.ok) continue;
      // The loader keeps only real, past dates, so no FEBRL record carries a birth-date warning.
      expect(result.warnings, record.recId).toEqual([]);
    }
  });

  it('FEBRL 4 has exactly the 3 nameless records that used to be refused', () => {
    const nameless = ['dataset4a.csv', 'dataset4b.csv'].flatMap((file) =>
      readFebrl(febrlFile(file)).filter((r) => {
        const result = validatePatient(r.patient);
        if (!result.ok) return false;
        const fields = matchFieldsOf(result.patient, {});
        return fields.familyName === null && fields.givenName === null;
      }),
    );
    expect(nameless).toHaveLength(3);
  });
});
