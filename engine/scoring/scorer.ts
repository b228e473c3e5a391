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
import { BAND_FLOORS, FIELD_NAMES, bandOf, type ComparatorName } from '../contract/fields.ts';
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

const FAMILY_NAME = FIELD_NAMES.indexOf('familyName');
const GIVEN_NAME = FIELD_NAMES.indexOf('givenName');
const BIRTH_DATE = FIELD_NAMES.indexOf('birthDate');
const SEX = FIELD_NAMES.indexOf('sex');

/** True when a family or given name was compared on both sides (a NaN similarity is a missing comparison). */
export function hasNameEvidence(similarity: Float64Array): boolean {
  return !Number.isNaN(similarity[FAMILY_NAME] ?? Number.NaN) || !Number.isNaN(similarity[GIVEN_NAME] ?? Number.NaN);
}

/** What the pair's flags say of its given names, for the twin rule (field-comparison.ts pairFlags). */
export interface TwinHints {
  /**
   * The given names agree Strong but are two names: alike only by sound (Anais and Janis) or but for their first sound
   * (Emma and Gemma); and no personal identifier agrees (the caller passes false then).
   */
  readonly twoGivenNamesAlike?: boolean;
  /** A newborn's placeholder given names on either record. */
  readonly newbornName?: boolean;
  /** Both records say one of a multiple birth. */
  readonly multipleBirth?: boolean;
  /** Either record's given name is an initial alone: it cannot tell twins apart, as a missing one cannot. */
  readonly initialGivenName?: boolean;
  /** The birth dates are a day apart in one year (birth-date-levels.ts `one-day`). */
  readonly birthDatesADayApart?: boolean;
  /**
   * Both records carry middle names and they name two people (comparators/middle-names.ts), and no personal identifier
   * agrees (the caller passes false then).
   */
  readonly middleNamesDisagree?: boolean;
  /**
   * The given names agree Strong and are one name's forms for a boy and a girl (Daniel and Danielle), and no
   * personal identifier agrees (the caller passes false then).
   */
  readonly givenNamesOfTwoSexes?: boolean;
}

