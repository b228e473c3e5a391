/**
 * Compares two prepared records field by field into a reusable scratch area, so scoring a candidate pair
 * allocates (almost) nothing; evidence objects are built only for the pairs that are reported.
 *
 * Field comparators: names follow the comparator profile (all configured comparators, highest similarity
 * wins); the other fields use one fixed comparator each, chosen for the kind of error the field carries:
 *   birthDate   BirthDateLevels: compared as dates, in levels (comparators/birth-date-levels.ts); the year only
 *               when both are a 1 January (comparators/first-of-january.ts)
 *   sex, state  Exact
 *   addressLine DiceCoefficient (word order and typos); Exact when the lines are one address written with other
 *               street types, directions or unit designators (comparators/address-key.ts)
 *   city        JaroWinkler
 *   postalCode, phone EditDistanceLevels: keying errors counted, not a share of the length (edit-levels.ts)
 *   email       Exact (addresses are copied, not typed from speech; a near miss is another mailbox)
 *   identifier  EditDistanceLevels, best over the non-trusted systems both records carry
 * A family name is also compared with the other side's previous family names (married-name changes), and
 * when the names do not agree as given, given and family names are also compared crossed: a swap (a
 * family name keyed as the given name and the reverse) counts when the crossed initials agree, both crossed
 * comparisons are at least Strong and together they beat the straight ones.
 */
import { BAND_FLOORS, FIELD_INDEX, FIELD_NAMES, type ComparatorName } from '../contract/fields.ts';
import {
  compareNames,
  distinctNames,
  nicknamesOfOneName,
  type NameComparison,
  type PreparedName,
  type NameComparatorSet,
} from '../comparators/name-comparison.ts';
import { jaroWinkler } from '../comparators/jaro-winkler.ts';
import { middleNamesDisagree } from '../comparators/middle-names.ts';
import { firstSoundsDiffer } from '../comparators/first-sound.ts';
import { namesOfTwoSexes } from '../comparators/names-of-two-sexes.ts';
import { oneNameWithinTheOther } from '../comparators/compound-name.ts';
import { goesByMiddleName } from '../comparators/middle-name-as-given.ts';
import { BIRTH_DATE_PAIR_SIMILARITY, birthDateLevelOf } from '../comparators/first-of-january.ts';
import { PARTIAL_DATE_AGREES, PARTIAL_DATE_DIFFERS, partialDateLevel } from '../comparators/partial-birth-date.ts';
import { editLevel, EDIT_LEVEL_SIMILARITY, type EditLevel } from '../comparators/edit-levels.ts';
import { diceOfSortedBigrams } from '../comparators/dice-coefficient.ts';
import { identifierValue, type NameSets, type PreparedRecord } from './prepared-record.ts';

export const FIELD_COUNT = FIELD_NAMES.length;
const {
  familyName: FAMILY_NAME,
  givenName: GIVEN_NAME,
  birthDate: BIRTH_DATE,
  sex: SEX,
  addressLine: ADDRESS_LINE,
  city: CITY,
  state: STATE,
  postalCode: POSTAL_CODE,
  phone: PHONE,
  email: EMAIL,
  identifier: IDENTIFIER,
} = FIELD_INDEX;

