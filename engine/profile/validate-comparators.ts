/**
 * Comparator profile validator (spec "Comparator profile", rule 3, and "Versioning", rule 3): the
 * structural schema first, then the semantic rules the schema cannot express. Every message names
 * the offending path and value; these are configuration values, not patient data, so echoing them
 * is safe and lets an administrator find the mistake.
 *
 * The semantic rules read the raw input defensively rather than the parsed result, so one run
 * reports every problem even when the structure is also wrong somewhere else.
 */
import type { z } from 'zod';
import { COMPARATOR_NAMES, FIELD_LEVEL_COMPARATORS } from '../contract/fields.ts';
import { ComparatorProfileSchema } from '../contract/profile.ts';
import type { ErrorIssue } from '../contract/errors.ts';
import { dottedPath } from '../contract/zod-issues.ts';
import { nicknameKey } from '../comparators/nickname.ts';

export const MAX_NICKNAME_DICTIONARIES = 8;
/** Groups (canonical names) per dictionary. */
export const MAX_NICKNAME_ENTRIES = 5000;
export const MAX_ALIASES_PER_NAME = 50;

const CULTURE_TAG = /^[a-z]{2,3}-[A-Z]{2}$/;
const COMPARATOR_LISTS = ['FamilyName', 'GivenNames'] as const;
const FLOOR_KEYS: readonly PropertyKey[] = ['PhoneticMatchFloor', 'NicknameMatchFloor'];
const MAX_ECHO = 120;