/**
 * Twins and same-age household members: the same family name (at least Strong) and birth date (Exact), but
 * given names that do not agree (below Strong; below Exact when the recorded sexes differ), with the sex recorded
 * on both records. Family, birth date, address and phone then agree because the two people share them, not
 * because the records are one person, so the independence the score method assumes overstates the evidence; the
 * pair goes to review, never an automatic link, whatever else agrees. A shared e-mail address, phone or
 * non-trusted identifier does not lift the hold: children's records carry a parent's contact details and a family
 * plan's member number, so those are household evidence (household-evidence.ts). Only a trusted identifier,
 * personal by configuration, links such a pair, and it decides before any score.
 *  - Given names that agree only by sound (`twoGivenNamesAlike`: the phonetic comparator beat every other, the names
 *    are more than one keying error apart and not nicknames of one name: anais and janis, john and joannie) are two
 *    names too, unless a personal identifier agrees (it says who the person is; the caller passes false then). In
 *    the scale bench's registry of 300,000 records the hold undid three of the seven identities that joined two
 *    people (wrong record pairs 39 -> 23) for 25 more open review cases. Given names that agree Strong by spelling
 *    (neal and nels, andre and andres) are held only under another recorded sex: tried for one sex too, the hold
 *    sent 1,182 true pairs (nicknames without a dictionary, two typos) to review and caught 4 pairs of two people.
 *  - Given names that agree Strong but differ in their first sound (`twoGivenNamesAlike` too: Emma and Gemma, Mason
 *    and Jason, Anna and Hanna; comparators/first-sound.ts) are two names too under one sex, unless a personal
 *    identifier agrees: parents name twins so, and a clerk's slip rarely falls on a first letter, so among such pairs
 *    one person's slip is no likelier than twins. Same-sex twins so named at one home were linked at a score of 1
 *    (test/main/cli/placeholder-patients.test.ts). The cost is one person's records whose given name was mistyped
 *    in its first letter: the quality suite's synthetic sets (whose generator puts one typo in ten there) open 0.2
 *    to 1.9 more review cases per 1,000 records (the population of 10,000: 41 more, 39 of them joining a true pair;
 *    the bench's registry of 100,000: 2.9 more), at no precision; FEBRL (no sex) is unchanged.
 *    Birth dates a day apart in one year (`birthDatesADayApart`, level `one-day`) count as the same one for such
 *    names: twins born either side of midnight. Twelve such pairs at one home were 11 automatic links (the CLI test in
 *    placeholder-patients.test.ts); held, the quality suite is unchanged but for the heavy-typo extract of 20,000
 *    records (auto-link recall 0.9389 -> 0.9390). Any Strong birth date (a keyed digit elsewhere too) cost 26 more
 *    review cases there, each one person's two slips, and caught no pair of two people.
 *  - Under another recorded sex a birth date a keying error apart (Strong) counts as the same one. In the scale
 *    bench's registry of a million records Ann and John Schuster, twins (one birth date, address and phone), were
 *    joined through a record of Ann's whose birth date one source mistyped by a digit (given names that sound alike
 *    by Double Metaphone, Strong): 4 wrong record pairs, undone by the hold at no true pair's cost. Tried under one sex
 *    as well (given names below Strong), it cost 0.007 of F1 on the heavy-typo extracts (a given name and a birth
 *    date both mistyped there) and caught nothing more.
 *  - A birth date missing on one side (NaN) does not lift the hold, for any of its parts: it does not disagree.
 *  - A given name missing on one side (or both), with the birth dates compared, leaves twins possible as another
 *    given name does: the given name is what tells twins apart, and a record without one could be either twin's. A
 *    newborn registered under the family name alone ("Okafor", no given name: "Baby Boy" is the placeholder case
 *    below), a boy and a girl among them, and a twin's record whose given name a source left out, were linked at a
 *    score of 1. About 3% of births are twins, and 5 to 10% of a registry's people have a duplicate record, so
 *    among pairs of one family name, birth date, sex and home there is about one twin pair for every five to ten
 *    duplicates: without a given name such a link would be wrong about one time in ten. Measured (the quality suite,
 *    default profile, with the household rule's change beside it): FEBRL (no sex) unchanged by this part; the
 *    heavy-typo extracts, whose generator drops a duplicate's given name at about 6% and gives a twin no address or
 *    phone in common (so they show the cost, not the gain), open 33 and 139 more review cases, each joining a true
 *    pair (auto-link F1 0.9810 -> 0.9621 and 0.9767 -> 0.9696; 2.7 -> 6.0 and 19.9 -> 26.9 cases per 1,000). Without
 *    a sex on both records not held, as above; a birth date missing too is the household rule's (household-evidence.ts).
 *    A given name that is an initial alone (`initialGivenName`: "J", "J.") on either record counts as missing: it
 *    agrees with every name of its letter, so "J Okafor" and "J Okafor" of one birth date could be James and John,
 *    and were linked at a score of 1 (an initial beside a full name was already held, as a given name below Exact).
 *    The quality suite is unchanged by it.
 *  - Given names that agree but middle names that name two people (`middleNamesDisagree`, comparators/middle-names.ts),
 *    at one home (an address line or phone agrees; elsewhere the middle-name rule below holds them under its own name),
 *    with the birth dates compared and no personal identifier agreeing: twins of compound given names, which share the
 *    first (Maria Fernanda and Maria Jose, Jose Luis and Jose Antonio, Jean-Pierre and Jean-Paul: a hyphenated name's
 *    second part is matched as a middle name). The middle-name rule let the shared home lift its hold, taking the other
 *    middle name for a source's slip, and linked them at a score of 1. The quality sets and the bench's registries are
 *    unchanged (their generators never vary a person's middle names, so they show neither cost nor gain); on a copy of
 *    the scale bench's registry of 300,000 with 2% of middle names replaced by another name, holding every middle-name
 *    conflict whatever the address cost 1,364 review cases, an upper bound on this hold's, which takes a subset of them.
 *  - No sex recorded on one side: not held. Such data cannot tell a twin from a replaced given name (a common
 *    error between records of one person, Christen 2012 §2), and holding every such pair would send the
 *    true pairs of every source without a sex field to review. Except given names that are one name's forms for a
 *    boy and a girl (`givenNamesOfTwoSexes`: Daniel and Danielle, Paul and Paula, Antonio and Antonia;
 *    comparators/names-of-two-sexes.ts), with the birth dates agreeing at least Strong or one missing, unless a
 *    personal identifier agrees: they stand in for the missing sex. Boy and girl twins so named at one home, from a
 *    source without a sex field, were linked at a score of 1 (test/engine/scoring/scorer.test.ts).
 *  - A newborn's placeholder given names on either record (`newbornName`: "Baby Boy", "Twin A",
 *    normalise/newborn-name.ts), compared as missing: held whenever the family names and birth dates agree as
 *    above, whatever the sexes, and whatever personal identifier agrees: a newborn's record carries its mother's
 *    number far more often than its own, so twins registered under it agree on it too. Twins are registered so at
 *    birth, and one baby's two records look the same: "Baby Boy A" and "Baby Boy B" Smith, and "Baby Boy" and "Baby
 *    Girl" Smith, were linked automatically (their given names agreed exactly on "baby"), and with their mother's
 *    number on both they still were until the identifier stopped lifting this hold.
 *  - Both records say one of a multiple birth (`multipleBirth`: FHIR multipleBirthBoolean or a birth order, and no
 *    two equal orders saying they are one): held whenever the family names agree, the birth dates agree (at least
 *    Strong) or one is missing, and the given names are not Exact, whatever the sexes and whether recorded, and
 *    whatever personal identifier agrees (children's records carry a parent's number). Same-sex twins are often named
 *    a letter apart (Jayden and Jaydon), which agrees Strong; the records say twins are there, so such a pair is as
 *    likely two twins as one twin's typo. Two other birth orders make the given names Different first
 *    (field-comparison.ts markMultipleBirths).
 */