/** NaN similarity means missing on at least one side (neutral). */
export interface FieldScratch {
  readonly similarity: Float64Array;
  readonly comparator: (ComparatorName | null)[];
  readonly culture: (string | undefined)[];
  readonly dictionaryVersion: (string | undefined)[];
  /** The comparison level of a level comparator (birth date, codes); undefined for the others. */
  readonly level: (string | undefined)[];
  /** The term-frequency adjustment of a field's Exact band (scoring/term-frequency.ts); NaN where none applies. */
  readonly termFrequency: Float64Array;
  /**
   * What termFrequency was made of, per field (NaN where none applies), so a model other than the scorer's can be
   * given the adjustment the live scorer would add under it (scorer.ts modelTermFrequency): the bounded ln(ū/p(v))
   * and ln p(v); meaningful only where termFrequency is set (they are not cleared between pairs).
   */
  readonly termRelative: Float64Array;
  readonly termLogFrequency: Float64Array;
  /**
   * True when the identifier field compared a system of the profile's PersonalIdentifierSystems: its agreement is
   * then identity evidence, not a household's (household-evidence.ts).
   */
  personalIdentifier: boolean;
  /**
   * True when the given names agree Strong (not Exact) but are two names, not nicknames of one name in the profile's
   * dictionaries: they agree only by sound (the phonetic comparator beat every other the profile lists) and are more
   * than one keying error apart (anais and janis, john and joannie; not neil and neal), or their first sounds differ
   * (comparators/first-sound.ts: emma and gemma, mason and jason), as names parents give twins do more often than a
   * clerk's slip. The twin hold reads it (possible-twin.ts).
   */
  twoGivenNamesAlike: boolean;
  /**
   * True when both records carry middle names and they name two people (comparators/middle-names.ts): the scorer
   * holds such a pair to review (scorer.ts middleNameConflict).
   */
  middleNamesDisagree: boolean;
  /** True when either record's given names are a newborn's placeholder (prepared-record.ts newborn). */
  newbornName: boolean;
  /**
   * True when either record's given name is an initial alone ("J", "J."; isInitial): it agrees with every name of
   * that letter, so it cannot tell twins apart (James and John are both "J"). The twin hold reads it (scorer.ts
   * possibleTwin).
   */
  initialGivenName: boolean;
  /**
   * True when both records say one of a multiple birth (MatchFields.multipleBirth) and their birth orders do not say
   * they are one (both known and equal): the twin hold reads it (possible-twin.ts).
   */
  multipleBirth: boolean;
  /**
   * True when the birth dates are a day apart in one year (level `one-day`, birth-date-levels.ts): one source's shifted
   * date, or twins born either side of midnight. The twin hold reads it (possible-twin.ts).
   */
  birthDatesADayApart: boolean;
  /**
   * True when the given names agree Strong (not Exact) and are one name's forms for a boy and for a girl (Daniel and
   * Danielle, Paul and Paula: comparators/names-of-two-sexes.ts), not nicknames of one name in the profile's
   * dictionaries. Without a sex on both records the twin hold reads it (possible-twin.ts).
   */
  givenNamesOfTwoSexes: boolean;
  /**
   * What a Fellegi-Sunter score added to the model's prior log-odds for the registry's size (fellegi-sunter.ts
   * priorAdjustment); 0 when nothing was added.
   */
  priorAdjustment: number;
}

/**
 * A pair's flags beside its similarities, for the tables of pairs assurance keeps (pairFlags), which hold them in a
 * Uint8Array (assurance/load-pairs.ts, estimate.ts): eight flags at most.
 */
export const PERSONAL_IDENTIFIER_FLAG = 1;
export const TWO_GIVEN_NAMES_ALIKE_FLAG = 2;
export const MIDDLE_NAMES_DISAGREE_FLAG = 4;
export const NEWBORN_NAME_FLAG = 8;
export const MULTIPLE_BIRTH_FLAG = 16;
export const INITIAL_GIVEN_NAME_FLAG = 32;
export const BIRTH_DATES_A_DAY_APART_FLAG = 64;
export const GIVEN_NAMES_OF_TWO_SEXES_FLAG = 128;

/** The scratch's flags as one number: what a table of pairs stores to score a pair again as the live scorer does. */
export function pairFlags(scratch: FieldScratch): number {
  return (
    (scratch.personalIdentifier ? PERSONAL_IDENTIFIER_FLAG : 0) |
    (scratch.twoGivenNamesAlike ? TWO_GIVEN_NAMES_ALIKE_FLAG : 0) |
    (scratch.middleNamesDisagree ? MIDDLE_NAMES_DISAGREE_FLAG : 0) |
    (scratch.newbornName ? NEWBORN_NAME_FLAG : 0) |
    (scratch.multipleBirth ? MULTIPLE_BIRTH_FLAG : 0) |
    (scratch.initialGivenName ? INITIAL_GIVEN_NAME_FLAG : 0) |
    (scratch.birthDatesADayApart ? BIRTH_DATES_A_DAY_APART_FLAG : 0) |
    (scratch.givenNamesOfTwoSexes ? GIVEN_NAMES_OF_TWO_SEXES_FLAG : 0)
  );
}

