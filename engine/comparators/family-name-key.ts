/**
 * One family name written two ways: "St John" on one record and "Saint John" on the next, "Ste Marie" and "Sainte
 * Marie". Jaro-Winkler scored such a pair Partial (St John and Saint John 0.78), so a person registered so at two
 * sources, once moved house, got a second identity without a review case. The key maps the words "saint" and
 * "sainte" of a normalised family name (normalise/name.ts: lower case, no punctuation, so "St." is "st") to their
 * abbreviations, whole words only, which only ever makes two spellings of one name agree: the comparators then see
 * one name (comparators/name-comparison.ts: identical text is Exact). The record's own field stays as the source
 * wrote it: blocking, survivorship and term frequencies use it (a term-frequency adjustment needs the stored names
 * equal, so such a pair is weighed without one).
 */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['saint', 'st'],
  ['sainte', 'ste'],
]);

/** The family name with "saint" and "sainte" written as "st" and "ste"; the same string when it has neither. */
export function familyNameKey(familyName: string): string {
  if (!familyName.includes('saint')) return familyName;
  return familyName
    .split(' ')
    .map((word) => ABBREVIATIONS.get(word) ?? word)
    .join(' ');
}
