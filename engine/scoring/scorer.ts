/**
 * The scorer of one matching profile. Precedence, drawn once:
 *
 *   trusted identifier equal on both sides ──► certain (score 1)
 *   otherwise a hard-conflict rule fires   ──► no-match (score 0)
 *   otherwise the score method's score     ──► certain ≥ Thresholds.Certain, probable ≥ Thresholds.Probable, else no-match
 *
 * Trusted identifiers and hard conflicts stay outside the probability model. The score method is
 * `fellegi-sunter` when MatchingRules.FellegiSunter holds a model, else `weighted-similarity`.
 */
import { FIELD_NAMES, bandOf, type ComparatorName } from '../contract/fields.ts';
import type { Decision, FieldEvidence, MatchResult, ScoreMethod } from '../contract/matching.ts';
import type { HardConflictRule, MatchingProfile } from '../contract/profile.ts';
import type { MatchFields } from '../contract/fields.ts';
import { buildNameComparatorSet } from '../comparators/name-comparison.ts';
import { compareFields, newScratch, type FieldScratch } from './field-comparison.ts';
import { compileModel, fieldLogRatio, logistic, matchLogOdds, type CompiledModel } from './fellegi-sunter.ts';
import { FIELD_WEIGHTS, WEIGHTED_SIMILARITY_VERSION, weightedSimilarity } from './weighted-similarity.ts';
import { identifierValue, prepareRecord, type NameSets, type PreparedRecord } from './prepared-record.ts';

export interface PairOutcome {
  readonly score: number;
  readonly decision: Decision;
  readonly decidedBy: 'trusted-identifier' | 'hard-conflict' | 'score';
  readonly conflictRule?: HardConflictRule;
}

export interface Scorer {
  readonly method: ScoreMethod;
  readonly methodVersion: string;
  readonly comparatorVersion: string;
  readonly sets: NameSets;
  prepare(fields: MatchFields): PreparedRecord;
  /** Fills the scratch with field similarities and returns the outcome; allocation-light. */
  outcome(a: PreparedRecord, b: PreparedRecord, scratch?: FieldScratch): PairOutcome;
  /** The outcome with full field evidence. */
  explain(a: PreparedRecord, b: PreparedRecord): MatchResult;
}

function trustedAgreement(a: PreparedRecord, b: PreparedRecord): 'agree' | 'conflict' | 'none' {
  let conflictSeen = false;
  for (const [system, value] of a.trusted) {
    const other = identifierValue(b.trusted, system);
    if (other === undefined) continue;
    if (other === value) return 'agree';
    conflictSeen = true;
  }
  return conflictSeen ? 'conflict' : 'none';
}

export function createScorer(profile: MatchingProfile): Scorer {
  const comparators = profile.Comparators;
  const sets: NameSets = {
    // The validator has checked that every name is a supported comparator.
    family: buildNameComparatorSet(comparators.FamilyName as readonly ComparatorName[], comparators),
    given: buildNameComparatorSet(comparators.GivenNames as readonly ComparatorName[], comparators),
    trustedSystems: new Set(profile.TrustedIdentifierSystems),
  };
  const model = profile.MatchingRules.FellegiSunter;
  const compiled: CompiledModel | null = model === null ? null : compileModel(model);
  const method: ScoreMethod = compiled === null ? 'weighted-similarity' : 'fellegi-sunter';
  const methodVersion = model === null ? WEIGHTED_SIMILARITY_VERSION : model.modelVersion;
  const { Certain, Probable } = profile.MatchingRules.Thresholds;
  const rules = new Set(profile.HardConflictRules);
  const shared = newScratch();

  const methodScore = (similarity: Float64Array): number =>
    compiled === null ? weightedSimilarity(similarity) : logistic(matchLogOdds(compiled, similarity));

  const outcome = (a: PreparedRecord, b: PreparedRecord, scratch: FieldScratch = shared): PairOutcome => {
    compareFields(a, b, sets, scratch);
    const trusted = trustedAgreement(a, b);
    if (trusted === 'agree') return { score: 1, decision: 'certain', decidedBy: 'trusted-identifier' };
    const conflict = hardConflict(a, b, trusted, scratch, rules);
    if (conflict !== undefined) return { score: 0, decision: 'no-match', decidedBy: 'hard-conflict', conflictRule: conflict };
    const score = methodScore(scratch.similarity);
    const decision: Decision = score >= Certain ? 'certain' : score >= Probable ? 'probable' : 'no-match';
    return { score, decision, decidedBy: 'score' };
  };

  const explain = (a: PreparedRecord, b: PreparedRecord): MatchResult => {
    const scratch = newScratch();
    const result = outcome(a, b, scratch);
    return { ...result, scoreMethod: method, scoreMethodVersion: methodVersion, evidence: evidenceOf(scratch, compiled) };
  };

  return {
    method,
    methodVersion,
    comparatorVersion: comparators.Version,
    sets,
    prepare: (fields) => prepareRecord(fields, sets),
    outcome,
    explain,
  };
}

function hardConflict(
  a: PreparedRecord,
  b: PreparedRecord,
  trusted: 'conflict' | 'none',
  scratch: FieldScratch,
  rules: ReadonlySet<HardConflictRule>,
): HardConflictRule | undefined {
  if (rules.has('TrustedIdentifierMismatch') && trusted === 'conflict') return 'TrustedIdentifierMismatch';
  if (rules.has('SexMismatch') && a.fields.sex !== null && b.fields.sex !== null && a.fields.sex !== b.fields.sex) return 'SexMismatch';
  if (rules.has('BirthDateMismatch')) {
    const similarity = scratch.similarity[2] ?? Number.NaN;
    if (!Number.isNaN(similarity) && similarity < 0.5) return 'BirthDateMismatch';
  }
  return undefined;
}

export function evidenceOf(scratch: FieldScratch, compiled: CompiledModel | null): FieldEvidence[] {
  return FIELD_NAMES.map((field, index) => {
    const similarity = scratch.similarity[index] ?? Number.NaN;
    const missing = Number.isNaN(similarity);
    const comparator = scratch.comparator[index] ?? null;
    const evidence: FieldEvidence = {
      field,
      comparator: missing ? null : comparator,
      similarity: missing ? null : similarity,
      band: missing ? null : bandOf(similarity),
      ...(compiled === null ? { weight: FIELD_WEIGHTS[field] } : { logLikelihood: fieldLogRatio(compiled, index, similarity) }),
    };
    const culture = scratch.culture[index];
    const dictionaryVersion = scratch.dictionaryVersion[index];
    if (culture !== undefined) evidence.culture = culture;
    if (dictionaryVersion !== undefined) evidence.dictionaryVersion = dictionaryVersion;
    return evidence;
  });
}