export function newScratch(): FieldScratch {
  return {
    similarity: new Float64Array(FIELD_COUNT),
    comparator: new Array<ComparatorName | null>(FIELD_COUNT).fill(null),
    culture: new Array<string | undefined>(FIELD_COUNT).fill(undefined),
    dictionaryVersion: new Array<string | undefined>(FIELD_COUNT).fill(undefined),
    level: new Array<string | undefined>(FIELD_COUNT).fill(undefined),
    termFrequency: new Float64Array(FIELD_COUNT).fill(Number.NaN),
    termRelative: new Float64Array(FIELD_COUNT).fill(Number.NaN),
    termLogFrequency: new Float64Array(FIELD_COUNT).fill(Number.NaN),
    personalIdentifier: false,
    twoGivenNamesAlike: false,
    middleNamesDisagree: false,
    newbornName: false,
    initialGivenName: false,
    multipleBirth: false,
    birthDatesADayApart: false,
    givenNamesOfTwoSexes: false,
    priorAdjustment: 0,
  };
}

function setName(out: FieldScratch, index: number, result: NameComparison | null): void {
  out.level[index] = result?.level;
  if (result === null) {
    out.similarity[index] = Number.NaN;
    out.comparator[index] = null;
    out.culture[index] = undefined;
    out.dictionaryVersion[index] = undefined;
    return;
  }
  out.similarity[index] = result.similarity;
  out.comparator[index] = result.comparator;
  out.culture[index] = result.culture;
  out.dictionaryVersion[index] = result.dictionaryVersion;
}

function setPlain(
  out: FieldScratch,
  index: number,
  a: string | null,
  b: string | null,
  comparator: ComparatorName,
  fn: (x: string, y: string) => number,
): void {
  out.culture[index] = undefined;
  out.dictionaryVersion[index] = undefined;
  out.level[index] = undefined;
  if (a === null || b === null) {
    out.similarity[index] = Number.NaN;
    out.comparator[index] = null;
    return;
  }
  out.similarity[index] = a === b ? 1 : fn(a, b);
  out.comparator[index] = comparator;
}

const exactFn = (): number => 0;

/** The address line: as setPlain with the Dice coefficient, from the records' prepared bigrams. */
function setAddress(out: FieldScratch, a: PreparedRecord, b: PreparedRecord): void {
  out.culture[ADDRESS_LINE] = undefined;
  out.dictionaryVersion[ADDRESS_LINE] = undefined;
  out.level[ADDRESS_LINE] = undefined;
  const left = a.compared.addressLine;
  const right = b.compared.addressLine;
  if (left === null || right === null) {
    out.similarity[ADDRESS_LINE] = Number.NaN;
    out.comparator[ADDRESS_LINE] = null;
    return;
  }
  // Two equal lines have one key: the key alone says whether they are one address.
  out.similarity[ADDRESS_LINE] =
    a.addressKey === b.addressKey ? 1 : diceOfSortedBigrams(a.addressBigrams, b.addressBigrams);
  out.comparator[ADDRESS_LINE] = 'DiceCoefficient';
}

/** A level comparator: the level's name goes to the evidence, its similarity to the score. */
function setLevel<L extends string>(
  out: FieldScratch,
  index: number,
  a: string | null,
  b: string | null,
  comparator: ComparatorName,
  levelOf: (x: string, y: string) => L,
  similarityOf: Readonly<Record<L, number>>,
): void {
  out.culture[index] = undefined;
  out.dictionaryVersion[index] = undefined;
  if (a === null || b === null) {
    out.similarity[index] = Number.NaN;
    out.comparator[index] = null;
    out.level[index] = undefined;
    return;
  }
  const level = levelOf(a, b);
  out.similarity[index] = similarityOf[level];
  out.comparator[index] = comparator;
  out.level[index] = level;
}

