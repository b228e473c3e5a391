/**
 * One address written two ways: "27 Alder Road" on one record and "27 Alder Rd" on the next, "12 Main Street Apt 4"
 * and "12 Main St #4". Registration screens, postal software and patients abbreviate street types, directions and unit
 * designators as they please. The Dice coefficient over the lines' letter pairs scored such a pair Partial (Road and Rd
 * 0.82, North Avenue and N Ave 0.61) while a neighbour's house (9 and 11 Elm Court, 0.86) or another flat of the
 * building (Apt 4 and Apt 7, 0.95) scored Strong: the same home counted as elsewhere, a neighbour's as home.
 *
 * The key maps each word of a normalised line (normalise/text.ts: lower case, no punctuation, so "#4" is "4") to the
 * abbreviation the United States Postal Service standardises (Publication 28, appendices C1 and C2: street suffixes,
 * secondary unit designators; directions), and drops a designator before a unit's number, which says nothing the
 * number does not. Two lines with one key are one address: the field comparison scores them Exact
 * (scoring/field-comparison.ts). Any other pair is compared by the Dice coefficient as written, as before, so the bands
 * the model estimated for it keep their meaning. Words are mapped whole, never guessed at: "Saint" and "St" are one
 * word, as "Street" and "St" are, which only ever makes two spellings of one line agree.
 */

/** A word and its standard abbreviation: street types (C1), directions and a few words streets are named with. */
const STANDARD: ReadonlyMap<string, string> = new Map(
  Object.entries({
    alley: 'aly',
    avenue: 'ave',
    av: 'ave',
    boulevard: 'blvd',
    circle: 'cir',
    close: 'cl',
    court: 'ct',
    crescent: 'cres',
    drive: 'dr',
    expressway: 'expy',
    freeway: 'fwy',
    gardens: 'gdns',
    grove: 'grv',
    heights: 'hts',
    highway: 'hwy',
    lane: 'ln',
    mount: 'mt',
    parkway: 'pkwy',
    place: 'pl',
    plaza: 'plz',
    road: 'rd',
    route: 'rte',
    saint: 'st',
    square: 'sq',
    street: 'st',
    str: 'st',
    terrace: 'ter',
    terr: 'ter',
    trail: 'trl',
    turnpike: 'tpke',
    north: 'n',
    south: 's',
    east: 'e',
    west: 'w',
    northeast: 'ne',
    northwest: 'nw',
    southeast: 'se',
    southwest: 'sw',
  }),
);

/** Secondary unit designators (C2) written before a unit's number: dropped, as "#" already is. */
const UNIT_DESIGNATORS: ReadonlySet<string> = new Set(['apartment', 'apt', 'flat', 'no', 'number', 'suite', 'unit']);

/** A unit's number: a word with a digit ("4", "4b") or a single letter ("b"). */
const isUnitNumber = (word: string | undefined): boolean =>
  word !== undefined && (word.length === 1 || /\d/.test(word));

/**
 * The line's key: each word's standard abbreviation, and a unit designator dropped where a unit's number follows it
 * ("Flat Rock Road" keeps its Flat). See the module comment.
 */
export function addressKey(line: string): string {
  const words = line.split(' ');
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (UNIT_DESIGNATORS.has(word) && isUnitNumber(words[i + 1])) continue;
    kept.push(STANDARD.get(word) ?? word);
  }
  const key = kept.join(' ');
  // Most lines are their own key: a prepared record then holds the line's string once, not an equal copy beside it.
  return key === line ? line : key;
}
