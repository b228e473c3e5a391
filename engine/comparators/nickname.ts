/**
 * Nickname comparator (spec "Comparator profile": nickname dictionaries, NicknameMatchFloor). Each
 * dictionary entry, a canonical given name with its aliases, forms one equivalence group; two
 * different names in the same group score the floor, and the evidence names the dictionary's culture
 * and version so a decision can be traced to the exact list that made it.
 */
import type { NicknameDictionary } from '../contract/profile.ts';
import { normaliseFamilyName } from '../normalise/name.ts';

export interface NicknameMembership {
  /** Group number, unique within one index. */
  readonly group: number;
  readonly culture: string;
  readonly dictionaryVersion: string;
}

export interface NicknameIndex {
  readonly members: ReadonlyMap<string, NicknameMembership>;
}

export interface NicknameSimilarity {
  readonly similarity: number;
  readonly culture?: string;
  readonly dictionaryVersion?: string;
}

/**
 * A name as a patient name is normalised (engine/normalise: case, diacritics, apostrophes, punctuation,
 * honorifics), so a dictionary's `José` meets a record's `JOSE`; '' when nothing is left. The validator
 * groups names with the same function, so it refuses `José` and `Jose` in two groups.
 */
export function nicknameKey(name: string): string {
  return normaliseFamilyName(name) ?? '';
}

export function buildNicknameIndex(dictionaries: readonly NicknameDictionary[]): NicknameIndex {
  const members = new Map<string, NicknameMembership>();
  let group = 0;
  for (const dictionary of dictionaries) {
    for (const [canonical, aliases] of Object.entries(dictionary.Entries)) {
      const membership: NicknameMembership = {
        group: group++,
        culture: dictionary.Culture,
        dictionaryVersion: dictionary.Version,
      };
      for (const name of [canonical, ...aliases]) {
        const key = nicknameKey(name);
        // The validator rejects a name in two groups; should one slip through, the first group wins
        // so the answer never depends on anything but dictionary order.
        if (key !== '' && !members.has(key)) members.set(key, membership);
      }
    }
  }
  return { members };
}

export function nicknameGroup(index: NicknameIndex, name: string): NicknameMembership | undefined {
  return index.members.get(nicknameKey(name));
}

export function nicknameSimilarity(a: string, b: string, index: NicknameIndex, floor: number): NicknameSimilarity {
  if (a === b || (nicknameKey(a) === nicknameKey(b) && nicknameKey(a) !== '')) return { similarity: 1 };
  const left = nicknameGroup(index, a);
  if (left === undefined) return { similarity: 0 };
  const right = nicknameGroup(index, b);
  if (right?.group !== left.group) return { similarity: 0 };
  return { similarity: floor, culture: left.culture, dictionaryVersion: left.dictionaryVersion };
}
