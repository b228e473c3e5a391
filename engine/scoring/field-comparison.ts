/**
 * Compares two prepared records field by field into a reusable scratch area, so scoring a candidate pair
 * allocates (almost) nothing; evidence objects are built only for the pairs that are reported.
 *
 * Field comparators: names follow the comparator profile (all configured comparators, highest similarity
 * wins); the other fields use one fixed comparator each, chosen for the kind of error the field carries:
 *   birthDate   NormalisedDamerauLevenshtein over YYYYMMDD (digit typos and transpositions)
 *   sex, state  Exact
 *   addressLine DiceCoefficient (word order and abbreviations)
 *   city        JaroWinkler
 *   postalCode, phone NormalisedDamerauLevenshtein
 *   email       Exact (addresses are copied, not typed from speech; a near miss is another mailbox)
 *   identifier  NormalisedDamerauLevenshtein, best over the non-trusted systems both records carry
 * A family name is also compared with the other side's previous family names (married-name changes), and
 * when the names do not agree as given, given and family names are also compared crossed: a swap (a
 * family name keyed as the given name and the reverse) counts when the crossed initials agree, both crossed
 * comparisons are at least Strong and together they beat the straight ones.
 */
import { FIELD_NAMES, type ComparatorName } from '../contract/fields.ts';
import { compareNames, type NameComparison, type PreparedName, type NameComparatorSet } from '../comparators/name-comparison.ts';
import { jaroWinkler } from '../comparators/jaro-winkler.ts';
import { normalisedDamerauLevenshtein } from '../comparators/damerau-levenshtein.ts';
import { diceCoefficient } from '../comparators/dice-coefficient.ts';
import { identifierValue, type NameSets, type PreparedRecord } from './prepared-record.ts';

export const FIELD_COUNT = FIELD_NAMES.length;
/** NaN similarity means missing on at least one side (neutral). */
export interface FieldScratch {
  readonly similarity: Float64Array;
  readonly comparator: (ComparatorName | null)[];
  readonly culture: (string | undefined)[];
  readonly dictionaryVersion: (string | undefined)[];
}

export function newScratch(): FieldScratch {
  return {
    similarity: new Float64Array(FIELD_COUNT),
    comparator: new Array<ComparatorName | null>(FIELD_COUNT).fill(null),
    culture: new Array<string | undefined>(FIELD_COUNT).fill(undefined),
    dictionaryVersion: new Array<string | undefined>(FIELD_COUNT).fill(undefined),
  };
}

function setName(out: FieldScratch, index: number, result: NameComparison | null): void {
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

function setPlain(out: FieldScratch, index: number, a: string | null, b: string | null, comparator: ComparatorName, fn: (x: string, y: string) => number): void {
  out.culture[index] = undefined;
  out.dictionaryVersion[index] = undefined;
  if (a === null || b === null) {
    out.similarity[index] = Number.NaN;
    out.comparator[index] = null;
    return;
  }
  out.similarity[index] = a === b ? 1 : fn(a, b);
  out.comparator[index] = comparator;
}

const exactFn = (): number => 0;

function better(best: NameComparison | null, x: PreparedName | null, y: PreparedName | null, set: NameComparatorSet): NameComparison | null {
  if (x === null || y === null) return best;
  const result = compareNames(x, y, set);
  return best === null || result.similarity > best.similarity ? result : best;
}

function bestFamily(a: PreparedRecord, b: PreparedRecord, set: NameComparatorSet): NameComparison | null {
  let best = better(null, a.family, b.family, set);
  if (best !== null && best.similarity >= 1) return best;
  for (const previous of b.previousFamilies) best = better(best, a.family, previous, set);
  for (const previous of a.previousFamilies) best = better(best, previous, b.family, set);
  return best;
}

function bestIdentifier(a: PreparedRecord, b: PreparedRecord): number {
  let best = Number.NaN;
  for (const [system, value] of a.otherIdentifiers) {
    const other = identifierValue(b.otherIdentifiers, system);
    if (other === undefined) continue;
    const similarity = value === other ? 1 : normalisedDamerauLevenshtein(value, other);
    if (!(similarity <= best)) best = similarity;
  }
  return best;
}

const SWAP_FLOOR = 0.85;

function compareNameParts(a: PreparedRecord, b: PreparedRecord, sets: NameSets, out: FieldScratch): void {
  const family = bestFamily(a, b, sets.family);
  const given = a.given === null || b.given === null ? null : compareNames(a.given, b.given, sets.given);
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
      setName(out, 0, familyCrossed);
      setName(out, 1, givenCrossed);
      return;
    }
  }
  setName(out, 0, family);
  setName(out, 1, given);
}

export function compareFields(a: PreparedRecord, b: PreparedRecord, sets: NameSets, out: FieldScratch): void {
  // The capped view (prepared-record.ts): what bounds the work of one comparison.
  const fa = a.compared;
  const fb = b.compared;
  compareNameParts(a, b, sets, out);
  setPlain(out, 2, a.birthDigits, b.birthDigits, 'NormalisedDamerauLevenshtein', normalisedDamerauLevenshtein);
  setPlain(out, 3, fa.sex, fb.sex, 'Exact', exactFn);
  setPlain(out, 4, fa.addressLine, fb.addressLine, 'DiceCoefficient', diceCoefficient);
  setPlain(out, 5, fa.city, fb.city, 'JaroWinkler', jaroWinkler);
  setPlain(out, 6, fa.state, fb.state, 'Exact', exactFn);
  setPlain(out, 7, fa.postalCode, fb.postalCode, 'NormalisedDamerauLevenshtein', normalisedDamerauLevenshtein);
  setPlain(out, 8, fa.phone, fb.phone, 'NormalisedDamerauLevenshtein', normalisedDamerauLevenshtein);
  setPlain(out, 9, fa.email, fb.email, 'Exact', exactFn);
  const identifier = bestIdentifier(a, b);
  out.similarity[10] = identifier;
  out.comparator[10] = Number.isNaN(identifier) ? null : 'NormalisedDamerauLevenshtein';
  out.culture[10] = undefined;
  out.dictionaryVersion[10] = undefined;
}
