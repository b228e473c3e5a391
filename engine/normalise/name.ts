import type { R4HumanName } from '../fhir/patient.ts';
import { normaliseText } from './text.ts';

/**
 * Name normalisation and selection.
 *
 * Honorifics: sources often type titles and generational suffixes into `family` or `given` instead of
 * `prefix`/`suffix`. Whole tokens from HONORIFICS are removed from either end of a name (never from the
 * middle, and never part of a word): mr, mrs, ms, miss, mx, dr, prof, jr, sr, ii, iii. The list stays
 * short on purpose: every entry must be something that is never a real name part.
 */
export const HONORIFICS: ReadonlySet<string> = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'jr',
  'sr',
  'ii',
  'iii',
]);

/**
 * Placeholder names: what registration staff type for a patient whose name is not known ("Unknown", "Unknown
 * Patient", "Anonymous"). A name made only of these says nothing about who the person is, and every unidentified
 * patient carries it, so it is missing for matching: the scorer then holds any pair without name evidence back from
 * Certain, and a registry's unidentified patients are never linked together on it. Only words that are never a real
 * name: not "Doe" (a family name; the whole alias "John Doe" is PLACEHOLDER_FULL_NAMES), not "Baby" (a newborn's
 * "Baby Boy Smith" is compared as no given name and held for review: newborn-name.ts).
 */
export const PLACEHOLDER_NAMES: ReadonlySet<string> = new Set([
  'unknown',
  'unk',
  'unkn',
  'noname',
  'anonymous',
  'unidentified',
  'patient',
]);

/**
 * Aliases for an unidentified patient, whole names never given to one: "John Doe", "Jane Doe", "Baby Doe", "Richard
 * Roe", "Jane Roe" (as given name and family name, without middle names). Either part alone can be a person's (Doe
 * and Roe are family names), so only the whole name is a placeholder, and then both parts are missing for matching:
 * two unidentified patients registered as John Doe at the hospital's address were linked automatically on it.
 */
export const PLACEHOLDER_FULL_NAMES: ReadonlySet<string> = new Set([
  'john doe',
  'jane doe',
  'baby doe',
  'johnny doe',
  'janie doe',
  'richard roe',
  'jane roe',
]);

/**
 * Words registration staff put beside a placeholder for an unidentified patient: the sex ("Unknown Male",
 * "Unidentified, Female", "Unknown M") and a running number ("Unknown Male 12"). Alone they can be an initial or part of
 * a real name, so they count only in a name whose other words are all placeholders.
 */
const BESIDE_PLACEHOLDER: ReadonlySet<string> = new Set(['male', 'female', 'm', 'f']);
const NUMBER = /^\d+$/;

/**
 * True when a name's words (nameWords, either part) are an unidentified patient's: placeholder words with a sex or a
 * number beside them. "Unknown, Male" kept "male" as the given name, and two unidentified men at the hospital's
 * address were linked at 0.996 on it.
 */
function isPlaceholderWithDesignators(words: readonly string[]): boolean {
  let placeholder = false;
  for (const token of words) {
    if (PLACEHOLDER_NAMES.has(token)) placeholder = true;
    else if (!BESIDE_PLACEHOLDER.has(token) && !NUMBER.test(token)) return false;
  }
  return placeholder;
}

/**
 * Words that make a whole name an emergency department's trauma alias. A patient brought in unable to give a name is
 * registered under one ("Trauma, Alpha", "ZZTrauma Bravo 12", "Trauma 0412"), and a department's list of aliases comes
 * round again from patient to patient. The rest of such a name is the alias's (a word from the list, a running
 * number), never the person's, and the birth date beside it is often the day of arrival: two patients under one alias
 * that day agree on every name part and the birth date, and were linked at a score of 1. With one of these words
 * anywhere in the family or given names, both parts are missing for matching, as John Doe's are. Not a name anyone
 * bears. A mass-casualty incident's aliases work the same way, many at once ("Disaster 001", "MCI, Alpha",
 * "ZZ-MCI Bravo"): a hospital's disaster plan names its unidentified arrivals from a list or a running number.
 * "MCI" counts only written as one word: "M.C.I." is a person's initials, and normalises to three words.
 */
const TRAUMA_ALIAS_WORDS: ReadonlySet<string> = new Set([
  'trauma',
  'zztrauma',
  'zzztrauma',
  'traumaalias',
  'disaster',
  'zzdisaster',
  'mci',
  'zzmci',
  'masscasualty',
]);

