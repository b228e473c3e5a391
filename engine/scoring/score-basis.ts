/**
 * The constant terms of the active scorer's formula (engine/contract/score-explanation.ts), reported with
 * evidence so that a reader can add a pair's field contributions up to its score: the Fellegi-Sunter prior
 * log-odds, or the weighted-similarity floor, and the profile's thresholds.
 */
import type { ScoreBasis } from '../contract/score-explanation.ts';
import type { MatchingProfile } from '../contract/profile.ts';
import { compileModel } from './fellegi-sunter.ts';
import { MINIMUM_EVIDENCE_WEIGHT } from './weighted-similarity.ts';

export function scoreBasis(profile: MatchingProfile): ScoreBasis {
  const model = profile.MatchingRules.FellegiSunter;
  const thresholds = {
    probable: profile.MatchingRules.Thresholds.Probable,
    certain: profile.MatchingRules.Thresholds.Certain,
  };
  return model === null
    ? { scoreMethod: 'weighted-similarity', minimumEvidenceWeight: MINIMUM_EVIDENCE_WEIGHT, thresholds }
    : { scoreMethod: 'fellegi-sunter', priorLogOdds: compileModel(model).priorLogOdds, thresholds };
}