type Issues = ErrorIssue[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function quote(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // Circular structures and bigints cannot be echoed; the path still locates the problem.
    text = undefined;
  }
  if (text === undefined) return `a ${typeof value}`;
  return text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}…` : text;
}

function isBlank(text: string): boolean {
  return text.trim() === '';
}

/** Names are grouped as the nickname index looks them up: normalised like patient names. */
function nameKey(text: string): string {
  return nicknameKey(text);
}

const EMPTY_AFTER_NORMALISATION =
  'but nothing is left once normalised like a patient name (case, accents, punctuation and titles are dropped)';

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const part of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

function structuralIssue(issue: z.core.$ZodIssue, root: unknown, basePath: string): ErrorIssue {
  const path = dottedPath(basePath, issue.path);
  const value = valueAt(root, issue.path);
  const got = `(got ${quote(value)})`;
  switch (issue.code) {
    case 'invalid_type': {
      // Entries are read as a map of names; to the author of the document it is an object.
      const expected = issue.expected === 'map' ? 'object' : issue.expected;
      return {
        path,
        message:
          value === undefined
            ? `${path} is required (expected ${expected})`
            : `${path} has the wrong type: expected ${expected} ${got}`,
      };
    }
    case 'unrecognized_keys':
      return { path, message: `${path} has unknown key(s) ${issue.keys.map((key) => quote(key)).join(', ')}` };
    case 'too_small':
    case 'too_big': {
      const last = issue.path[issue.path.length - 1];
      if (last !== undefined && FLOOR_KEYS.includes(last)) {
        return { path, message: `${path} must be between 0 and 1 ${got}` };
      }
      return { path, message: `${path}: ${issue.message} ${got}` };
    }
    default:
      return { path, message: `${path}: ${issue.message} ${got}` };
  }
}

interface NameOwner {
  readonly group: number;
  readonly path: string;
}

class ProfileChecker {
  readonly issues: Issues = [];
  private readonly base: string;
  private readonly profile: Record<string, unknown>;

  constructor(profile: Record<string, unknown>, base: string) {
    this.profile = profile;
    this.base = base;
  }

  private path(...parts: PropertyKey[]): string {
    return dottedPath(this.base, parts);
  }

  private add(path: string, message: string): void {
    this.issues.push({ path, message: `${path} ${message}` });
  }

  run(): Issues {
    const version = this.profile.Version;
    if (typeof version === 'string' && isBlank(version)) {
      this.add(this.path('Version'), `must not be empty (got ${quote(version)})`);
    }
    const nicknamePaths: string[] = [];
    for (const list of COMPARATOR_LISTS) nicknamePaths.push(...this.checkComparatorList(list));

    const dictionaries = this.profile.NicknameDictionaries;
    if (!Array.isArray(dictionaries)) return this.issues;
    if (dictionaries.length === 0) {
      for (const path of nicknamePaths) {
        this.add(
          path,
          `is ${quote('Nickname')}, which needs at least one nickname dictionary, but ${this.path('NicknameDictionaries')} is empty`,
        );
      }
    }
    if (dictionaries.length > MAX_NICKNAME_DICTIONARIES) {
      this.add(
        this.path('NicknameDictionaries'),
        `may hold at most ${MAX_NICKNAME_DICTIONARIES} dictionaries (got ${dictionaries.length})`,
      );
    }
    this.checkDictionaries(dictionaries, typeof version === 'string' ? version : undefined);
    return this.issues;
  }

  /** Returns the paths where Nickname is listed. */
  private checkComparatorList(list: (typeof COMPARATOR_LISTS)[number]): string[] {
    const names = this.profile[list];
    if (!Array.isArray(names)) return [];
    if (names.length === 0) {
      this.add(this.path(list), `must list at least one comparator (got [])`);
      return [];
    }
    const nicknamePaths: string[] = [];
    const firstSeen = new Map<string, string>();
    names.forEach((name: unknown, i) => {
      if (typeof name !== 'string') return;
      const path = this.path(list, i);
      if (!(COMPARATOR_NAMES as readonly string[]).includes(name)) {
        this.add(
          path,
          `is an unknown comparator ${quote(name)}; supported comparators are ${COMPARATOR_NAMES.join(', ')}`,
        );
        return;
      }
      if ((FIELD_LEVEL_COMPARATORS as readonly string[]).includes(name)) {
        this.add(
          path,
          `${quote(name)} compares birth dates or codes in levels, not names; name comparators are ${COMPARATOR_NAMES.filter((c) => !FIELD_LEVEL_COMPARATORS.includes(c)).join(', ')}`,
        );
        return;
      }
      const earlier = firstSeen.get(name);
      if (earlier !== undefined) {
        this.add(path, `repeats comparator ${quote(name)}, already listed at ${earlier}`);
        return;
      }
      firstSeen.set(name, path);
      if (name === 'Nickname') nicknamePaths.push(path);
    });
    return nicknamePaths;
  }

  private checkDictionaries(dictionaries: readonly unknown[], profileVersion: string | undefined): void {
    const versions = new Map<string, string>();
    const owners = new Map<string, NameOwner>();
    let group = 0;
    dictionaries.forEach((dictionary, d) => {
      if (!isRecord(dictionary)) return;
      const { Version: version, Culture: culture, Entries: entries } = dictionary;

      if (typeof version === 'string') {
        const path = this.path('NicknameDictionaries', d, 'Version');
        if (isBlank(version)) {
          this.add(path, `must not be empty (got ${quote(version)})`);
        } else {
          const key = version.trim();
          const earlier = versions.get(key);
          if (earlier !== undefined) {
            this.add(path, `repeats dictionary version ${quote(version)}, already used at ${earlier}`);
          } else {
            versions.set(key, path);
          }
          if (profileVersion !== undefined && key === profileVersion.trim()) {
            this.add(path, `repeats the comparator version ${quote(version)} of ${this.path('Version')}`);
          }
        }
      }

      if (typeof culture === 'string') {
        const path = this.path('NicknameDictionaries', d, 'Culture');
        if (isBlank(culture)) {
          this.add(path, `must not be empty (got ${quote(culture)})`);
        } else if (!CULTURE_TAG.test(culture)) {
          this.add(path, `must be a language-region tag such as "en-US" or "fr-CA" (got ${quote(culture)})`);
        }
      }

      if (!isRecord(entries)) return;
      const canonicalNames = Object.keys(entries);
      if (canonicalNames.length === 0) {
        this.add(this.path('NicknameDictionaries', d, 'Entries'), 'must hold at least one canonical name (got {})');
      }
      if (canonicalNames.length > MAX_NICKNAME_ENTRIES) {
        this.add(
          this.path('NicknameDictionaries', d, 'Entries'),
          `may hold at most ${MAX_NICKNAME_ENTRIES} canonical names (got ${canonicalNames.length})`,
        );
      }
      for (const canonical of canonicalNames) {
        this.checkGroup(d, canonical, Object.getOwnPropertyDescriptor(entries, canonical)?.value, group++, owners);
      }
    });
  }

  private checkGroup(
    d: number,
    canonical: string,
    aliases: unknown,
    group: number,
    owners: Map<string, NameOwner>,
  ): void {
    const canonicalPath = this.path('NicknameDictionaries', d, 'Entries', canonical);
    // Within one group: the first path each name key appeared at.
    const inGroup = new Map<string, string>();
    if (isBlank(canonical)) {
      this.add(canonicalPath, `is an empty canonical name (got ${quote(canonical)})`);
    } else if (nameKey(canonical) === '') {
      this.add(canonicalPath, `is canonical name ${quote(canonical)} ${EMPTY_AFTER_NORMALISATION}`);
    } else {
      this.claim(canonical, canonicalPath, 'canonical name', group, owners);
      inGroup.set(nameKey(canonical), canonicalPath);
    }

    if (!Array.isArray(aliases)) return;
    if (aliases.length === 0) {
      this.add(canonicalPath, `has no aliases; canonical name ${quote(canonical)} needs at least one (got [])`);
      return;
    }
    if (aliases.length > MAX_ALIASES_PER_NAME) {
      this.add(
        canonicalPath,
        `may have at most ${MAX_ALIASES_PER_NAME} aliases; canonical name ${quote(canonical)} has ${aliases.length}`,
      );
    }
    aliases.forEach((alias: unknown, a) => {
      if (typeof alias !== 'string') return;
      const path = this.path('NicknameDictionaries', d, 'Entries', canonical, a);
      if (isBlank(alias)) {
        this.add(path, `is an empty alias (got ${quote(alias)})`);
        return;
      }
      const key = nameKey(alias);
      if (key === '') {
        this.add(path, `is alias ${quote(alias)} ${EMPTY_AFTER_NORMALISATION}`);
        return;
      }
      const earlier = inGroup.get(key);
      if (earlier !== undefined) {
        this.add(path, `repeats alias ${quote(alias)} within its own group, already at ${earlier}`);
        return;
      }
      inGroup.set(key, path);
      this.claim(alias, path, 'alias', group, owners);
    });
  }

  /** A name may belong to one group only, across every dictionary of the profile. */
  private claim(name: string, path: string, role: string, group: number, owners: Map<string, NameOwner>): void {
    const key = nameKey(name);
    const owner = owners.get(key);
    if (owner === undefined) {
      owners.set(key, { group, path });
      return;
    }
    if (owner.group !== group) {
      this.add(
        path,
        `assigns ${role} ${quote(name)} to a second nickname group; it already belongs to the group at ${owner.path}`,
      );
    }
  }
}

export function comparatorProfileIssues(profile: unknown, basePath = 'Comparators'): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  const parsed = ComparatorProfileSchema.safeParse(profile);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) issues.push(structuralIssue(issue, profile, basePath));
  }
  if (isRecord(profile)) issues.push(...new ProfileChecker(profile, basePath).run());
  return issues;
}
