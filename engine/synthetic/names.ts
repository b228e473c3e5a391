/**
 * Name vocabulary the generator needs beyond faker: formal given names with their common nickname
 * (so that nickname substitution has something to work on), and a few names with diacritics (faker's
 * en_US names have none, so the 'José' vs 'Jose' variation would never occur otherwise).
 * All keys and values are lower case; the generator restores capitalisation.
 */

/** Formal given name → its most common English nickname, by sex of the usual bearer. */
export const NICKNAMES_MALE: ReadonlyMap<string, string> = new Map([
  ['william', 'bill'],
  ['robert', 'bob'],
  ['james', 'jim'],
  ['john', 'jack'],
  ['richard', 'rick'],
  ['michael', 'mike'],
  ['thomas', 'tom'],
  ['charles', 'charlie'],
  ['joseph', 'joe'],
  ['daniel', 'dan'],
  ['edward', 'ted'],
  ['anthony', 'tony'],
  ['christopher', 'chris'],
  ['matthew', 'matt'],
  ['nicholas', 'nick'],
  ['benjamin', 'ben'],
  ['jonathan', 'jon'],
  ['alexander', 'alex'],
  ['andrew', 'andy'],
  ['timothy', 'tim'],
  ['steven', 'steve'],
]);

export const NICKNAMES_FEMALE: ReadonlyMap<string, string> = new Map([
  ['elizabeth', 'liz'],
  ['margaret', 'peggy'],
  ['katherine', 'kate'],
  ['jennifer', 'jen'],
  ['patricia', 'patty'],
  ['susan', 'sue'],
  ['deborah', 'debbie'],
  ['rebecca', 'becky'],
  ['jessica', 'jess'],
  ['victoria', 'vicky'],
  ['catherine', 'cathy'],
  ['barbara', 'barb'],
  ['dorothy', 'dot'],
  ['abigail', 'abby'],
  ['samantha', 'sam'],
  ['christina', 'tina'],
  ['kimberly', 'kim'],
]);

/** Every formal → nickname entry, either sex. */
export const NICKNAMES: ReadonlyMap<string, string> = new Map([...NICKNAMES_MALE, ...NICKNAMES_FEMALE]);

export const FORMAL_MALE: readonly string[] = [...NICKNAMES_MALE.keys()];
export const FORMAL_FEMALE: readonly string[] = [...NICKNAMES_FEMALE.keys()];

export const ACCENTED_GIVEN_MALE: readonly string[] = [
  'José',
  'Jesús',
  'Ramón',
  'Raúl',
  'André',
  'François',
  'Joël',
  'Noël',
  'Andrés',
  'Tomás',
];
export const ACCENTED_GIVEN_FEMALE: readonly string[] = [
  'Zoë',
  'Renée',
  'Chloé',
  'Inés',
  'Léa',
  'Mónica',
  'Sofía',
  'Hélène',
  'Begoña',
  'Anaïs',
];
export const ACCENTED_FAMILY: readonly string[] = [
  'Muñoz',
  'Peña',
  'Núñez',
  'Ibáñez',
  'Gómez',
  'Rodríguez',
  'Hernández',
  'Martínez',
  'Pérez',
  'Sánchez',
  'López',
  'García',
  'González',
  'Müller',
  'Jiménez',
];

const COMBINING_MARKS = /\p{M}/gu;
const HAS_DIACRITIC = /\P{ASCII}/u;

/** 'José Muñoz' → 'Jose Munoz'. */
export function stripDiacritics(text: string): string {
  return text.normalize('NFD').replace(COMBINING_MARKS, '').normalize('NFC');
}

export function hasDiacritics(text: string): boolean {
  return HAS_DIACRITIC.test(text);
}

/** 'bill' → 'Bill'. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
