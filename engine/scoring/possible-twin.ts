/**
 * The twin rule: a pair that could be twins or household members of one age is held at Probable (scorer.ts scoreLimit,
 * `PossibleTwin`), and which of its cases held it (`twinReason`, said in words by contract/score-explanation.ts).
 */
import { BAND_FLOORS, FIELD_INDEX } from '../contract/fields.ts';
import type { TwinReason } from '../contract/matching.ts';

const FAMILY_NAME = FIELD_INDEX.familyName;
const GIVEN_NAME = FIELD_INDEX.givenName;
const BIRTH_DATE = FIELD_INDEX.birthDate;
const SEX = FIELD_INDEX.sex;

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
  /**
   * As initialGivenName, and no personal identifier agrees (the caller passes false then): with the given names
   * compared and not Exact, an initial beside a name (J and John), which is never linked by its score.
   */
  readonly initialBesideName?: boolean;
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
 *    middle name for a source's slip, and linked them at a score of 1. Also with birth dates a keying error apart
 *    (Strong), whatever the given names: one person's two records would need a date mistyped and another middle name;
 *    twins' records need only the typo. Danielle Inez and Darlene Lauren Schowalter, born 1968-02-09 and 1968-05-09,
 *    twins at one home and phone, were linked at a score of 1 in the scale bench's registry of a million. The quality
 *    sets and the bench's registries are unchanged (their generators never vary a person's middle names, so they show
 *    neither cost nor gain); on a copy of the scale bench's registry of 300,000 with 2% of middle names replaced by
 *    another name, holding every middle-name conflict whatever the address cost 1,364 review cases, an upper bound on
 *    this hold's, which takes a subset of them.
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
 *  - An initial alone beside a name (`initialBesideName`: J and John, which agree Strong at level `initial-of-name`,
 *    field-comparison.ts; or J and Mary), unless a personal identifier agrees: held whatever the family name, sex and
 *    birth date say. The initial agrees with every name of its letter, so "J Smith" could be John, James or Jane, and
 *    the Strong given name lets the household's address and phone count; with no sex recorded, or a birth date a
 *    keying error apart, "J Smith" at John Smith's home would otherwise be linked to him at a score of 1. Before the
 *    level, such a pair counted as two names and stayed apart, unseen by a reviewer, wherever the home differed.
 */
export function possibleTwin(similarity: Float64Array, hints: TwinHints = {}): boolean {
  return twinReason(similarity, hints) !== undefined;
}

/** Which case of the rule above holds the pair (the console and the CLI say it in words), or undefined when none. */
export function twinReason(similarity: Float64Array, hints: TwinHints = {}): TwinReason | undefined {
  const { twoGivenNamesAlike = false, newbornName = false, multipleBirth = false, birthDatesADayApart = false } = hints;
  const given = similarity[GIVEN_NAME] ?? Number.NaN;
  // Whatever the family name, sex and birth date say: the rule's last case above.
  if (hints.initialBesideName === true && given < BAND_FLOORS.Exact) return 'initial-alone';
  if ((similarity[FAMILY_NAME] ?? 0) < BAND_FLOORS.Strong) return undefined;
  // NaN (a birth date missing on one side) passes the tests below: it does not disagree.
  const birthDate = similarity[BIRTH_DATE] ?? 0;
  const datesAgree = !(birthDate < BAND_FLOORS.Strong);
  if (newbornName) return datesAgree ? 'newborn-placeholder' : undefined;
  const dated = !Number.isNaN(birthDate);
  const givenMissing = (Number.isNaN(given) || hints.initialGivenName === true) && dated;
  const middleNamesDisagree = hints.middleNamesDisagree === true && dated;
  const givenNotExact = given < BAND_FLOORS.Exact || givenMissing || middleNamesDisagree;
  if (multipleBirth && datesAgree && givenNotExact) return 'multiple-birth';
  const sex = similarity[SEX] ?? Number.NaN;
  if (Number.isNaN(sex)) return hints.givenNamesOfTwoSexes === true && datesAgree ? 'names-of-two-sexes' : undefined;
  // Twins of opposite sex are often given names a letter or two apart (Daniel and Danielle, Francis and Frances,
  // Jo and Joe), which agree Strong. A Strong given name with another recorded sex is such a pair far more often than
  // one person whose name was mistyped and whose sex was miscoded in the same record; with a birth date a keying error
  // apart as well, that one person would need three errors.
  if (sex < BAND_FLOORS.Exact) return datesAgree && givenNotExact ? 'another-sex' : undefined;
  const namesAlike = given < BAND_FLOORS.Exact && twoGivenNamesAlike;
  if (birthDate < BAND_FLOORS.Exact) {
    if (birthDatesADayApart && namesAlike) return 'names-alike';
    return middleNamesDisagree && datesAgree ? 'middle-names' : undefined;
  }
  if (givenMissing) return hints.initialGivenName === true ? 'initial-alone' : 'given-name-missing';
  if (given < BAND_FLOORS.Strong) return 'another-given-name';
  if (middleNamesDisagree) return 'middle-names';
  return namesAlike ? 'names-alike' : undefined;
}
