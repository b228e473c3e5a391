/**
 * FEBRL benchmark files (synthetic people from the Febrl generator, ANU) mapped to R4 Patients, following
 * the mapping in shared/data/febrl/README.md: given_name → name.given, surname → name.family, street_number
 * + address_1 → address.line[0], address_2 → address.line[1], suburb → city, postcode, state, date_of_birth →
 * birthDate (only when a valid date), soc_sec_id → an identifier (not trusted). rec_id is the Patient.id and
 * carries the ground truth: records sharing <N> in rec-<N>-org / rec-<N>-dup-<k> are one person.
 * The files are read where they are; nothing is copied into the project.
 */
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';

export const FEBRL_SSN_SYSTEM = 'urn:febrl:soc_sec_id';

export interface FebrlRecord {
  readonly recId: string;
  readonly entity: string;
  readonly patient: Record<string, unknown>;
}

function validDate(yyyymmdd: string): string | undefined {
  if (!/^\d{8}$/.test(yyyymmdd)) return undefined;
  const iso = `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}`;
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso) return undefined;
  return date.getUTCFullYear() >= 1850 && date.getTime() <= Date.now() ? iso : undefined;
}

/** The FHIR id syntax allows letters, digits, '-' and '.': rec ids already fit. */
export function febrlToPatient(row: Readonly<Record<string, string>>): Record<string, unknown> {
  const get = (key: string): string => (row[key] ?? '').trim();
  const patient: Record<string, unknown> = { resourceType: 'Patient', id: get('rec_id') };
  const name: Record<string, unknown> = { use: 'official' };
  if (get('surname') !== '') name.family = get('surname');
  if (get('given_name') !== '') name.given = [get('given_name')];
  patient.name = [name];
  const ssn = get('soc_sec_id');
  if (ssn !== '') patient.identifier = [{ system: FEBRL_SSN_SYSTEM, value: ssn }];
  const line = [[get('street_number'), get('address_1')].filter((s) => s !== '').join(' '), get('address_2')].filter(
    (s) => s !== '',
  );
  const address: Record<string, unknown> = { use: 'home' };
  if (line.length > 0) address.line = line;
  if (get('suburb') !== '') address.city = get('suburb');
  if (get('postcode') !== '') address.postalCode = get('postcode');
  if (get('state') !== '') address.state = get('state');
  if (Object.keys(address).length > 1) patient.address = [address];
  const birthDate = validDate(get('date_of_birth'));
  if (birthDate !== undefined) patient.birthDate = birthDate;
  return patient;
}

export function readFebrl(path: string): FebrlRecord[] {
  const parsed = Papa.parse<Record<string, string>>(readFileSync(path, 'utf8'), {
    header: true,
    skipEmptyLines: true,
    transformHeader: (h) => h.trim(),
    transform: (v) => v.trim(),
  });
  return parsed.data.map((row) => {
    const recId = row.rec_id ?? '';
    const match = /^rec-(\d+)-/.exec(recId);
    return { recId, entity: match?.[1] ?? recId, patient: febrlToPatient(row) };
  });
}
