/**
 * One family name carried within another: a compound family name and one of its names used alone, or its names in
 * another order. Spanish and Portuguese names carry two family names (María García López), and a clinic often keeps
 * only one of them, the second as often as the first once a form has one box (García López, then López); a married
 * name is hyphenated (Smith-Jones) on one record and the husband's alone (Jones) on another. Jaro-Winkler, which
 * rewards an agreeing start, finds the first name of a compound (smith and smith jones 0.89, Strong) but not the second
 * (jones and smith jones 0.43, Different), so the same person was two people by which of her names a clerk kept.
 *
 * Names are compared as normalised (normalise/text.ts: lower case, a hyphen is a space). One name is within the other
 * when every word of the one with fewer words is a word of the other, the two are not the same text, and at least one
 * of those words is a name rather than a particle (de, van, y, al: "de" alone names no one). Words are compared
 * exactly: a part with a typo is left to the comparators, which would otherwise call every compound near any name.
 *
 * The field comparison (scoring/field-comparison.ts) scores such a pair Strong, as Jaro-Winkler scores the first
 * part, never Exact: the records share a name, not the whole name, and a name's term frequency is the whole name's.
 */

/** Words that join a family name's parts or mark a lineage: never a family name alone. */
const PARTICLES: ReadonlySet<string> = new Set([
  'al',
  'bin',
  'd',
  'da',
  'das',
  'de',
  'del',
  'della',
  'der',
  'di',
  'do',
  'dos',
  'du',
  'e',
  'el',
  'ibn',
  'la',
  'las',
  'le',
  'les',
  'los',
  'st',
  'ten',
  'ter',
  'van',
  'von',
  'y',
]);

/** Whether one normalised family name is carried within the other (see the module comment). */
export function oneNameWithinTheOther(a: string, b: string): boolean {
  if (a === b || (!a.includes(' ') && !b.includes(' '))) return false;
  const left = a.split(' ');
  const right = b.split(' ');
  const [fewer, more] = left.length <= right.length ? [left, right] : [right, left];
  let named = false;
  for (const word of fewer) {
    if (!more.includes(word)) return false;
    if (word.length > 1 && !PARTICLES.has(word)) named = true;
  }
  return named;
}
