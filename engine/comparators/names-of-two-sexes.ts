/**
 * Two given names that are one name's forms for a boy and for a girl: Daniel and Danielle, Paul and Paula, Louis and
 * Louise, Antonio and Antonia, Francis and Frances, Alexander and Alexandra, Jean and Jeanne. Parents name twins of
 * opposite sex so, and such names agree Strong by spelling (Jaro-Winkler 0.90 to 0.98), so a boy and a girl of one
 * birth date at one home, from a source that sends no sex, were linked automatically at a score of 1. With a sex on
 * both records the twin hold already catches them (another sex, given names below Exact); without one, it reads this
 * (scoring/possible-twin.ts): a review, not a link.
 *
 * Two tests, both needed:
 *  - The form: the names share a stem of at least three letters and end in one of the pairs of endings below (a
 *    boy's, then a girl's, in either order), the commonest of the European languages the registry's names come from.
 *    A rarer pair (Henry and Henrietta) is not caught and is left to the model, as before.
 *  - The sexes: a list of names by sex (gender-detection-from-name, MIT: English, Italian, Spanish, French, German and
 *    Turkish names, one sex each) calls one name a boy's and the other a girl's. A keying error makes the form far more
 *    often than parents do: one dropped last letter turns Sophie into "sophi" and Rebecca into "rebecc", 43 of FEBRL 3
 *    and 4's 11,538 true pairs. The list knows neither, or calls both a girl's; so too one woman's name in two
 *    spellings (Isabel and Isabelle, Ann and Anna). Checked so, 8 of those true pairs keep the form and two sexes
 *    (Charlie and "charli", Karla and "karl"); 2 of them are Michael and Michaela, which only a recorded sex would tell
 *    apart.
 *
 * The list (2 MB; about 0.16 s and 21 MB of heap) loads with the first pair of the form, so a registry whose pairs
 * never take one never loads it.
 */
import { createRequire } from 'node:module';
import type { getGender as GetGender } from 'gender-detection-from-name';

const ENDINGS: readonly (readonly [string, string])[] = [
  ['', 'a'], // Paul and Paula, Robert and Roberta, Martin and Martina
  ['', 'e'], // Louis and Louise, Justin and Justine, Denis and Denise
  ['', 'le'], // Daniel and Danielle, Michel and Michelle, Gabriel and Gabrielle
  ['', 'ne'], // Jean and Jeanne, Yvon and Yvonne, Adrien and Adrienne
  ['', 'ia'], // Victor and Victoria
  ['', 'ie'], // Stephan and Stephanie
  ['', 'ina'], // Georg and Georgina
  ['', 'ine'], // Paul and Pauline
  ['', 'ette'], // Paul and Paulette
  ['o', 'a'], // Antonio and Antonia, Mario and Maria, Fernando and Fernanda
  ['i', 'a'], // Giovanni and Giovanna
  ['us', 'a'], // Julius and Julia, Augustus and Augusta
  ['is', 'es'], // Francis and Frances
  ['er', 'ra'], // Alexander and Alexandra
  ['an', 'na'], // Christian and Christina
  ['an', 'ne'], // Christian and Christine
  ['k', 'ia'], // Patrick and Patricia
  ['en', 'anie'], // Stephen and Stephanie
];

const STEM_FLOOR = 3;

const loadCommonJs = createRequire(import.meta.url);
let genderOf: typeof GetGender | undefined;

/** Whether two prepared (lower-case) given names are a boy's and a girl's form of one name. */
export function namesOfTwoSexes(a: string, b: string): boolean {
  if (!oneNamesForms(a, b)) return false;
  genderOf ??= (loadCommonJs('gender-detection-from-name') as { getGender: typeof GetGender }).getGender;
  const left = genderOf(a);
  const right = genderOf(b);
  return left !== 'unknown' && right !== 'unknown' && left !== right;
}

/** The form alone: a shared stem of three letters or more, and a boy's and a girl's ending after it. */
export function oneNamesForms(a: string, b: string): boolean {
  if (a === b) return false;
  let stem = 0;
  const shorter = Math.min(a.length, b.length);
  while (stem < shorter && a.charCodeAt(stem) === b.charCodeAt(stem)) stem++;
  if (stem < STEM_FLOOR) return false;
  const left = a.slice(stem);
  const right = b.slice(stem);
  return ENDINGS.some(([boy, girl]) => (left === boy && right === girl) || (left === girl && right === boy));
}
