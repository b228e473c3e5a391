/**
 * Evaluation of a comparator profile on one name field (spec "Comparator profile", rule 1: all
 * configured comparators are evaluated and the one giving the highest similarity is recorded in the
 * field evidence; nickname evidence also records culture and dictionary version).
 *
 * This runs for every candidate pair, so the per-profile work (nickname index) and the per-name work
 * (phonetic codes, nickname group) are done once, outside the pairwise comparison.
 */
import { COMPARATOR_NAMES } from '../contract/fields.ts';
import type { ComparatorName } from '../contract/fields.ts';
import type { ComparatorProfile } from '../contract/profile.ts';
import { validationError } from '../contract/errors.ts';
import { exact } from './exact.ts';
import { jaroWinkler } from './jaro-winkler.ts';
import { damerauLevenshteinWithin, normalisedDamerauLevenshtein } from './damerau-levenshtein.ts';
import { diceCoefficient } from './dice-coefficient.ts';
import { birthDateSimilarity } from './birth-date-levels.ts';
import { editLevelSimilarity } from './edit-levels.ts';
import { phoneticCodes, phoneticCodesAgree, phoneticSimilarity } from './phonetic.ts';
import { buildNicknameIndex, nicknameGroup, nicknameSimilarity } from './nickname.ts';
import type { NicknameIndex, NicknameMembership } from './nickname.ts';

export interface PreparedName {
  readonly text: string;
  readonly phonetic: readonly [string, string] | null;
  readonly nickname: NicknameMembership | undefined;
}

export interface NameComparatorSet {
  /** In profile order; never empty. */
  readonly comparators: readonly ComparatorName[];
  readonly phoneticFloor: number;
  readonly nicknameFloor: number;
  readonly nicknames: NicknameIndex;
  readonly usesPhonetic: boolean;
  readonly usesNickname: boolean;
  /** The result for two identical names, shared so the commonest comparison allocates nothing. */
  readonly identical: NameComparison;
}

export interface NameComparison {
  readonly similarity: number;
  readonly comparator: ComparatorName;
  /**
   * How the names agree when no comparator says it alone (field-comparison.ts): `compound-name-part` (bestFamily),
   * `middle-name-as-given` (bestGiven); absent for a comparator's own result.
   */
  readonly level?: string;
  readonly culture?: string;
  readonly dictionaryVersion?: string;
}

// Profiles are immutable once loaded, so identity is a safe cache key, and a WeakMap lets an
// index go when its profile version is dropped.
const nicknameIndexes = new WeakMap<ComparatorProfile, NicknameIndex>();

function nicknameIndexFor(profile: ComparatorProfile): NicknameIndex {
  let index = nicknameIndexes.get(profile);
  if (index === undefined) {
    index = buildNicknameIndex(profile.NicknameDictionaries);
    nicknameIndexes.set(profile, index);
  }
  return index;
}

export function buildNameComparatorSet(
  comparators: readonly ComparatorName[],
  profile: ComparatorProfile,
): NameComparatorSet {
  if (comparators.length === 0) throw validationError('a name field needs at least one comparator');
  for (const name of comparators) {
    // Callers may pass profile strings cast to ComparatorName; an unknown one must not silently score 0.
    if (!(COMPARATOR_NAMES as readonly string[]).includes(name)) {
      throw validationError(`unknown comparator ${JSON.stringify(name)}`);
    }
  }
  return {
    comparators: [...comparators],
    phoneticFloor: profile.PhoneticMatchFloor,
    nicknameFloor: profile.NicknameMatchFloor,
    nicknames: nicknameIndexFor(profile),
    usesPhonetic: comparators.includes('Phonetic'),
    usesNickname: comparators.includes('Nickname'),
    identical: Object.freeze({ similarity: 1, comparator: comparators[0] as ComparatorName }),
  };
}

export function prepareName(text: string, set: NameComparatorSet): PreparedName {
  return {
    text,
    phonetic: set.usesPhonetic ? phoneticCodes(text) : null,
    nickname: set.usesNickname ? nicknameGroup(set.nicknames, text) : undefined,
  };
}

function firstComparator(set: NameComparatorSet): ComparatorName {
  const first = set.comparators[0];
  if (first === undefined) throw validationError('a name field needs at least one comparator');
  return first;
}

