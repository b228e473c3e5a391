/**
 * The scorer of one matching profile. Precedence, drawn once:
 *
 *   trusted identifier equal on both sides ──► certain (score 1)
 *   otherwise a hard-conflict rule fires   ──► no-match (score 0)
 *   otherwise the score method's score     ──► certain ≥ Thresholds.Certain, probable ≥ Thresholds.Probable, else no-match
 *     without name evidence                ──► the score held to at most Thresholds.Probable, never certain
 *
 * Trusted identifiers and hard conflicts stay outside the probability model. The score method is
 * `fellegi-sunter` when MatchingRules.FellegiSunter holds a model, else `weighted-similarity`.
 *
 * Name evidence: a person is told apart by name first. A pair where no name part (family or given) was
 * compared on both sides — a record without names, or whose names normalised to nothing ("Mrs", "?",
 * invisible or pictograph-only parts) — has only the fields that relatives, households and reused contact
 * details share (and without a birth date either, their agreement counts for nothing: household-evidence.ts), so
 * it may go to review but is never linked automatically: its score is held to at most
 * Thresholds.Probable (so evaluation and calibration, which threshold scores, see the same rule) and its
 * decision is at most probable. Only a trusted identifier (above) links such a record without review. The
 * rule is on the comparison, not on how the record lost its names, and holds for every score method.
 */
import { BAND_FLOORS, FIELD_INDEX, FIELD_NAMES, bandOf, type ComparatorName } from '../contract/fields.ts';
import type { Decision, FieldEvidence, MatchResult, ScoreLimit, ScoreMethod } from '../contract/matching.ts';
import type { HardConflictRule, MatchingProfile } from '../contract/profile.ts';
import type { MatchFields } from '../contract/fields.ts';
import { buildNameComparatorSet } from '../comparators/name-comparison.ts';
import {
  compareFields,
  compareHouseholdFields,
  comparePersonFields,
  HOUSEHOLD_FIELD_INDEXES,
  newScratch,
  pairFlags,
  MIDDLE_NAMES_DISAGREE_FLAG,
  NEWBORN_NAME_FLAG,
  MULTIPLE_BIRTH_FLAG,
  INITIAL_GIVEN_NAME_FLAG,
  BIRTH_DATES_A_DAY_APART_FLAG,
  GIVEN_NAMES_OF_TWO_SEXES_FLAG,
  PERSONAL_IDENTIFIER_FLAG,
  TWO_GIVEN_NAMES_ALIKE_FLAG,
  type FieldScratch,
} from './field-comparison.ts';
import {
  compileModel,
  fieldContribution,
  fieldLogRatio,
  impliedByAddress,
  logistic,
  matchLogOdds,
  matchLogOddsBound,
  priorAdjustment,
  type CompiledModel,
} from './fellegi-sunter.ts';
import {
  householdGate,
  nothingPersonal,
  notCounted,
  personalIdentifierAgrees,
  sharedIdentifier,
} from './household-evidence.ts';
import { FIELD_WEIGHTS, WEIGHTED_SIMILARITY_VERSION, weightedSimilarity } from './weighted-similarity.ts';
import { possibleTwin, twinReason, type TwinHints } from './possible-twin.ts';
import { identifierValue, prepareRecord, type NameSets, type PreparedRecord } from './prepared-record.ts';
import {
  combinedAdjustment,
  logFrequency,
  relativeRarity,
  type TermCount,
  type TermFrequencyReader,
} from './term-frequency.ts';

export interface PairOutcome {
  readonly score: number;
  readonly decision: Decision;
  readonly decidedBy: 'trusted-identifier' | 'hard-conflict' | 'score';
  readonly conflictRule?: HardConflictRule;
  readonly limitedBy?: ScoreLimit;
  /** With limitedBy: the score method's score before the rule held it. */
  readonly heldFrom?: number;
}

const FAMILY_NAME = FIELD_INDEX.familyName;
const GIVEN_NAME = FIELD_INDEX.givenName;
const BIRTH_DATE = FIELD_INDEX.birthDate;

