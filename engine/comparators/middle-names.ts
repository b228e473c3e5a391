/**
 * Middle names that name two people. The model does not weigh middle names (they are missing from most sources, and
 * a source that keeps one often keeps only its initial), but two records that both carry one, and carry two
 * different names there, are two people far more often than one: Edward Alejandro Berge and Edward Leonardo
 * Vonrueden, one birth date, were joined by a full given name and that date (docs/matching.md). The scorer holds
 * such a pair to review unless an address line, phone or personal identifier places the two records with one person
 * (scorer.ts middleNameConflict); this file says when the middle names disagree.
 *
 * They disagree when no middle name of one record can be a middle name of the other, taken one by one (Ann Marie and
 * Marie agree), where two names can be one when:
 *  - either is an initial (one letter): an initial says too little to tell two people apart, whatever its letter;
 *  - they are spelt alike: Jaro-Winkler in the Strong band or above (a typo or a spelling variant: Jon and John,
 *    Katherine and Catherine), or one keying error apart. Not by sound alone: Diana and Toni sound alike;
 *  - they are nicknames of one name in the profile's dictionaries (distinctNames: Bill and William with a
 *    dictionary that lists them).
 * A middle name written in the other record's given name (John Michael and Michael) is not a disagreement either:
 * people go by their middle name, and sources swap them.
 */
import { BAND_FLOORS } from '../contract/fields.ts';
import { jaroWinkler } from './jaro-winkler.ts';
import { distinctNames, type NameComparatorSet, type PreparedName } from './name-comparison.ts';

/** The parts of a prepared record the rule reads: its middle names (middleNameList) and given name. */
export interface MiddleNameParts {
  readonly middleNames: readonly string[] | null;
  readonly given: Pick<PreparedName, 'text'> | null;
}

/** Middle names compared per record: more than four is rare, and the pairs compared grow as the square. */
const MAX_MIDDLE_NAMES = 4;

/** A record's middle names as the rule reads them, split once when the record is prepared (at most four). */
export function middleNameList(middleNames: string | null): readonly string[] | null {
  return middleNames === null ? null : middleNames.split(' ', MAX_MIDDLE_NAMES);
}

const plain = (text: string): PreparedName => ({ text, phonetic: null, nickname: undefined });

function oneName(a: string, b: string, set: NameComparatorSet): boolean {
  if (a === b || a.length === 1 || b.length === 1) return true;
  return jaroWinkler(a, b) >= BAND_FLOORS.Strong || !distinctNames(plain(a), plain(b), set);
}

/** True when both records carry middle names and none of one record's can be one of the other's (module comment). */
export function middleNamesDisagree(a: MiddleNameParts, b: MiddleNameParts, set: NameComparatorSet): boolean {
  const left = a.middleNames;
  const right = b.middleNames;
  if (left === null || right === null) return false;
  if (a.given !== null && right.includes(a.given.text)) return false;
  if (b.given !== null && left.includes(b.given.text)) return false;
  for (const x of left) for (const y of right) if (oneName(x, y, set)) return false;
  return true;
}