export function compareNames(a: PreparedName, b: PreparedName, set: NameComparatorSet): NameComparison {
  if (a.text === b.text) return set.identical;
  const first = firstComparator(set);

  let bestSimilarity = -1;
  let bestComparator: ComparatorName = first;
  let nickname: NicknameMembership | undefined;
  for (const comparator of set.comparators) {
    let similarity: number;
    switch (comparator) {
      case 'Exact':
        similarity = exact(a.text, b.text);
        break;
      case 'JaroWinkler':
        similarity = jaroWinkler(a.text, b.text);
        break;
      case 'NormalisedDamerauLevenshtein':
        similarity = normalisedDamerauLevenshtein(a.text, b.text);
        break;
      case 'DiceCoefficient':
        similarity = diceCoefficient(a.text, b.text);
        break;
      case 'Phonetic': {
        // A name prepared for a set without Phonetic has no codes yet; compute rather than score 0.
        const left = a.phonetic ?? phoneticCodes(a.text);
        const right = b.phonetic ?? phoneticCodes(b.text);
        similarity = phoneticCodesAgree(left, right) ? set.phoneticFloor : 0;
        break;
      }
      case 'Nickname':
        similarity = a.nickname !== undefined && a.nickname.group === b.nickname?.group ? set.nicknameFloor : 0;
        break;
      // Refused for names by the validator; kept total so a switch over every comparator stays exhaustive.
      case 'BirthDateLevels':
        similarity = birthDateSimilarity(dateDigits(a.text), dateDigits(b.text));
        break;
      case 'EditDistanceLevels':
        similarity = editLevelSimilarity(a.text, b.text);
        break;
    }
    // Strictly greater: on a tie the comparator listed first in the profile is recorded.
    if (similarity > bestSimilarity) {
      bestSimilarity = similarity;
      bestComparator = comparator;
      nickname = comparator === 'Nickname' ? a.nickname : undefined;
      if (similarity >= 1) break;
    }
  }

  if (nickname !== undefined) {
    return {
      similarity: bestSimilarity,
      comparator: bestComparator,
      culture: nickname.culture,
      dictionaryVersion: nickname.dictionaryVersion,
    };
  }
  return { similarity: bestSimilarity, comparator: bestComparator };
}

/**
 * Whether two names that compare alike are still two names: more than one keying error apart (Damerau-Levenshtein)
 * and not nicknames of one name in the profile's dictionaries (anais and janis, john and joannie are two names; andre
 * and andrw, and bob and robert with a dictionary that lists them, are one). A clerk's slip is one keying error.
 */
export function distinctNames(a: PreparedName, b: PreparedName, set: NameComparatorSet): boolean {
  if (damerauLevenshteinWithin(a.text, b.text, 1) <= 1) return false;
  return !nicknamesOfOneName(a, b, set);
}

/** Whether the profile's nickname dictionaries list both names in one group (bob and robert, bill and will). */
export function nicknamesOfOneName(a: PreparedName, b: PreparedName, set: NameComparatorSet): boolean {
  // Prepared only where the profile lists the Nickname comparator; the dictionaries hold either way.
  const left = a.nickname ?? nicknameGroup(set.nicknames, a.text);
  return left !== undefined && left.group === (b.nickname ?? nicknameGroup(set.nicknames, b.text))?.group;
}

/** A date as its digits (`1980-01-02`, `1980 01 02` → `19800102`). */
function dateDigits(text: string): string {
  return text.replace(/\D/g, '');
}

/** One comparator on two raw values, with the profile's floors and dictionaries (CLI `compare`). */
export function compareWithComparator(
  name: ComparatorName,
  a: string,
  b: string,
  profile: ComparatorProfile,
): NameComparison {
  switch (name) {
    case 'Exact':
      return { similarity: exact(a, b), comparator: name };
    case 'JaroWinkler':
      return { similarity: jaroWinkler(a, b), comparator: name };
    case 'NormalisedDamerauLevenshtein':
      return { similarity: normalisedDamerauLevenshtein(a, b), comparator: name };
    case 'DiceCoefficient':
      return { similarity: diceCoefficient(a, b), comparator: name };
    case 'Phonetic':
      return { similarity: phoneticSimilarity(a, b, profile.PhoneticMatchFloor), comparator: name };
    case 'BirthDateLevels':
      return { similarity: birthDateSimilarity(dateDigits(a), dateDigits(b)), comparator: name };
    case 'EditDistanceLevels':
      return { similarity: editLevelSimilarity(a, b), comparator: name };
    case 'Nickname': {
      const result = nicknameSimilarity(a, b, nicknameIndexFor(profile), profile.NicknameMatchFloor);
      if (result.culture !== undefined && result.dictionaryVersion !== undefined) {
        return {
          similarity: result.similarity,
          comparator: name,
          culture: result.culture,
          dictionaryVersion: result.dictionaryVersion,
        };
      }
      return { similarity: result.similarity, comparator: name };
    }
  }
}