function better(
  best: NameComparison | null,
  x: PreparedName | null,
  y: PreparedName | null,
  set: NameComparatorSet,
): NameComparison | null {
  if (x === null || y === null) return best;
  const result = compareNames(x, y, set);
  return best === null || result.similarity > best.similarity ? result : best;
}

/**
 * The family names' best agreement: as given, with either side's previous family names (married-name changes), or,
 * below Strong, one within the other (a compound and one of its names: comparators/compound-name.ts), which agrees
 * Strong with the comparator that finds two equal names, at level `compound-name-part`.
 */
function bestFamily(a: PreparedRecord, b: PreparedRecord, set: NameComparatorSet): NameComparison | null {
  let best = better(null, a.family, b.family, set);
  if (best !== null && best.similarity >= 1) return best;
  for (const previous of b.previousFamilies) best = better(best, a.family, previous, set);
  for (const previous of a.previousFamilies) best = better(best, previous, b.family, set);
  if (
    best !== null &&
    best.similarity < SHARED_NAME_SIMILARITY &&
    a.family !== null &&
    b.family !== null &&
    oneNameWithinTheOther(a.family.text, b.family.text)
  )
    return sharedName(set, COMPOUND_NAME_PART);
  return best;
}

/** The family name's evidence level when one name is a part of the other's compound. */
export const COMPOUND_NAME_PART = 'compound-name-part';

/**
 * The given names' agreement: by the profile's comparators, or, below Strong, one record's given name one of the
 * other's middle names while it carries none itself (José Luis and Luis, Anne-Marie and Marie:
 * comparators/middle-name-as-given.ts), which agrees Strong with the comparator that finds two equal names, at level
 * `middle-name-as-given`; or an initial alone beside a name of its letter, Strong at level `initial-of-name` (or
 * `initial-of-middle-name` for a middle name).
 */
function bestGiven(a: PreparedRecord, b: PreparedRecord, set: NameComparatorSet): NameComparison | null {
  if (a.given === null || b.given === null) return null;
  const result = compareNames(a.given, b.given, set);
  if (result.similarity >= SHARED_NAME_SIMILARITY) return result;
  if (goesByMiddleName(a, b)) return sharedName(set, MIDDLE_NAME_AS_GIVEN);
  const initial = initialOfName(a, b) ?? initialOfName(b, a);
  return initial === null ? result : sharedName(set, initial);
}

/**
 * A name the two records share though no comparator says so of the whole (a compound's part, a middle name gone by):
 * Strong, as Jaro-Winkler scores a compound's first name (smith and smith jones 0.89), never Exact, with the
 * comparator that finds two equal names and the level that says why.
 */
const SHARED_NAME_SIMILARITY = 0.9;

function sharedName(set: NameComparatorSet, level: string): NameComparison {
  return { similarity: SHARED_NAME_SIMILARITY, comparator: set.identical.comparator, level };
}

/** The given name's evidence level when one record's given name is the other's middle name. */
export const MIDDLE_NAME_AS_GIVEN = 'middle-name-as-given';

/**
 * The given name's evidence level when one record gives an initial alone and the other a name of that letter (J and
 * John). Jaro-Winkler put the pair Partial (0.775), which counts against a match as strongly as two names (J and John
 * weighed as John and James do), so "J Smith" beside "John Smith" of one birth date who had moved stayed apart, unseen
 * by a reviewer. The initial agrees with the name as a typo does (Strong): among pairs of two people about one in ten
 * or fifteen given names share a first letter, among one person's records nearly all. It agrees with every name of its
 * letter (James, Jane) too, so such a pair is never linked by its score: the twin rule holds it (possible-twin.ts
 * `initialBesideName`), and the household's address and phone, which Strong lets count, cannot link it either.
 */
export const INITIAL_OF_NAME = 'initial-of-name';

