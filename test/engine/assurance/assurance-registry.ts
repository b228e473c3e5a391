/**
 * A tiny registry whose pair scores are known by hand: every record carries a trusted national identifier,
 * so the scorer's precedence decides every pair (equal identifiers: certain, score 1; different ones: the
 * TrustedIdentifierMismatch hard conflict, score 0) whatever the similarity of the other fields.
 */
import { LocalEngine } from '../../../engine/local-engine.ts';
import type { LabelPair } from '../../../engine/assurance/labels.ts';
import { ctx, ndjson, NHI_SYSTEM, openRegistry, patient, testProfile } from '../../helpers/registry.ts';

export { ctx };

const A = (id: string): LabelPair['left'] => ({ sourceSystem: 'clinic', localId: id });

/** Clinic records PX01..PX12 (Patient.id is the local identifier). */
export const PEOPLE = [
  { id: 'PX01', family: 'Smith', given: ['John'], birthDate: '1980-01-01', nhi: 'N1' },
  { id: 'PX02', family: 'Smith', given: ['John'], birthDate: '1980-01-01', nhi: 'N1' },
  { id: 'PX03', family: 'Okafor', given: ['Mary'], birthDate: '1975-05-05', nhi: 'N2' },
  { id: 'PX04', family: 'Okafor', given: ['Mary'], birthDate: '1975-05-05', nhi: 'N2' },
  { id: 'PX05', family: 'Lindqvist', given: ['Alan'], birthDate: '1990-09-09', nhi: 'N3' },
  { id: 'PX06', family: 'Lindqvist', given: ['Alan'], birthDate: '1990-09-09', nhi: 'N3' },
  { id: 'PX07', family: 'Green', given: ['Lucy'], birthDate: '1985-03-03', nhi: 'N4' },
  { id: 'PX08', family: 'Green', given: ['Lucy'], birthDate: '1985-03-03', nhi: 'N4' },
  { id: 'PX09', family: 'White', given: ['Ann'], birthDate: '1970-07-07', nhi: 'N5' },
  { id: 'PX10', family: 'White', given: ['Ann'], birthDate: '1970-07-07', nhi: 'N6' },
  // No blocking key in common (names, birth date, postcode, phone and identifiers all differ).
  {
    id: 'PX11',
    family: 'Taylor',
    given: ['Kim'],
    birthDate: '1960-02-02',
    nhi: 'N7',
    postalCode: 'AB1 2CD',
    phone: '020 7946 0001',
  },
  {
    id: 'PX12',
    family: 'Nguyen',
    given: ['Bao'],
    birthDate: '2001-11-11',
    nhi: 'N8',
    postalCode: 'ZZ9 9ZZ',
    phone: '0161 496 0999',
  },
] as const;

/**
 * Scores (by precedence): equal identifiers 1, different 0.
 *   TP: PX01-PX02, PX03-PX04, PX05-PX06   (labelled match, score 1)
 *   FP: PX07-PX08                         (labelled non-match, score 1)
 *   FN: PX09-PX10, PX11-PX12              (labelled match, score 0)
 *   TN: PX01-PX03, PX03-PX05, PX05-PX01   (labelled non-match, score 0)
 */
export const LABELS: LabelPair[] = [
  { left: A('PX01'), right: A('PX02'), isMatch: true },
  { left: A('PX03'), right: A('PX04'), isMatch: true },
  { left: A('PX05'), right: A('PX06'), isMatch: true },
  { left: A('PX07'), right: A('PX08'), isMatch: false },
  { left: A('PX09'), right: A('PX10'), isMatch: true },
  { left: A('PX11'), right: A('PX12'), isMatch: true },
  { left: A('PX01'), right: A('PX03'), isMatch: false },
  { left: A('PX03'), right: A('PX05'), isMatch: false },
  { left: A('PX05'), right: A('PX01'), isMatch: false },
];

export async function tinyRegistry(dir: string, tenants: readonly string[] = ['t1']): Promise<LocalEngine> {
  const profile = {
    ...testProfile(),
    TrustedIdentifierSystems: [NHI_SYSTEM],
    HardConflictRules: ['TrustedIdentifierMismatch' as const],
  };
  const engine = openRegistry(dir, tenants, profile);
  const report = await engine.call(
    'records/ingest',
    { sourceSystem: 'clinic', ndjson: ndjson(...PEOPLE.map((p) => patient(p))) },
    ctx(tenants[0]),
  );
  if (report.rejected.length > 0 || report.created !== PEOPLE.length) throw new Error('the tiny registry did not load');
  return engine;
}