/** True when a family or given name was compared on both sides (a NaN similarity is a missing comparison). */
export function hasNameEvidence(similarity: Float64Array): boolean {
  return !Number.isNaN(similarity[FAMILY_NAME] ?? Number.NaN) || !Number.isNaN(similarity[GIVEN_NAME] ?? Number.NaN);
}

const ADDRESS_LINE = FIELD_INDEX.addressLine;
const POSTAL_CODE = FIELD_INDEX.postalCode;
const PHONE = FIELD_INDEX.phone;
const IDENTIFIER = FIELD_INDEX.identifier;

const agrees = (similarity: Float64Array, field: number): boolean => (similarity[field] ?? 0) >= BAND_FLOORS.Strong;
/** Compared on both sides and in the Different band (a NaN similarity is a missing comparison). */
const disagrees = (similarity: Float64Array, field: number): boolean =>
  (similarity[field] ?? Number.NaN) < BAND_FLOORS.Partial;

/**
 * Names alone: no birth date was compared on both records (one lacks it), and nothing but the names places the two
 * records with one person: no address line, postcode or identifier agrees (at least Strong), and a phone that agrees
 * counts only when the addresses do not disagree. Sex, city and state do not count: thousands of people share them.
 * Nor does an e-mail: one made from the name (firstname.lastname@) is a namesake's too, and a family shares one
 * mailbox. Two records of one full name are then two people far too often for an automatic link: a Junior and a
 * Senior, namesakes in another town, a name given again in one family, which its term frequency does not see; and a
 * phone shared from another address is a relative's as often as the person's (household evidence,
 * household-evidence.ts). The pair goes to review, never an automatic link. A birth date compared in any band lifts
 * the hold (and the model weighs it as usual); only a trusted identifier, which decides before any score, links such
 * a pair without one. With no given name compared either, only the family name is the person's, and an address,
 * postcode or identifier that agrees is the household's (household-evidence.ts): held unless a personal identifier
 * agrees. The household's fields do not count then, so such a pair reaches Probable only on a family name rare
 * enough for its term frequency to weigh heavily, and a record of that name, a sex and the family's address would
 * otherwise be linked to whichever of the family it met.
 *
 * On the names-and-dates extract of 10,000 records the default model linked 78 pairs of names alone, 8 of them two
 * people (precision 0.90, against 0.995 for its links as a whole). In a registry of a million records the default
 * model's prior, lowered for the registry's size, keeps most of them below Certain; a model without that adjustment
 * (an older profile) linked 397 there, 80 of them two people. A model estimated on that registry weighs an address
 * that disagrees lightly (people move): applied, it would have linked 64 pairs of one name and e-mail at addresses
 * that disagree, 48 of them two people. An e-mail with no address to disagree still joined namesakes: in the scale
 * bench's registry of a million records 7 of the 22 identities holding two people (39 of 113 wrong record pairs) were
 * made so; not counting the e-mail undid all 7 for 162 more review cases and 0.0004 of recall.
 */
export function namesOnly(similarity: Float64Array, identifierAgrees: boolean): boolean {
  if (!Number.isNaN(similarity[BIRTH_DATE] ?? Number.NaN)) return false;
  // A family name alone: every other agreement is the household's.
  if (nothingPersonal(similarity)) return !identifierAgrees;
  if (agrees(similarity, ADDRESS_LINE) || agrees(similarity, POSTAL_CODE) || agrees(similarity, IDENTIFIER))
    return false;
  const elsewhere =
    disagrees(similarity, ADDRESS_LINE) ||
    (Number.isNaN(similarity[ADDRESS_LINE] ?? Number.NaN) && disagrees(similarity, POSTAL_CODE));
  return elsewhere || !agrees(similarity, PHONE);
}