export function possibleTwin(similarity: Float64Array, hints: TwinHints = {}): boolean {
  const { twoGivenNamesAlike = false, newbornName = false, multipleBirth = false, birthDatesADayApart = false } = hints;
  if ((similarity[FAMILY_NAME] ?? 0) < BAND_FLOORS.Strong) return false;
  // NaN (a birth date missing on one side) passes the tests below: it does not disagree.
  const birthDate = similarity[BIRTH_DATE] ?? 0;
  if (newbornName) return !(birthDate < BAND_FLOORS.Strong);
  const given = similarity[GIVEN_NAME] ?? Number.NaN;
  const dated = !Number.isNaN(birthDate);
  const givenMissing = (Number.isNaN(given) || hints.initialGivenName === true) && dated;
  const middleNamesDisagree = hints.middleNamesDisagree === true && dated;
  const givenNotExact = given < BAND_FLOORS.Exact || givenMissing || middleNamesDisagree;
  if (multipleBirth && !(birthDate < BAND_FLOORS.Strong) && givenNotExact) return true;
  const sex = similarity[SEX] ?? Number.NaN;
  if (Number.isNaN(sex)) return hints.givenNamesOfTwoSexes === true && !(birthDate < BAND_FLOORS.Strong);
  // Twins of opposite sex are often given names a letter or two apart (Daniel and Danielle, Francis and Frances,
  // Jo and Joe), which agree Strong. A Strong given name with another recorded sex is such a pair far more often than
  // one person whose name was mistyped and whose sex was miscoded in the same record; with a birth date a keying error
  // apart as well, that one person would need three errors.
  if (sex < BAND_FLOORS.Exact) return !(birthDate < BAND_FLOORS.Strong) && givenNotExact;
  const namesAlike = given < BAND_FLOORS.Exact && twoGivenNamesAlike;
  if (birthDate < BAND_FLOORS.Exact) return birthDatesADayApart && namesAlike;
  return given < BAND_FLOORS.Strong || givenMissing || middleNamesDisagree || namesAlike;
}

const ADDRESS_LINE = FIELD_NAMES.indexOf('addressLine');
const POSTAL_CODE = FIELD_NAMES.indexOf('postalCode');
const PHONE = FIELD_NAMES.indexOf('phone');
const IDENTIFIER = FIELD_NAMES.indexOf('identifier');

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

/**
 * Which rule (name evidence, twin, shared number, birth dates, middle names, names alone) holds the pair at Probable
 * once its score reaches it. `flags`: the pair's flags beside its similarities (field-comparison.ts pairFlags).
 * Whether a personal identifier agrees (household-evidence.ts personalIdentifierAgrees) is decided once here, for the
 * rules it lifts (given names alike by sound only, birth dates, middle names) and the one it raises (a number shared
 * in a household: household-evidence.ts sharedIdentifier).
 */
