/**
 * The values a blocking rule takes from a record's normalised fields. A rule part can be multi-valued
 * (a family name and its previous family names; several identifiers), so a rule yields the product of
 * its parts' values, capped so one record can never flood the index.
 */
import type { MatchFields } from '../contract/fields.ts';
import type { BlockingField, BlockingRule, BlockingTransform } from '../contract/profile.ts';
import { phoneticCodes } from '../comparators/phonetic.ts';

export const MAX_KEYS_PER_RULE = 8;

function fieldValues(fields: MatchFields, field: BlockingField): readonly string[] {
  switch (field) {
    case 'familyName':
      return fields.familyName === null
        ? fields.previousFamilyNames
        : [fields.familyName, ...fields.previousFamilyNames];
    case 'identifier':
      return fields.identifiers.map((id) => `${id.system}|${id.value}`);
    default: {
      const value = fields[field];
      return value === null ? [] : [value];
    }
  }
}

/** The primary Double Metaphone code of a value ('' when it has none). */
export function primaryPhoneticCode(value: string): string {
  return phoneticCodes(value)[0];
}

function transform(value: string, how: BlockingTransform, phonetic: (value: string) => string): string | null {
  switch (how) {
    case 'Exact':
      return value;
    case 'Phonetic': {
      const primary = phonetic(value);
      return primary === '' ? null : primary;
    }
    case 'Prefix3':
      return value.length < 3 ? value : value.slice(0, 3);
    case 'Year':
      return /^\d{4}/.test(value) ? value.slice(0, 4) : null;
    case 'MonthDay':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) ? value.slice(5) : null;
    case 'Initial':
      return value.slice(0, 1);
  }
}

/**
 * The distinct transformed values (in first-seen order) one rule part takes from a record, as ruleKeyMaterial
 * computes them; empty when the field is missing. Two records share a key under a rule exactly when every
 * part's values intersect, as long as neither side's product of part values exceeds MAX_KEYS_PER_RULE.
 */
export function rulePartValues(
  fields: MatchFields,
  part: BlockingRule['Parts'][number],
  phonetic: (value: string) => string = primaryPhoneticCode,
): string[] {
  // A part has one or a few values: a linear de-duplication beats a Set here.
  const values: string[] = [];
  for (const value of fieldValues(fields, part.Field)) {
    const transformed = transform(value, part.Transform, phonetic);
    if (transformed !== null && transformed !== '' && !values.includes(transformed)) values.push(transformed);
  }
  return values;
}

/** The key string of a rule for one value per part (the form ruleKeyMaterial yields). */
export function ruleKey(ruleName: string, values: readonly string[]): string {
  let key = ruleName;
  for (const value of values) key += `\u001f${value}`;
  return key;
}

/**
 * The distinct key strings (before hashing) that a rule makes from a record; empty when a part is missing: one key
 * per combination of its parts' values (rulePartValues), at most MAX_KEYS_PER_RULE. An Unordered rule sorts each
 * combination before joining it, so a record with its values in either order yields the same key, and keeps
 * combinations that sort alike once. `phonetic` may be a memoised primaryPhoneticCode when many records are keyed
 * at once.
 */
export function ruleKeyMaterial(
  fields: MatchFields,
  rule: BlockingRule,
  phonetic: (value: string) => string = primaryPhoneticCode,
): string[] {
  // Combinations as their joined values ("\u001fA\u001fB"): cheaper than arrays on this per-record path.
  let combinations = [''];
  for (const part of rule.Parts) {
    const values = rulePartValues(fields, part, phonetic);
    if (values.length === 0) return [];
    const next: string[] = [];
    for (const prefix of combinations)
      for (const value of values) if (next.length < MAX_KEYS_PER_RULE) next.push(`${prefix}\u001f${value}`);
    combinations = next;
  }
  if (rule.Unordered !== true) return combinations.map((joined) => rule.Name + joined);
  // Split on the separator, a combination gives back its values (finer pieces, were a value to hold the separator:
  // the same pieces whatever the order, so no pair that shares the values is missed).
  return [...new Set(combinations.map((joined) => ruleKey(rule.Name, joined.slice(1).split('\u001f').sort())))];
}