/**
 * Birth dates in conflict: both recorded, within a year of each other (the Partial band), yet neither equal nor a
 * keying error apart (one digit, two adjacent digits, day and month: the Strong band). Names that agree, even rare
 * ones whose term frequency weighs heavily, then describe two people about as often as one: two children of one
 * name born months apart, cousins named after a grandparent. The pair goes to review, never an automatic link; only
 * a personal identifier that agrees (equal, or a keying error apart that sequential numbers never show:
 * personalIdentifierAgrees in household-evidence.ts), or a trusted one, which decides before any score, links it. An
 * address, phone or e-mail that agrees does not lift the hold: a household shares them (household-evidence.ts).
 * Dates further apart (the Different band: a Junior and a Senior) are left to the model, whose Different band
 * weighs strongly against a match; holding them too cost true links where a date was mistyped beyond a keying error
 * and other fields agree (F1 on the every-field heavy-error extract 0.9889 -> 0.9797).
 */
export function birthDateConflict(similarity: Float64Array, identifierAgrees: boolean): boolean {
  const birthDate = similarity[BIRTH_DATE] ?? Number.NaN;
  if (Number.isNaN(birthDate) || birthDate >= BAND_FLOORS.Strong || birthDate < BAND_FLOORS.Partial) return false;
  return !identifierAgrees;
}

/**
 * Middle names in conflict: both records carry middle names and they name two people (`middleNamesDisagree`,
 * comparators/middle-names.ts: none of one record's can be one of the other's by spelling, keying error, nickname
 * or initial), and neither an address line nor a phone agrees. The rest of the record then describes two people of
 * one given name and birth date (namesakes, or family names that merely come close), which the model, blind to middle
 * names, would link: in the scale bench's registry of 300,000 records Edward Alejandro Berge and Edward Leonardo
 * Vonrueden (one given name, birth date and sex; family names in the Partial band; no address line or phone in
 * common) were one identity of six records, 9 of its 23 wrong record pairs. An address line or phone that agrees
 * lifts the hold: there the other middle name is far more often one source's slip than a namesake born the same day
 * under the same roof. With 2% of the records' middle names replaced by another name (a copy of that registry),
 * holding regardless sent 1,364 more cases to review and cost 0.0098 of recall; with the lift, 35 cases and 0.0003,
 * for the same 9 wrong pairs. Under one family name and birth date, with a sex on both records, the shared home does
 * not lift it: such a pair is held as possible twins of compound given names (possibleTwin). A personal identifier that agrees lifts it too, as for birth dates. An e-mail does
 * not: generated from the name, one namesake's can equal the other's.
 */
export function middleNameConflict(
  similarity: Float64Array,
  middleNamesDisagree: boolean,
  identifierAgrees: boolean,
): boolean {
  if (!middleNamesDisagree || identifierAgrees) return false;
  return !(agrees(similarity, ADDRESS_LINE) || agrees(similarity, PHONE));
}

/** The pair's flags read for the rules, with whether a personal identifier agrees and the middle names conflict. */
function pairHints(
  similarity: Float64Array,
  flags: number,
): { hints: TwinHints & { readonly newbornName: boolean }; identifierAgrees: boolean; middleConflict: boolean } {
  const identifierAgrees = personalIdentifierAgrees(similarity, (flags & PERSONAL_IDENTIFIER_FLAG) !== 0);
  const middleNamesDisagree = (flags & MIDDLE_NAMES_DISAGREE_FLAG) !== 0;
  const middleConflict = middleNameConflict(similarity, middleNamesDisagree, identifierAgrees);
  const hints = {
    twoGivenNamesAlike: (flags & TWO_GIVEN_NAMES_ALIKE_FLAG) !== 0 && !identifierAgrees,
    newbornName: (flags & NEWBORN_NAME_FLAG) !== 0,
    multipleBirth: (flags & MULTIPLE_BIRTH_FLAG) !== 0,
    initialGivenName: (flags & INITIAL_GIVEN_NAME_FLAG) !== 0,
    initialBesideName: (flags & INITIAL_GIVEN_NAME_FLAG) !== 0 && !identifierAgrees,
    birthDatesADayApart: (flags & BIRTH_DATES_A_DAY_APART_FLAG) !== 0,
    // At one home, where the middle-name rule lets them through; elsewhere it holds them under its own name.
    middleNamesDisagree: middleNamesDisagree && !identifierAgrees && !middleConflict,
    givenNamesOfTwoSexes: (flags & GIVEN_NAMES_OF_TWO_SEXES_FLAG) !== 0 && !identifierAgrees,
  };
  return { hints, identifierAgrees, middleConflict };
}

