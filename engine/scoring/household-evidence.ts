/**
 * Household evidence is not identity evidence. An address (line, city, state, postcode), a phone, an e-mail
 * address and a non-trusted identifier that is not known to be personal (an insurance plan's member number, an
 * account number, a parent's number copied onto a child's record) are shared by the people of one household or
 * family. Their agreement says the two records belong to one household; within a household, people are told
 * apart by given name and birth date. So when the given names or the birth dates disagree (compared on both
 * sides and below Strong: another given name, another birth date), the household fields' agreement counts for
 * nothing. Their disagreement still counts against a match, and a missing given name or birth date is neutral as
 * everywhere else.
 *
 * Without this, a model's weights for a shared e-mail (+11), identifier (+14) or address (+9) outweighed another
 * given name and birth date: a parent and a child, two spouses, or a father and son of one name at one address
 * linked at a score of 1. Twins share a birth date and a family name too; the twin rule (scorer.ts) holds them,
 * and a shared e-mail or family number no longer lifts it. Only a trusted identifier (TrustedIdentifierSystems,
 * personal by configuration) links two records whatever their names, and it decides before any score.
 *
 * A personal identifier (PersonalIdentifierSystems: a national or social-security number, one person's, but not trusted
 * to decide alone) is identity evidence: its agreement always counts, and when it agrees it says who the person is, so
 * the household fields' agreement counts beside it too; unless the given names and birth dates both say two people,
 * when it is a relative's copied number and the pair goes to review (sharedIdentifier below). It agrees when equal, or
 * apart by a keying error no sequentially numbered sibling shows: two adjacent digits swapped, or a digit replaced
 * three or more places from the end (personalIdentifierAgrees; docs/matching.md gives the FEBRL figures). That is what
 * keeps a true pair with a replaced given name or a corrupted birth date linked where records carry such a number (the
 * FEBRL sets).
 *
 * Twins without a recorded sex. Twins share a family name and a birth date and differ by given name. With the sex
 * recorded on both sides the twin hold (scorer.ts) sends such a pair to review. Without it (an extract of names and
 * birth dates, a source with no sex field) the family name is one more thing the household shares: when the given
 * names disagree and the birth dates agree exactly, the family name's agreement counts for nothing either, unless a
 * personal identifier agrees. On a names-and-birth-dates extract with twins at the real rate, the default profile
 * linked them at a precision of 0.85 before; 0.993 after. A data set whose generator replaces given names between
 * records of one person (FEBRL) loses those pairs: they look exactly like twins.
 *
 * The rule gates the household fields on other fields' bands, never on their own, so the m and u an estimate or a
 * calibration fits for them stay unbiased (a gate on a field's own value was withdrawn for that reason: see
 * fellegi-sunter.ts). A mistyped given name or birth date (Strong) keeps the household evidence.
 *
 * Neither a given name nor a birth date compared (nothingPersonal): the household fields' agreement counts for nothing
 * either, unless a personal identifier agrees. The family name does not tell a household's people apart: it is theirs
 * too. 130 unidentified patients ("Unknown Patient", born 1900-01-01, both placeholders missing for matching)
 * registered at one hospital's address opened 384 review cases through the no-name-evidence hold (scorer.ts), none a
 * reviewer could decide; now none. And a record carrying a family name and contact details alone ("Okafor", a sex,
 * the household's address and phone) was linked at 0.998 to whichever member of the household it met first; now it
 * stays apart (the family name alone does not reach Probable). FEBRL, whose default-profile runs count its
 * identifier as a household's (not named personal), loses one automatic link of 5,000 true pairs in FEBRL 4 (a
 * record with no given name and no birth date, its family name, address and number agreeing) and one review case
 * true pairs in FEBRL 2; under the FEBRL profile the number is personal and those pairs keep their household evidence.
 */
import { BAND_FLOORS, FIELD_INDEX, FIELD_NAMES, type FieldName } from '../contract/fields.ts';
import { KEYING_ERROR_SIMILARITY } from '../comparators/edit-levels.ts';

/** The fields a household or family shares (the identifier field when its system is not personal). */
export const HOUSEHOLD_FIELDS: readonly FieldName[] = [
  'addressLine',
  'city',
  'state',
  'postalCode',
  'phone',
  'email',
  'identifier',
];
const HOUSEHOLD = new Uint8Array(FIELD_NAMES.length);
for (const field of HOUSEHOLD_FIELDS) HOUSEHOLD[FIELD_INDEX[field]] = 1;

const FAMILY_NAME = FIELD_INDEX.familyName;
const GIVEN_NAME = FIELD_INDEX.givenName;
const SEX = FIELD_INDEX.sex;
const BIRTH_DATE = FIELD_INDEX.birthDate;
const IDENTIFIER = FIELD_INDEX.identifier;

/**
 * Whether the pair's personal number says who the person is: `personalIdentifier` (the identifier field compared a
 * system of PersonalIdentifierSystems) and the numbers equal, or apart by a keying error that numbers handed out in
 * sequence never show (two adjacent digits swapped, a digit replaced three or more places from the end:
 * edit-levels.ts). Another single error (among the last two digits: a twin's next number) stays a near miss only.
 */
export function personalIdentifierAgrees(similarity: Float64Array, personalIdentifier: boolean): boolean {
  return personalIdentifier && (similarity[IDENTIFIER] ?? 0) >= KEYING_ERROR_SIMILARITY;
}

