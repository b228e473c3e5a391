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
 * two records that both carry middle names are the middle-name rule's (middle-names.ts). Or when both records give
 * the same names in another order, each one's given name a middle name of the other (María Fernanda and Fernanda
 * María): the given names alone compared Partial, and one person at two homes was two people. Twins are not named
 * so under one sex; José María and María José, a boy and a girl, are held by the twin rule's other sex.
 *
 * The field comparison (scoring/field-comparison.ts) scores such a pair Strong, never Exact: the records share a name,
 * not the same given name, and the given name's term frequency is not counted.
 */
import type { MiddleNameParts } from './middle-names.ts';

/**
 * Whether either record's given name is a middle name of the other, which carries none of its own, or each record's
 * given name is a middle name of the other (the same names in another order).
 */
export function goesByMiddleName(a: MiddleNameParts, b: MiddleNameParts): boolean {
  return middleNameGiven(a, b) || middleNameGiven(b, a) || (givenAmongMiddles(a, b) && givenAmongMiddles(b, a));
}

/** Whether `named`'s given name (not an initial) is one of `other`'s middle names. */
function givenAmongMiddles(named: MiddleNameParts, other: MiddleNameParts): boolean {
  if (named.given === null || other.middleNames === null) return false;
  const name = named.given.text;
  return name.length > 1 && other.middleNames.includes(name);
}

/** Whether `plain`, carrying no middle names, gives as its given name one of `full`'s middle names. */
function middleNameGiven(full: MiddleNameParts, plain: MiddleNameParts): boolean {
  return plain.middleNames === null && givenAmongMiddles(plain, full);
}