/**
 * Which rule (name evidence, twin, shared number, birth dates, middle names, names alone) holds the pair at Probable
 * once its score reaches it. `flags`: the pair's flags beside its similarities (field-comparison.ts pairFlags).
 * Whether a personal identifier agrees (household-evidence.ts personalIdentifierAgrees) is decided once here, for the
 * rules it lifts (given names alike by sound only, birth dates, middle names) and the one it raises (a number shared
 * in a household: household-evidence.ts sharedIdentifier).
 */
export function scoreLimit(similarity: Float64Array, flags = 0): ScoreLimit | undefined {
  if (!hasNameEvidence(similarity)) return 'NoNameEvidence';
  const { hints, identifierAgrees, middleConflict } = pairHints(similarity, flags);
  if (possibleTwin(similarity, hints)) return 'PossibleTwin';
  if (identifierAgrees && sharedIdentifier(similarity, hints.newbornName)) return 'SharedIdentifier';
  if (birthDateConflict(similarity, identifierAgrees)) return 'BirthDateConflict';
  if (middleConflict) return 'MiddleNameConflict';
  if (namesOnly(similarity, identifierAgrees)) return 'NamesOnly';
  return undefined;
}

/** The score method's score under the name-evidence and twin rules (see the module comment). */
export function limitedScore(
  score: number,
  similarity: Float64Array,
  probable: number,
  flags = 0,
): { score: number; limitedBy?: undefined } | { score: number; limitedBy: ScoreLimit; heldFrom: number } {
  // At Probable too: when Probable equals Certain, the score alone would say certain.
  if (score < probable) return { score };
  const limitedBy = scoreLimit(similarity, flags);
  return limitedBy === undefined ? { score } : { score: probable, limitedBy, heldFrom: score };
}

export interface Scorer {
  readonly method: ScoreMethod;
  readonly methodVersion: string;
  readonly comparatorVersion: string;
  readonly sets: NameSets;
  prepare(fields: MatchFields): PreparedRecord;
  /**
   * prepare() without reading the name counts: for a record only ever compared with one prepared after it (an
   * ingested record's candidates). Scoring takes the fresher of two records' readings, which is the later one's.
   */
  prepareWithoutCounts(fields: MatchFields): PreparedRecord;
  /** Fills the scratch with field similarities and returns the outcome; allocation-light. */
  outcome(a: PreparedRecord, b: PreparedRecord, scratch?: FieldScratch): PairOutcome;
  /**
   * outcome() for a caller that only acts on pairs at Probable or above: undefined when the pair certainly stays
   * below Probable (its outcome is no-match), known from the person fields alone where the household fields
   * cannot lift it (matchLogOddsBound); their comparison, most of a non-match's cost, is then skipped and the
   * scratch holds the person fields only. Otherwise exactly outcome()'s answer.
   */
  outcomeFromProbable(a: PreparedRecord, b: PreparedRecord, scratch?: FieldScratch): PairOutcome | undefined;
  /** The outcome with full field evidence. */
  explain(a: PreparedRecord, b: PreparedRecord): MatchResult;
  /**
   * What decides the pair, as outcome() would say (its decidedBy), with the scratch's field similarities filled as
   * outcome() fills them, but no score worked out: for callers that count field bands only (random-pair u).
   */
  decidedBy(a: PreparedRecord, b: PreparedRecord, scratch?: FieldScratch): PairOutcome['decidedBy'];
}