/**
 * The given name's evidence level when one record gives an initial alone and the other carries a middle name of that
 * letter (J beside Robert James: a person who goes by James, as middle-name-as-given.ts finds with the name written
 * out). Only while the initial's record carries no middle names of its own: "J R" names its middle name, and R is not
 * James. Strong and held as INITIAL_OF_NAME.
 */
export const INITIAL_OF_MIDDLE_NAME = 'initial-of-middle-name';

/**
 * The level at which `initial`'s given name, an initial alone, agrees with `named`'s names: a longer given name of that
 * letter (INITIAL_OF_NAME), or a middle name of that letter (INITIAL_OF_MIDDLE_NAME); else null.
 */
function initialOfName(initial: PreparedRecord, named: PreparedRecord): string | null {
  if (initial.given === null || named.given === null || !isInitial(initial.given)) return null;
  const letter = initial.given.text;
  if (ofLetter(named.given.text, letter)) return INITIAL_OF_NAME;
  if (initial.middleNames !== null || named.middleNames === null) return null;
  return named.middleNames.some((name) => ofLetter(name, letter)) ? INITIAL_OF_MIDDLE_NAME : null;
}

/** A name longer than the letter that starts with it. */
function ofLetter(name: string, letter: string): boolean {
  return name.length > 1 && name.charCodeAt(0) === letter.charCodeAt(0);
}

/**
 * The best level over the non-trusted systems both records carry (undefined when they share none). When they share
 * a personal system (PersonalIdentifierSystems), only personal systems are compared: a personal number that
 * disagrees is evidence against, whatever a family's shared number says.
 */
function bestIdentifier(
  a: PreparedRecord,
  b: PreparedRecord,
  personal: ReadonlySet<string>,
): { level: EditLevel; personal: boolean } | undefined {
  let best: EditLevel | undefined;
  let bestPersonal = false;
  for (const [system, value] of a.otherIdentifiers) {
    const other = identifierValue(b.otherIdentifiers, system);
    if (other === undefined) continue;
    const isPersonal = personal.has(system);
    if (bestPersonal && !isPersonal) continue;
    const level = editLevel(value, other);
    if (
      best === undefined ||
      (isPersonal && !bestPersonal) ||
      EDIT_LEVEL_SIMILARITY[level] > EDIT_LEVEL_SIMILARITY[best]
    ) {
      best = level;
      bestPersonal = isPersonal;
    }
    if (best === 'exact' && (bestPersonal || personal.size === 0)) break;
  }
  return best === undefined ? undefined : { level: best, personal: bestPersonal };
}

const SWAP_FLOOR = 0.85;

/**
 * A Latin letter alone ("j", from "J."): an initial. One character of another script is a name (the Chinese given
 * name 伟, the Korean 민), not an initial.
 */
function isInitial(name: { readonly text: string } | null): boolean {
  if (name === null || name.text.length !== 1) return false;
  const code = name.text.charCodeAt(0);
  return code >= 0x61 && code <= 0x7a;
}

