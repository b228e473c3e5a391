/**
 * The default score method when no Fellegi-Sunter model is configured: a weighted mean of field similarities
 * over the fields present on both sides, divided by at least MINIMUM_EVIDENCE_WEIGHT so that two sparse
 * records agreeing on one or two fields cannot reach a certain score. Missing fields are neutral (they
 * contribute to neither sum). The weights reflect how much each field discriminates between people; they
 * are not calibrated: calibrate a Fellegi-Sunter model for probabilities.
 */
import { FIELD_NAMES, type FieldName } from '../contract/fields.ts';
import { householdGate, notCounted } from './household-evidence.ts';

export const WEIGHTED_SIMILARITY_VERSION = 'weighted-similarity-1';

export const FIELD_WEIGHTS: Readonly<Record<FieldName, number>> = {
  familyName: 3,
  givenName: 2.5,
  birthDate: 3,
  sex: 0.5,
  addressLine: 1.5,
  city: 0.5,
  state: 0.25,
  postalCode: 1,
  phone: 1.5,
  email: 1,
  identifier: 2,
};

export const MINIMUM_EVIDENCE_WEIGHT = 8;

const WEIGHTS = Float64Array.from(FIELD_NAMES.map((name) => FIELD_WEIGHTS[name]));

/** A household field's agreement counts for nothing when the given names or birth dates disagree (household-evidence.ts). */
export function weightedSimilarity(similarity: Float64Array, personalIdentifier = false): number {
  const gate = householdGate(similarity, personalIdentifier);
  let weighted = 0;
  let present = 0;
  for (let i = 0; i < WEIGHTS.length; i++) {
    const s = similarity[i] ?? Number.NaN;
    if (Number.isNaN(s)) continue;
    const w = WEIGHTS[i] ?? 0;
    if (!notCounted(i, gate)) weighted += w * s;
    present += w;
  }
  return weighted / Math.max(present, MINIMUM_EVIDENCE_WEIGHT);
}