/** The household fields, marked for matchLogOddsBound before they are compared. */
const UNKNOWN_HOUSEHOLD = new Uint8Array(FIELD_NAMES.length);
for (const f of HOUSEHOLD_FIELD_INDEXES) UNKNOWN_HOUSEHOLD[f] = 1;

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

/** The fresher of two readings of one value's counts (a record prepared later saw more records). */
function fresher(a: TermCount | undefined, b: TermCount | undefined): TermCount | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return b.total > a.total ? b : a;
}

/**
 * Fills scratch.termFrequency: the adjustment of an exactly agreeing family or given name by the value's frequency
 * under the model (scoring/term-frequency.ts), and the two readings it was made of; every other field stays NaN,
 * as clearTermFrequency left it. Returns their sum.
 */
function termFrequencies(a: PreparedRecord, b: PreparedRecord, scratch: FieldScratch, compiled: CompiledModel): number {
  let sum = 0;
  const family = fresher(a.familyCount, b.familyCount);
  if (
    family !== undefined &&
    a.fields.familyName === b.fields.familyName &&
    (scratch.similarity[FAMILY_NAME] ?? 0) >= BAND_FLOORS.Exact
  )
    sum += termFrequency(scratch, FAMILY_NAME, family, compiled);
  const given = fresher(a.givenCount, b.givenCount);
  if (
    given !== undefined &&
    a.fields.givenName === b.fields.givenName &&
    (scratch.similarity[GIVEN_NAME] ?? 0) >= BAND_FLOORS.Exact
  )
    sum += termFrequency(scratch, GIVEN_NAME, given, compiled);
  return sum;
}

/** One field's adjustment into the scratch; returns it, or 0 when the counts say too little. */
function termFrequency(scratch: FieldScratch, field: number, counts: TermCount, compiled: CompiledModel): number {
  const relative = relativeRarity(counts);
  const logP = logFrequency(counts);
  const adjustment = combinedAdjustment(relative, logP, compiled.exactLogU[field] ?? Number.NaN);
  scratch.termRelative[field] = relative;
  scratch.termLogFrequency[field] = logP;
  scratch.termFrequency[field] = adjustment;
  return Number.isNaN(adjustment) ? 0 : adjustment;
}

/** Readings are left as they were: copyTermReadings reads them only where termFrequency was set. */
function clearTermFrequency(scratch: FieldScratch): void {
  scratch.termFrequency.fill(Number.NaN);
}

/** Values per pair that copyTermReadings writes. */
export const TERM_READINGS = 4;

/**
 * Copies the term-frequency readings of the pair the scratch last scored (family then given name: the bounded
 * ln(ū/p(v)) and ln p(v), NaN where none applied) to `into` at `offset`, for modelTermFrequency.
 */
export function copyTermReadings(scratch: FieldScratch, into: Float64Array, offset: number): void {
  const family = !Number.isNaN(scratch.termFrequency[FAMILY_NAME] ?? Number.NaN);
  const given = !Number.isNaN(scratch.termFrequency[GIVEN_NAME] ?? Number.NaN);
  into[offset] = family ? (scratch.termRelative[FAMILY_NAME] ?? Number.NaN) : Number.NaN;
  into[offset + 1] = family ? (scratch.termLogFrequency[FAMILY_NAME] ?? Number.NaN) : Number.NaN;
  into[offset + 2] = given ? (scratch.termRelative[GIVEN_NAME] ?? Number.NaN) : Number.NaN;
  into[offset + 3] = given ? (scratch.termLogFrequency[GIVEN_NAME] ?? Number.NaN) : Number.NaN;
}

/**
 * The term-frequency adjustment the live scorer adds to a pair's log-odds under `model`, from the readings
 * copyTermReadings kept: assurance scores a model it fits or calibrates as the live scorer will once it is active.
 */
