/**
 * Records of one household as a source sends them (FHIR Patient resources: one address and phone), normalised as
 * ingestion normalises them, and a pair of them explained under a profile: the scoring tests of twins, newborns and
 * generations build their records so.
 */
import { validatePatient } from '../../engine/fhir/patient.ts';
import { matchFieldsOf } from '../../engine/normalise/record.ts';
import { createScorer } from '../../engine/scoring/scorer.ts';
import type { MatchFields } from '../../engine/contract/fields.ts';
import type { MatchResult } from '../../engine/contract/matching.ts';
import type { MatchingProfile } from '../../engine/contract/profile.ts';

/** The household's address and phone. */
const HOUSEHOLD_CONTACT = {
  telecom: [{ system: 'phone', value: '(204) 555-0142' }],
  address: [{ use: 'home', line: ['27 Alder Road'], city: 'Springfield', state: 'ND', postalCode: '72419' }],
};

/** A Patient resource with the household's address and phone and the given elements. */
export function householdPatient(elements: Record<string, unknown>): Record<string, unknown> {
  return { resourceType: 'Patient', ...HOUSEHOLD_CONTACT, ...elements };
}

/** The normalised fields of a Patient with the household's address and phone and the given elements. */
export function householdRecord(elements: Record<string, unknown>): MatchFields {
  const v = validatePatient(householdPatient(elements));
  if (!v.ok) throw new Error('invalid test patient');
  return matchFieldsOf(v.patient, {});
}

/** Two records scored and explained under the profile, as the live scorer does. */
export function explainPair(profile: MatchingProfile, a: MatchFields, b: MatchFields): MatchResult {
  const scorer = createScorer(profile);
  return scorer.explain(scorer.prepare(a), scorer.prepare(b));
}