function compareNameParts(a: PreparedRecord, b: PreparedRecord, sets: NameSets, out: FieldScratch): void {
  out.middleNamesDisagree = middleNamesDisagree(a, b, sets.given);
  out.newbornName = a.newborn || b.newborn;
  out.initialGivenName = isInitial(a.given) || isInitial(b.given);
  const family = bestFamily(a, b, sets.family);
  const given = bestGiven(a, b, sets.given);
  if (
    a.family !== null &&
    b.family !== null &&
    a.given !== null &&
    b.given !== null &&
    (family?.similarity ?? 0) + (given?.similarity ?? 0) < 2 * SWAP_FLOOR &&
    // Crossed initials must agree first: this keeps the swap check nearly free for ordinary non-matches.
    a.family.text.charCodeAt(0) === b.given.text.charCodeAt(0) &&
    a.given.text.charCodeAt(0) === b.family.text.charCodeAt(0)
  ) {
    const familyCrossed = compareNames(a.family, b.given, sets.family);
    const givenCrossed = compareNames(a.given, b.family, sets.family);
    if (
      familyCrossed.similarity >= SWAP_FLOOR &&
      givenCrossed.similarity >= SWAP_FLOOR &&
      familyCrossed.similarity + givenCrossed.similarity > (family?.similarity ?? 0) + (given?.similarity ?? 0)
    ) {
      setName(out, FAMILY_NAME, familyCrossed);
      setName(out, GIVEN_NAME, givenCrossed);
      out.twoGivenNamesAlike = false;
      out.givenNamesOfTwoSexes = false;
      return;
    }
  }
  setName(out, FAMILY_NAME, family);
  setName(out, GIVEN_NAME, given);
  // Why the given name is missing, in the evidence: a newborn's placeholder is not a name to compare.
  if (out.newbornName) out.level[GIVEN_NAME] = 'newborn-placeholder';
  const strongNotExact =
    given !== null &&
    a.given !== null &&
    b.given !== null &&
    given.similarity >= BAND_FLOORS.Strong &&
    given.similarity < BAND_FLOORS.Exact &&
    given.level === undefined;
  out.twoGivenNamesAlike =
    strongNotExact &&
    ((given.comparator === 'Phonetic' && distinctNames(a.given, b.given, sets.given)) ||
      (firstSoundsDiffer(a.given, b.given) && !nicknamesOfOneName(a.given, b.given, sets.given)));
  out.givenNamesOfTwoSexes =
    strongNotExact && namesOfTwoSexes(a.given.text, b.given.text) && !nicknamesOfOneName(a.given, b.given, sets.given);
}

/**
 * Two generations of one name: both records carry a generational suffix (normalise/name.ts generationOf) and they
 * differ, Jr and Sr, II and III. The given names then name two people however alike they are, so a compared given
 * name counts as Different (level `generation-differs`), which also leaves the household's address and phone
 * uncounted (household-evidence.ts). A father and son of one name at one address, one record without a birth date,
 * were linked automatically on the name, address and phone. A suffix on one record only says nothing: it is often
 * left off.
 */
function markGenerations(a: PreparedRecord, b: PreparedRecord, out: FieldScratch): void {
  const left = a.fields.generation;
  const right = b.fields.generation;
  if (left !== undefined && right !== undefined && left !== right) givenNamesDiffer(out, 'generation-differs');
}

/** A compared given name counted as Different, its level saying why (two generations, two birth orders). */
function givenNamesDiffer(out: FieldScratch, level: string): void {
  if (Number.isNaN(out.similarity[GIVEN_NAME] ?? Number.NaN)) return;
  out.similarity[GIVEN_NAME] = 0;
  out.level[GIVEN_NAME] = level;
  out.twoGivenNamesAlike = false;
  out.givenNamesOfTwoSexes = false;
}

/**
 * Two of one multiple birth: both records carry a birth order (FHIR multipleBirthInteger) and the orders differ. The
 * records are then two people whatever their given names say: same-sex twins are often named a letter apart (Jayden
 * and Jaydon), which agrees Strong and which the twin rule leaves to the model (possible-twin.ts), so such twins
 * at one address were linked automatically. A compared given name counts as Different (level
 * `birth-order-differs`), so the twin rule holds the pair for review, and the household's fields count for nothing
 * (household-evidence.ts). An order on one record only says nothing: most sources never send it. Both records of a
 * multiple birth without two orders that settle it (`multipleBirth`): the twin hold reads that (possible-twin.ts).
 */
function markMultipleBirths(a: PreparedRecord, b: PreparedRecord, out: FieldScratch): void {
  const left = a.fields.birthOrder;
  const right = b.fields.birthOrder;
  out.multipleBirth =
    a.fields.multipleBirth === true &&
    b.fields.multipleBirth === true &&
    (left === undefined || right === undefined || left !== right);
  if (left !== undefined && right !== undefined && left !== right) givenNamesDiffer(out, 'birth-order-differs');
}

/**
 * The birth date in levels (birth-date-levels.ts), or the year only when both are a 1 January
 * (first-of-january.ts): not compared when the years agree, the level saying why. Not a newborn's: a ward registers
 * the day it saw, and twins born on New Year's Day are told apart by it.
 */