/** The words of the family name and of the given names, each part without its honorifics. */
function nameWords(name: R4HumanName): string[] {
  return [
    ...stripHonorifics(tokensOf(name.family ?? '')),
    ...stripHonorifics((name.given ?? []).flatMap((part) => tokensOf(part))),
  ];
}

const isTraumaAlias = (words: readonly string[]): boolean => words.some((word) => TRAUMA_ALIAS_WORDS.has(word));

/** An alias whose every part is missing for matching: placeholder words with designators, or a trauma alias. */
function isWholeNameAlias(name: R4HumanName): boolean {
  const words = nameWords(name);
  return isTraumaAlias(words) || isPlaceholderWithDesignators(words);
}

/** True when the normalised given name and family name (no middle names) are an unidentified patient's alias. */
export function isPlaceholderFullName(given: GivenNames, familyName: string | null): boolean {
  return (
    given.givenName !== null &&
    given.middleNames === null &&
    familyName !== null &&
    PLACEHOLDER_FULL_NAMES.has(`${given.givenName} ${familyName}`)
  );
}

/** A name (family, or given names) made only of placeholder words. */
export function isPlaceholderName(tokens: readonly string[]): boolean {
  return tokens.length > 0 && tokens.every((token) => PLACEHOLDER_NAMES.has(token));
}

function stripHonorifics(tokens: string[]): string[] {
  let start = 0;
  let end = tokens.length;
  while (start < end && HONORIFICS.has(tokens[start] ?? '')) start++;
  while (end > start && HONORIFICS.has(tokens[end - 1] ?? '')) end--;
  return start === 0 && end === tokens.length ? tokens : tokens.slice(start, end);
}

function tokensOf(s: string): string[] {
  const text = normaliseText(s);
  return text === null ? [] : text.split(' ');
}

/**
 * The parts (`family`, `given`) that are placeholders in the names a record could be matched on (all but old, maiden
 * and nickname names): matching takes them as missing, and the ingest report (record-preparer.ts) warns of each,
 * naming the part, never the value.
 */
export function placeholderParts(names: readonly R4HumanName[] | undefined): ('family' | 'given')[] {
  const parts = new Set<'family' | 'given'>();
  for (const name of names ?? []) {
    if (name.use !== undefined && NOT_CURRENT.has(name.use)) continue;
    if (name.family !== undefined && isPlaceholderName(stripHonorifics(tokensOf(name.family)))) parts.add('family');
    if (isPlaceholderName(stripHonorifics((name.given ?? []).flatMap((part) => tokensOf(part))))) parts.add('given');
    if (isPlaceholderFullName(normaliseGivenNames(name.given), normaliseFamilyName(name.family))) {
      parts.add('family');
      parts.add('given');
    }
    if (isWholeNameAlias(name)) {
      if (tokensOf(name.family ?? '').length > 0) parts.add('family');
      if ((name.given ?? []).some((part) => tokensOf(part).length > 0)) parts.add('given');
    }
  }
  return (['family', 'given'] as const).filter((part) => parts.has(part));
}

/**
 * Generational suffixes: which of a family's people of one name a record is. From the name's `suffix` (read leniently:
 * R4 allows it, and a malformed one is ignored rather than refused) or typed at the end of the family or given names,
 * where HONORIFICS strips it from the name itself.
 */
const GENERATIONS: ReadonlyMap<string, string> = new Map([
  ['jr', 'jr'],
  ['junior', 'jr'],
  ['sr', 'sr'],
  ['senior', 'sr'],
  ['ii', 'ii'],
  ['2nd', 'ii'],
  ['iii', 'iii'],
  ['3rd', 'iii'],
  ['iv', 'iv'],
  ['4th', 'iv'],
]);
/** In the name parts only the words HONORIFICS strips count: "Junior" can be a given name. */
const GENERATIONS_IN_NAMES: ReadonlySet<string> = new Set(['jr', 'sr', 'ii', 'iii']);

/** The name's generational suffix (jr, sr, ii, iii, iv), or null. */
export function generationOf(name: R4HumanName | undefined): string | null {
  if (name === undefined) return null;
  const suffix: unknown = (name as { readonly suffix?: unknown }).suffix;
  if (Array.isArray(suffix))
    for (const part of suffix)
      if (typeof part === 'string')
        for (const token of tokensOf(part)) {
          const generation = GENERATIONS.get(token);
          if (generation !== undefined) return generation;
        }
  for (const tokens of [tokensOf(name.family ?? ''), (name.given ?? []).flatMap((part) => tokensOf(part))]) {
    const last = tokens.at(-1);
    if (tokens.length > 1 && last !== undefined && GENERATIONS_IN_NAMES.has(last)) return GENERATIONS.get(last) ?? null;
  }
  return null;
}

