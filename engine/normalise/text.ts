/**
 * Free-text normalisation shared by names and address parts.
 *
 * Decisions:
 * - apostrophes (and the marks typed in their place) are REMOVED: O'Brien, O’Brien and OBrien are one
 *   name, spelt with or without the mark;
 * - hyphens, like all other punctuation and symbols, become a SPACE: Smith-Jones → "smith jones", so
 *   each part of a double-barrelled name stays a token that token-wise comparators can find alone;
 * - diacritics are stripped (NFKD, then combining marks dropped), and letters that NFKD does not
 *   decompose are transliterated (ß → ss, æ → ae, ø → o, ł → l, ...);
 * - letters of any script and digits are kept; everything is lower case with single spaces;
 * - invisible format characters are REMOVED before anything else, so they never split a token or hide a
 *   difference: zero-width space, joiner and non-joiner, word joiner, soft hyphen, byte-order mark, the
 *   bidirectional marks, embeddings, overrides and isolates (U+200E/F, U+202A-E, U+2066-9, U+061C),
 *   variation selectors, and every other Default_Ignorable_Code_Point of Unicode. "Jo\u200Bhn" is "john",
 *   not "jo hn". They are removed rather than refused because real names carry them (the zero-width
 *   non-joiner is part of Persian and Indic spelling; right-to-left marks come with names copied from
 *   Arabic or Hebrew text) and refusing would drop the patient's record; the resource is stored as received,
 *   so displaying it safely (bidi isolation) is the console's job.
 */

/** Printable ASCII only: the common case, normalised without NFKD or Unicode-property regexes. */
const PRINTABLE_ASCII = /^[ -~]*$/;
const ASCII_APOSTROPHES = /['`]/g;
const ASCII_SEPARATORS = /[^a-z0-9]+/g;

/** U+0027 ', U+0060 `, U+00B4 ´, U+02B9 ʹ, U+02BC ʼ, U+2018 ‘, U+2019 ’, U+2032 ′, U+FF07 ＇. */
const APOSTROPHES = /['`\u00B4\u02B9\u02BC\u2018\u2019\u2032\uFF07]/g;
/** Unicode's Default_Ignorable_Code_Point: characters that render as nothing (see the rules above). */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}+/gu;
/** The Combining Diacritical Marks block: nearly every mark NFKD splits off a Latin letter. */
const LATIN_ACCENTS = /[\u0300-\u036F]+/g;
const COMBINING_MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/gu;

/** Lower-case letters that NFKD leaves whole, with their conventional Latin spelling. */
const TRANSLITERATIONS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŋ: 'n',
  ĸ: 'k',
};
const TRANSLITERABLE = new RegExp(`[${Object.keys(TRANSLITERATIONS).join('')}]`, 'g');

function transliterate(letter: string): string {
  return TRANSLITERATIONS[letter] ?? letter;
}

function asciiText(s: string): string {
  return s.replace(ASCII_APOSTROPHES, '').toLowerCase().replace(ASCII_SEPARATORS, ' ');
}

/** The text without its invisible format characters (the one place that rule is applied). */
export function withoutInvisibles(s: string): string {
  return PRINTABLE_ASCII.test(s) ? s : s.replace(INVISIBLE, '');
}

export function normaliseText(s: string): string | null {
  let out: string;
  if (PRINTABLE_ASCII.test(s)) {
    out = asciiText(s);
  } else {
    // Apostrophes go first: NFKD would turn ´ into a space plus a combining accent.
    const decomposed = withoutInvisibles(s).replace(APOSTROPHES, '').normalize('NFKD').replace(LATIN_ACCENTS, '');
    // Most non-ASCII input is Latin with accents, which is plain ASCII once the accents are gone.
    out = PRINTABLE_ASCII.test(decomposed)
      ? asciiText(decomposed)
      : decomposed
          .toLowerCase()
          .replace(COMBINING_MARKS, '')
          .replace(TRANSLITERABLE, transliterate)
          .replace(SEPARATORS, ' ');
  }
  out = out.trim();
  return out === '' ? null : out;
}