export function modelTermFrequency(model: CompiledModel, readings: Float64Array, offset: number): number {
  const family = combinedAdjustment(
    readings[offset] ?? Number.NaN,
    readings[offset + 1] ?? Number.NaN,
    model.exactLogU[FAMILY_NAME] ?? Number.NaN,
  );
  const given = combinedAdjustment(
    readings[offset + 2] ?? Number.NaN,
    readings[offset + 3] ?? Number.NaN,
    model.exactLogU[GIVEN_NAME] ?? Number.NaN,
  );
  return (Number.isNaN(family) ? 0 : family) + (Number.isNaN(given) ? 0 : given);
}

/**
 * A compared pair's score under a compiled model from what a table of pairs keeps (its similarities, flags and
 * term-frequency readings at `offset`), before any hold: as the live scorer scores it, with `priorShift` the log-odds
 * the registry's size moves the prior by.
 */
export function storedPairScore(
  model: CompiledModel,
  similarity: Float64Array,
  flags: number,
  readings: Float64Array,
  offset: number,
  priorShift = 0,
): number {
  return logistic(
    matchLogOdds(model, similarity, (flags & PERSONAL_IDENTIFIER_FLAG) !== 0) +
      modelTermFrequency(model, readings, offset) +
      priorShift,
  );
}

/**
 * The registry's size as two prepared records saw it: the most records carrying a family or a given name that
 * their counts read (the fresher reading of each), 0 without counts. The live registry, not a snapshot, so a bulk
 * load's later records are scored against the registry as it has grown.
 */
function registryRecords(a: PreparedRecord, b: PreparedRecord): number {
  return Math.max(fresher(a.familyCount, b.familyCount)?.total ?? 0, fresher(a.givenCount, b.givenCount)?.total ?? 0);
}

/**
 * An explained outcome's optional parts, each present only when set: the hard-conflict rule that decided, the rule
 * that held the score down (with, for a possible twin, which case of the rule), and what the prior moved by for the
 * registry's size. Reports that copy an outcome (evaluation's error examples, the workbench's pairs) take them from here.
 */
export function outcomeDetails(
  result: MatchResult,
): Pick<MatchResult, 'conflictRule' | 'limitedBy' | 'twinReason' | 'priorAdjustment'> {
  return {
    ...(result.conflictRule === undefined ? {} : { conflictRule: result.conflictRule }),
    ...(result.limitedBy === undefined ? {} : { limitedBy: result.limitedBy }),
    ...(result.twinReason === undefined ? {} : { twinReason: result.twinReason }),
    ...(result.priorAdjustment === undefined ? {} : { priorAdjustment: result.priorAdjustment }),
  };
}

/** What a scorer is told beyond its profile and counts. */
export interface ScorerOptions {
  /**
   * The registry's size, in records, that a pair is judged at least at (sizedPrior): the size a load brings the
   * registry to (ingest/load-size.ts), so a load's first records are linked as its last are, not under the higher
   * prior of the registry they arrive in while it is still small. Absent: the registry's size as counted.
   */
  readonly registryRecordsAtLeast?: number;
}

/**
 * `frequencies`: the tenant's name counts (store/term-frequency.ts). With them, a Fellegi-Sunter score adjusts
 * exact name agreement by the value's frequency; without them (a profile checked outside a tenant) it does not.
 */