/**
 * Whether a given name or birth date says two people: compared on both sides and below Strong (another name, a date
 * beyond a keying error). A missing one (NaN) does not disagree.
 */
function tellsApart(similarity: Float64Array, field: number): boolean {
  return (similarity[field] ?? Number.NaN) < BAND_FLOORS.Strong;
}

/**
 * A personal number that agrees while the person's own details name two people: the given names and the birth dates
 * were both compared and both disagree (below Strong: another name, a date beyond a keying error), or one record's
 * given name is a newborn's placeholder ("Baby Girl") and the birth dates disagree; with a sex recorded on both
 * records, whatever it is. Such a number is one person's copied onto a relative's record far more often than one
 * person's record with two errors: a mother's on her newborn's, a parent's or subscriber's on a child's, a spouse's.
 * The pair goes to review, never an automatic link (scorer.ts scoreLimit, `SharedIdentifier`): the number alone
 * would have linked them, the family name and the household's address counting beside it. Only a trusted
 * identifier, which decides before any score, links such a pair.
 *
 * Without a sex on both records it does not hold, as the twin rule does not (possible-twin.ts): an extract
 * without it cannot tell a relative from a record whose given name was replaced and birth date corrupted, and FEBRL,
 * which has no sex field and no shared numbers, would send 20 of FEBRL 4's true pairs to review (auto-link F1 0.9963
 * -> 0.9943; 0.0023 of the calibrated model's). Measured with the sex (the quality suite, default profile): the
 * heavy-typo extracts, whose generator replaces given names and corrupts birth dates of one person, send 1 and 41
 * more true pairs to review (auto-link F1 0.9822 -> 0.9810 and 0.9790 -> 0.9767; with reviews unchanged). A father
 * and son of one name and number without a suffix are left to the model: holding every pair born 13 or more years
 * apart (with a sex on both) sent 28 and 286 more of those extracts' true pairs to review (0.9810 -> 0.9642, 0.9767
 * -> 0.9632), whose generator replaces birth dates wholesale; without the sex condition, holding every pair with
 * birth dates more than a year apart sent 200 of FEBRL 4's 5,000 true pairs to review (0.9963 -> 0.9765), and
 * holding a pair where either disagrees 641 (0.9281).
 */
export function sharedIdentifier(similarity: Float64Array, newbornName: boolean): boolean {
  if (Number.isNaN(similarity[SEX] ?? Number.NaN)) return false;
  return (newbornName || tellsApart(similarity, GIVEN_NAME)) && tellsApart(similarity, BIRTH_DATE);
}

/** The gate's values: every agreement counts, or the household fields' agreement does not. */
export const ALL_COUNTED = 0;
export const HOUSEHOLD_NOT_COUNTED = 1;
/** As HOUSEHOLD_NOT_COUNTED, except the identifier field, which compared a personal system. */
export const HOUSEHOLD_NOT_COUNTED_BUT_PERSONAL_IDENTIFIER = 2;
/** A flag beside either: the family name's agreement is not counted either (a twin's pattern without a sex). */
export const FAMILY_NOT_COUNTED = 4;

/**
 * Whether the pair's given names and birth dates (or, with no name part, their absence) leave the household fields'
 * agreement uncounted.
 * `personalIdentifier`: the identifier field compared a system of PersonalIdentifierSystems.
 */
export function householdGate(similarity: Float64Array, personalIdentifier = false): number {
  const givenDisagrees = tellsApart(similarity, GIVEN_NAME);
  if (!(givenDisagrees || tellsApart(similarity, BIRTH_DATE) || nothingPersonal(similarity))) return ALL_COUNTED;
  // A personal number that agrees says who the person is: the household's agreement then corroborates it.
  if (personalIdentifierAgrees(similarity, personalIdentifier)) return ALL_COUNTED;
  // Twins share a family name and a birth date and differ by given name. With the sex recorded on both sides the
  // twin hold (scorer.ts) sends such a pair to review; without it the family name is one more thing the household
  // shares, and counts for nothing either.
  const twinWithoutSex =
    givenDisagrees && (similarity[BIRTH_DATE] ?? 0) >= BAND_FLOORS.Exact && Number.isNaN(similarity[SEX] ?? Number.NaN);
  return (
    (personalIdentifier ? HOUSEHOLD_NOT_COUNTED_BUT_PERSONAL_IDENTIFIER : HOUSEHOLD_NOT_COUNTED) |
    (twinWithoutSex ? FAMILY_NOT_COUNTED : 0)
  );
}

/**
 * No given name and no birth date compared on both sides: nothing tells the person apart from the rest of the
 * household, so there is nothing for the household's agreement to corroborate (a record without them: an unidentified
 * patient, whose name and birth date are placeholders, normalised away; a feed that sends a family name and contact
 * details only). The family name is the household's too.
 */
export function nothingPersonal(similarity: Float64Array): boolean {
  return Number.isNaN(similarity[GIVEN_NAME] ?? Number.NaN) && Number.isNaN(similarity[BIRTH_DATE] ?? Number.NaN);
}

/** True when the gate leaves the field's agreement uncounted. */
export function notCounted(field: number, gate: number): boolean {
  if (gate === ALL_COUNTED) return false;
  if (field === FAMILY_NAME) return (gate & FAMILY_NOT_COUNTED) !== 0;
  if (HOUSEHOLD[field] !== 1) return false;
  return !(field === IDENTIFIER && (gate & ~FAMILY_NOT_COUNTED) === HOUSEHOLD_NOT_COUNTED_BUT_PERSONAL_IDENTIFIER);
}