export function scoreLimit(similarity: Float64Array, flags = 0): ScoreLimit | undefined {
  if (!hasNameEvidence(similarity)) return 'NoNameEvidence';
  const identifierAgrees = personalIdentifierAgrees(similarity, (flags & PERSONAL_IDENTIFIER_FLAG) !== 0);
  const twoGivenNamesAlike = (flags & TWO_GIVEN_NAMES_ALIKE_FLAG) !== 0;
  const middleNamesDisagree = (flags & MIDDLE_NAMES_DISAGREE_FLAG) !== 0;
  const newbornName = (flags & NEWBORN_NAME_FLAG) !== 0;
  const multipleBirth = (flags & MULTIPLE_BIRTH_FLAG) !== 0;
  const initialGivenName = (flags & INITIAL_GIVEN_NAME_FLAG) !== 0;
  const birthDatesADayApart = (flags & BIRTH_DATES_A_DAY_APART_FLAG) !== 0;
  const givenNamesOfTwoSexes = (flags & GIVEN_NAMES_OF_TWO_SEXES_FLAG) !== 0;
  const middleConflict = middleNameConflict(similarity, middleNamesDisagree, identifierAgrees);
  const hints = {
    twoGivenNamesAlike: twoGivenNamesAlike && !identifierAgrees,
    newbornName,
    multipleBirth,
    initialGivenName,
    birthDatesADayApart,
    // At one home, where the middle-name rule lets them through; elsewhere it holds them under its own name.
    middleNamesDisagree: middleNamesDisagree && !identifierAgrees && !middleConflict,
    givenNamesOfTwoSexes: givenNamesOfTwoSexes && !identifierAgrees,
  };
  if (possibleTwin(similarity, hints)) return 'PossibleTwin';
  if (identifierAgrees && sharedIdentifier(similarity, newbornName)) return 'SharedIdentifier';
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
 * The registry's size as two prepared records saw it: the most records carrying a family or a given name that
 * their counts read (the fresher reading of each), 0 without counts. The live registry, not a snapshot, so a bulk
 * load's later records are scored against the registry as it has grown.
 */
function registryRecords(a: PreparedRecord, b: PreparedRecord): number {
  return Math.max(fresher(a.familyCount, b.familyCount)?.total ?? 0, fresher(a.givenCount, b.givenCount)?.total ?? 0);
}

/**
 * An explained outcome's optional parts, each present only when set: the hard-conflict rule that decided, the rule
 * that held the score down, and what the prior moved by for the registry's size. Reports that copy an outcome
 * (evaluation's error examples, the workbench's pairs) take them from here.
 */
export function outcomeDetails(
  result: MatchResult,
): Pick<MatchResult, 'conflictRule' | 'limitedBy' | 'priorAdjustment'> {
  return {
    ...(result.conflictRule === undefined ? {} : { conflictRule: result.conflictRule }),
    ...(result.limitedBy === undefined ? {} : { limitedBy: result.limitedBy }),
    ...(result.priorAdjustment === undefined ? {} : { priorAdjustment: result.priorAdjustment }),
  };
}

/**
 * `frequencies`: the tenant's name counts (store/term-frequency.ts). With them, a Fellegi-Sunter score adjusts
 * exact name agreement by the value's frequency; without them (a profile checked outside a tenant) it does not.
 */
export function createScorer(profile: MatchingProfile, frequencies?: TermFrequencyReader): Scorer {
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
  const sizedPrior = (a: PreparedRecord, b: PreparedRecord, scratch: FieldScratch): number => {
    scratch.priorAdjustment = compiled === null ? 0 : priorAdjustment(compiled, registryRecords(a, b));
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

  const decide = (a: PreparedRecord, b: PreparedRecord, scratch: FieldScratch): PairOutcome => {
    const trusted = trustedAgreement(a, b);
    if (trusted === 'agree') return { score: 1, decision: 'certain', decidedBy: 'trusted-identifier' };
    const conflict = hardConflict(a, b, trusted, scratch, rules);
    if (conflict !== undefined)
      return { score: 0, decision: 'no-match', decidedBy: 'hard-conflict', conflictRule: conflict };
    const limited = limitedScore(methodScore(a, b, scratch), scratch.similarity, Probable, pairFlags(scratch));
    const { score, limitedBy } = limited;
    if (limitedBy !== undefined)
      return { score, decision: 'probable', decidedBy: 'score', limitedBy, heldFrom: limited.heldFrom };
    const decision: Decision = score >= Certain ? 'certain' : score >= Probable ? 'probable' : 'no-match';
    return { score, decision, decidedBy: 'score' };
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
    return {
      ...result,
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
    const similarity = scratch.similarity[2] ?? Number.NaN;
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