export function createScorer(
  profile: MatchingProfile,
  frequencies?: TermFrequencyReader,
  options: ScorerOptions = {},
): Scorer {
  const comparators = profile.Comparators;
  const sets: NameSets = {
    // The validator has checked that every name is a supported comparator.
    family: buildNameComparatorSet(comparators.FamilyName as readonly ComparatorName[], comparators),
    given: buildNameComparatorSet(comparators.GivenNames as readonly ComparatorName[], comparators),
    trustedSystems: new Set(profile.TrustedIdentifierSystems),
    personalSystems: new Set(profile.PersonalIdentifierSystems ?? []),
  };
  const model = profile.MatchingRules.FellegiSunter;
  const compiled: CompiledModel | null = model === null ? null : compileModel(model);
  const method: ScoreMethod = compiled === null ? 'weighted-similarity' : 'fellegi-sunter';
  const methodVersion = model === null ? WEIGHTED_SIMILARITY_VERSION : model.modelVersion;
  const { Certain, Probable } = profile.MatchingRules.Thresholds;
  const rules = new Set(profile.HardConflictRules);
  const shared = newScratch();

  // The prior lowered for a registry larger than the model's (fellegi-sunter.ts registryPrior), noted in the scratch.
  const atLeast = options.registryRecordsAtLeast ?? 0;
  const sizedPrior = (a: PreparedRecord, b: PreparedRecord, scratch: FieldScratch): number => {
    scratch.priorAdjustment =
      compiled === null ? 0 : priorAdjustment(compiled, Math.max(atLeast, registryRecords(a, b)));
    return scratch.priorAdjustment;
  };

  const methodScore = (a: PreparedRecord, b: PreparedRecord, scratch: FieldScratch): number =>
    compiled === null
      ? weightedSimilarity(scratch.similarity, scratch.personalIdentifier)
      : logistic(
          matchLogOdds(compiled, scratch.similarity, scratch.personalIdentifier) +
            termFrequencies(a, b, scratch, compiled) +
            sizedPrior(a, b, scratch),
        );

  // What decides a compared pair before any score: an agreeing trusted identifier, then a hard conflict's rule.
  const beforeScore = (
    a: PreparedRecord,
    b: PreparedRecord,
    scratch: FieldScratch,
  ): 'trusted-identifier' | HardConflictRule | undefined => {
    const trusted = trustedAgreement(a, b);
    return trusted === 'agree' ? 'trusted-identifier' : hardConflict(a, b, trusted, scratch, rules);
  };

  const decide = (a: PreparedRecord, b: PreparedRecord, scratch: FieldScratch): PairOutcome => {
    const before = beforeScore(a, b, scratch);
    if (before === 'trusted-identifier') return { score: 1, decision: 'certain', decidedBy: 'trusted-identifier' };
    if (before !== undefined)
      return { score: 0, decision: 'no-match', decidedBy: 'hard-conflict', conflictRule: before };
    const limited = limitedScore(methodScore(a, b, scratch), scratch.similarity, Probable, pairFlags(scratch));
    const { score, limitedBy } = limited;
    if (limitedBy !== undefined)
      return { score, decision: 'probable', decidedBy: 'score', limitedBy, heldFrom: limited.heldFrom };
    const decision: Decision = score >= Certain ? 'certain' : score >= Probable ? 'probable' : 'no-match';
    return { score, decision, decidedBy: 'score' };
  };

  const decidedBy = (
    a: PreparedRecord,
    b: PreparedRecord,
    scratch: FieldScratch = shared,
  ): PairOutcome['decidedBy'] => {
    compareFields(a, b, sets, scratch);
    const before = beforeScore(a, b, scratch);
    return before === undefined ? 'score' : before === 'trusted-identifier' ? before : 'hard-conflict';
  };

  const outcome = (a: PreparedRecord, b: PreparedRecord, scratch: FieldScratch = shared): PairOutcome => {
    compareFields(a, b, sets, scratch);
    // Only a score by a Fellegi-Sunter model fills them (termFrequencies, sizedPrior); never a previous pair's.
    clearTermFrequency(scratch);
    scratch.priorAdjustment = 0;
    return decide(a, b, scratch);
  };

  // The margin keeps float rounding (the bound sums in another order than matchLogOdds) from ever skipping a pair
  // whose score reaches Probable.
  const belowProbable = (logOddsBound: number): boolean => logistic(logOddsBound + 1e-9) < Probable;
  const outcomeFromProbable = (
    a: PreparedRecord,
    b: PreparedRecord,
    scratch: FieldScratch = shared,
  ): PairOutcome | undefined => {
    if (compiled === null) return outcome(a, b, scratch);
    comparePersonFields(a, b, sets, scratch);
    clearTermFrequency(scratch);
    scratch.priorAdjustment = 0;
    if (trustedAgreement(a, b) !== 'agree') {
      for (const f of HOUSEHOLD_FIELD_INDEXES) scratch.similarity[f] = Number.NaN;
      const bound =
        matchLogOddsBound(compiled, scratch.similarity, scratch.personalIdentifier, UNKNOWN_HOUSEHOLD) +
        termFrequencies(a, b, scratch, compiled) +
        sizedPrior(a, b, scratch);
      if (belowProbable(bound)) return undefined;
      clearTermFrequency(scratch);
      scratch.priorAdjustment = 0;
    }
    compareHouseholdFields(a, b, scratch);
    return decide(a, b, scratch);
  };

  const explain = (a: PreparedRecord, b: PreparedRecord): MatchResult => {
    const scratch = newScratch();
    const result = outcome(a, b, scratch);
    const reason =
      result.limitedBy === 'PossibleTwin'
        ? twinReason(scratch.similarity, pairHints(scratch.similarity, pairFlags(scratch)).hints)
        : undefined;
    return {
      ...result,
      ...(reason === undefined ? {} : { twinReason: reason }),
      scoreMethod: method,
      scoreMethodVersion: methodVersion,
      ...(scratch.priorAdjustment === 0 ? {} : { priorAdjustment: scratch.priorAdjustment }),
      evidence: evidenceOf(scratch, compiled),
    };
  };

  return {
    method,
    methodVersion,
    comparatorVersion: comparators.Version,
    sets,
    prepare: (fields) => prepareRecord(fields, sets, compiled === null ? undefined : frequencies),
    prepareWithoutCounts: (fields) => prepareRecord(fields, sets),
    outcome,
    outcomeFromProbable,
    decidedBy,
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
  if (rules.has('SexMismatch') && a.fields.sex !== null && b.fields.sex !== null && a.fields.sex !== b.fields.sex)
    return 'SexMismatch';
  if (rules.has('BirthDateMismatch')) {
    const similarity = scratch.similarity[BIRTH_DATE] ?? Number.NaN;
    if (!Number.isNaN(similarity) && similarity < 0.5) return 'BirthDateMismatch';
  }
  return undefined;
}

export function evidenceOf(scratch: FieldScratch, compiled: CompiledModel | null): FieldEvidence[] {
  const gate = householdGate(scratch.similarity, scratch.personalIdentifier);
  return FIELD_NAMES.map((field, index) => {
    const similarity = scratch.similarity[index] ?? Number.NaN;
    const missing = Number.isNaN(similarity);
    const termFrequency = scratch.termFrequency[index] ?? Number.NaN;
    const adjusted = compiled !== null && !Number.isNaN(termFrequency);
    const comparator = scratch.comparator[index] ?? null;
    const evidence: FieldEvidence = {
      field,
      comparator: missing ? null : comparator,
      similarity: missing ? null : similarity,
      band: missing ? null : bandOf(similarity),
      ...(compiled === null
        ? { weight: FIELD_WEIGHTS[field] }
        : {
            logLikelihood:
              fieldContribution(compiled, index, scratch.similarity, scratch.personalIdentifier) +
              (adjusted ? termFrequency : 0),
          }),
    };
    if (adjusted) evidence.termFrequencyAdjustment = termFrequency;
    if (compiled !== null && impliedByAddress(index, scratch.similarity)) evidence.impliedBy = 'addressLine';
    else if (
      !missing &&
      notCounted(index, gate) &&
      (compiled === null ? similarity > 0 : fieldLogRatio(compiled, index, similarity) > 0)
    )
      evidence.householdOnly = true;
    const level = scratch.level[index];
    // A missing given name or birth date keeps its level when it says why (a newborn's placeholder, a 1 January:
    // field-comparison.ts).
    if (level !== undefined && (!missing || index === GIVEN_NAME || index === BIRTH_DATE)) evidence.level = level;
    const culture = scratch.culture[index];
    const dictionaryVersion = scratch.dictionaryVersion[index];
    if (culture !== undefined) evidence.culture = culture;
    if (dictionaryVersion !== undefined) evidence.dictionaryVersion = dictionaryVersion;
    return evidence;
  });
}