export function normaliseFamilyName(family: string | undefined): string | null {
  if (family === undefined) return null;
  const tokens = stripHonorifics(tokensOf(family));
  return tokens.length === 0 || isPlaceholderName(tokens) ? null : tokens.join(' ');
}

export interface GivenNames {
  readonly givenName: string | null;
  readonly middleNames: string | null;
}

const NO_GIVEN_NAMES: GivenNames = { givenName: null, middleNames: null };

/**
 * All given parts are split into tokens, so ["Mary Ann"] and ["Mary", "Ann"] agree: the first token is
 * the given name, the rest (space separated) the middle names.
 */
export function normaliseGivenNames(given: readonly string[] | undefined): GivenNames {
  if (given === undefined || given.length === 0) return NO_GIVEN_NAMES;
  const tokens: string[] = [];
  for (const part of given) {
    for (const token of tokensOf(part)) tokens.push(token);
  }
  const kept = stripHonorifics(tokens);
  if (isPlaceholderName(kept)) return NO_GIVEN_NAMES;
  const [first, ...rest] = kept;
  if (first === undefined) return NO_GIVEN_NAMES;
  return { givenName: first, middleNames: rest.length === 0 ? null : rest.join(' ') };
}

/**
 * A name is usable when a family or given part survives normalisation: "Mrs", "?", "--", zero-width or
 * pictograph-only parts do not, and a name made only of them is no name for matching; nor is an unidentified
 * patient's alias ("John Doe", "Unknown Male", "Trauma Alpha").
 */
function hasContent(name: R4HumanName): boolean {
  const family = normaliseFamilyName(name.family);
  const given = normaliseGivenNames(name.given);
  if (isPlaceholderFullName(given, family) || isWholeNameAlias(name)) return false;
  return family !== null || given.givenName !== null;
}

/**
 * True when the record has no name to match on because its current names are trauma aliases. The birth date beside
 * such an alias is the department's too (the day of arrival, or an age guessed on the 1st of January), not the
 * person's: the record preparer takes it as missing, so two patients under one alias on one day have nothing personal
 * in common. Once the patient is identified, the source sends the real name, and that is matched on.
 */
export function matchedUnderTraumaAlias(names: readonly R4HumanName[] | undefined): boolean {
  // The alias first: almost no record has one, and choosing the current name normalises every name again.
  if (names === undefined) return false;
  const alias = names.some(
    (name) => (name.use === undefined || !NOT_CURRENT.has(name.use)) && isTraumaAlias(nameWords(name)),
  );
  return alias && selectCurrentName(names) === undefined;
}

/**
 * Names that are not the person's name now: old and maiden names (compared apart, previousFamilyNamesOf), a
 * nickname, and an `anonymous` one (R4: an alias or pseudonym given to protect the patient's identity, such as a
 * well-known patient's "Mary Jones"): matched on, the alias linked the patient to whoever really bears it.
 */
const NOT_CURRENT: ReadonlySet<string> = new Set(['old', 'maiden', 'nickname', 'anonymous']);

/**
 * The name to match on: the `official` name, else the `usual`, else the first that is not old, maiden,
 * a nickname or an anonymous alias. Names without a usable family or given part are passed over, since they cannot be
 * compared; a record left without one is matched as a record without names (see engine/scoring/scorer.ts).
 */
export function selectCurrentName(names: readonly R4HumanName[] | undefined): R4HumanName | undefined {
  if (names === undefined) return undefined;
  let usual: R4HumanName | undefined;
  let other: R4HumanName | undefined;
  for (const name of names) {
    if (!hasContent(name)) continue;
    if (name.use === 'official') return name;
    if (name.use === 'usual') usual ??= name;
    else if (name.use === undefined || !NOT_CURRENT.has(name.use)) other ??= name;
  }
  return usual ?? other;
}

/** Normalised family names of `old` and `maiden` names, in order, without repeats or the current one. */
export function previousFamilyNamesOf(names: readonly R4HumanName[] | undefined, current: string | null): string[] {
  const previous: string[] = [];
  if (names === undefined) return previous;
  for (const name of names) {
    if (name.use !== 'old' && name.use !== 'maiden') continue;
    const family = normaliseFamilyName(name.family);
    if (family !== null && family !== current && !previous.includes(family)) previous.push(family);
  }
  return previous;
}
