/**
 * A person known by a middle name: one record's given name is a middle name of the other, and the record that
 * gives it carries no middle names itself. José Luis Ramírez is Luis at his clinic; Anne-Marie Leclerc (a compound
 * given name, which normalises to the given name anne and the middle name marie) is Marie; John Michael is Michael.
 * Spanish, Portuguese and French given names are often compound and their bearers go by either part, and people of
 * every culture go by a middle name; sources also swap a given and a middle name. The given names alone compared
 * Partial or Different (jose and luis), so one person at two homes was two people.
 *
 * Names are compared exactly, as normalised, and an initial never counts (J is no one's middle name). Only when the
 * record that gives the name carries no middle names: John Michael and Michael Thomas are two people's names, and
 * two records that both carry middle names are the middle-name rule's (middle-names.ts).
 *
 * The field comparison (scoring/field-comparison.ts) scores such a pair Strong, never Exact: the records share a name,
 * not the same given name, and the given name's term frequency is not counted.
 */
import type { MiddleNameParts } from './middle-names.ts';

/** Whether either record's given name is a middle name of the other, which carries none of its own. */
export function goesByMiddleName(a: MiddleNameParts, b: MiddleNameParts): boolean {
  return middleNameGiven(a, b) || middleNameGiven(b, a);
}

/** Whether `plain`, carrying no middle names, gives as its given name one of `full`'s middle names. */
function middleNameGiven(full: MiddleNameParts, plain: MiddleNameParts): boolean {
  if (plain.middleNames !== null || full.middleNames === null || plain.given === null) return false;
  const name = plain.given.text;
  return name.length > 1 && full.middleNames.includes(name);
}