function setBirthDate(out: FieldScratch, a: PreparedRecord, b: PreparedRecord): void {
  const left = a.birthDigits;
  const right = b.birthDigits;
  // A partial date (the year, or year and month, only) beside another date: compared at the coarser precision.
  if (left !== null && right !== null && (left.length < FULL_DATE_DIGITS || right.length < FULL_DATE_DIGITS))
    setLevel(out, BIRTH_DATE, left, right, 'BirthDateLevels', partialDateLevel, PARTIAL_DATE_SIMILARITY);
  else
    setLevel(
      out,
      BIRTH_DATE,
      left,
      right,
      'BirthDateLevels',
      birthDateLevelOf(a.newborn || b.newborn),
      BIRTH_DATE_PAIR_SIMILARITY,
    );
  out.birthDatesADayApart = out.level[BIRTH_DATE] === 'one-day';
}

/** YYYYMMDD: a full date's digits (a partial one's are fewer). */
const FULL_DATE_DIGITS = 8;

/** A partial date that agrees is not compared (NaN: missing); one that differs is Different. */
const PARTIAL_DATE_SIMILARITY = { [PARTIAL_DATE_AGREES]: Number.NaN, [PARTIAL_DATE_DIFFERS]: 0 } as const;

/**
 * The fields that tell two people apart (names, birth date, sex) and the identifier, which decides whether a
 * personal number lifts the household gate (household-evidence.ts). compareHouseholdFields does the rest.
 */
export function comparePersonFields(a: PreparedRecord, b: PreparedRecord, sets: NameSets, out: FieldScratch): void {
  compareNameParts(a, b, sets, out);
  markGenerations(a, b, out);
  markMultipleBirths(a, b, out);
  setBirthDate(out, a, b);
  setPlain(out, SEX, a.compared.sex, b.compared.sex, 'Exact', exactFn);
  const identifier = bestIdentifier(a, b, sets.personalSystems);
  out.similarity[IDENTIFIER] = identifier === undefined ? Number.NaN : EDIT_LEVEL_SIMILARITY[identifier.level];
  out.comparator[IDENTIFIER] = identifier === undefined ? null : 'EditDistanceLevels';
  out.level[IDENTIFIER] = identifier?.level;
  out.personalIdentifier = identifier?.personal ?? false;
  out.culture[IDENTIFIER] = undefined;
  out.dictionaryVersion[IDENTIFIER] = undefined;
}

/** The fields a household shares (address line, city, state, postal code, phone, e-mail). */
export function compareHouseholdFields(a: PreparedRecord, b: PreparedRecord, out: FieldScratch): void {
  // The capped view (prepared-record.ts): what bounds the work of one comparison.
  const fa = a.compared;
  const fb = b.compared;
  setAddress(out, a, b);
  setPlain(out, CITY, fa.city, fb.city, 'JaroWinkler', jaroWinkler);
  setPlain(out, STATE, fa.state, fb.state, 'Exact', exactFn);
  setLevel(out, POSTAL_CODE, fa.postalCode, fb.postalCode, 'EditDistanceLevels', editLevel, EDIT_LEVEL_SIMILARITY);
  setLevel(out, PHONE, fa.phone, fb.phone, 'EditDistanceLevels', editLevel, EDIT_LEVEL_SIMILARITY);
  setPlain(out, EMAIL, fa.email, fb.email, 'Exact', exactFn);
}

/** The indexes compareHouseholdFields fills. */
export const HOUSEHOLD_FIELD_INDEXES: readonly number[] = (
  ['addressLine', 'city', 'state', 'postalCode', 'phone', 'email'] as const
).map((field) => FIELD_INDEX[field]);

/** Every field: what outcome() compares (the benches' raw comparator loop too). */
export function compareFields(a: PreparedRecord, b: PreparedRecord, sets: NameSets, out: FieldScratch): void {
  comparePersonFields(a, b, sets, out);
  compareHouseholdFields(a, b, out);
}
