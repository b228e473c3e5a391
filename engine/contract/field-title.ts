/**
 * A record's fields as a person reads them ("Birth date", not `birthDate`), in reading order: the console's tables,
 * charts and the health figures' sentences name fields this way. The API, the CLI's tables, exports and profiles keep
 * the keys. Browser-safe.
 */
const TITLES: Readonly<Record<string, string>> = {
  familyName: 'Family name',
  previousFamilyNames: 'Previous family names',
  givenName: 'Given name',
  middleNames: 'Middle names',
  generation: 'Generational suffix',
  birthDate: 'Birth date',
  partialBirthDate: 'Partial birth date',
  birthOrder: 'Birth order',
  multipleBirth: 'Multiple birth',
  sex: 'Sex',
  addressLine: 'Address',
  city: 'City',
  state: 'State',
  postalCode: 'Postal code',
  phone: 'Phone',
  email: 'Email',
  identifiers: 'Identifiers',
  identifier: 'Identifier',
};

/** A field's title ("Birth date"); a key this console does not know (a newer registry's field) reads as itself. */
export function fieldTitle(key: string): string {
  return Object.hasOwn(TITLES, key) ? (TITLES[key] ?? key) : key;
}

/** The same within a sentence: "birth date", "postal code". */
export function fieldWords(key: string): string {
  const title = fieldTitle(key);
  return title === key ? key : title.toLowerCase();
}

const AND = new Intl.ListFormat('en-GB', { type: 'conjunction' });

/** Fields listed within a sentence: "family name, given name and birth date". */
export function fieldList(keys: readonly string[]): string {
  return AND.format(keys.map(fieldWords));
}
