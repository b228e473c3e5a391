/**
 * Newborn placeholder names. A maternity ward registers a baby before it is named: "Baby Boy Smith", "Baby Girl
 * Smith", "Twin A", "Infant Boy B", "BB Smith", or the mother's name and the sex ("Judysgirl Smith", "Judysgirl A").
 * The given names then say only that the record is a newborn's, and twins and triplets carry the same words under one
 * family name, birth date, address and phone: matched as names, "Baby Boy A" and "Baby Boy B" agreed exactly and
 * twins were linked automatically.
 *
 * Given names made only of these words, with at least one that names a newborn (not a designator alone, so "A" or
 * "B" stays an initial), are such a placeholder. The scorer compares them as a missing given name and holds the pair
 * at Probable whenever the family names and birth dates agree (scoring/possible-twin.ts): twins and one baby's
 * two records look alike, and only a reviewer, or an identifier, tells them apart. The list keeps to words that are
 * not given as a person's name; "Bo" and "Babe", which are, stay off it, and a designator ("Male", "A") counts only
 * beside a word naming a newborn, or a sex beside which of twins ("Female A").
 */

/** Words that name a newborn: at least one must be there. */
const NEWBORN_WORDS: ReadonlySet<string> = new Set([
  'baby',
  'babyboy',
  'babygirl',
  'bb',
  'bg',
  'boy',
  'girl',
  'infant',
  'newborn',
  'nb',
  'twin',
  'triplet',
]);

/** Words that may stand beside them: the sex, or which of twins or triplets (A, B, 1, 2, "one", "two"). */
const DESIGNATORS: ReadonlySet<string> = new Set([
  'a',
  'b',
  'c',
  'd',
  '1',
  '2',
  '3',
  '4',
  'one',
  'two',
  'three',
  'male',
  'female',
  'm',
  'f',
]);

/**
 * The Joint Commission's pattern: the mother's first name, possessive, and the baby's sex as one word ("Judysgirl",
 * "Marysboy"), with a twin's letter after it or not ("Judysgirla"). No given name ends so.
 */
const MOTHERS_BABY = /^[a-z]{2,}s(?:girl|boy)[a-d]?$/;

/** Which of twins or triplets, and the sex: the designators that name a newborn together without a word for one. */
const ORDERS: ReadonlySet<string> = new Set(['a', 'b', 'c', 'd', '1', '2', '3', '4', 'one', 'two', 'three']);
const SEXES: ReadonlySet<string> = new Set(['male', 'female']);

/**
 * Words naming a newborn and its sex, after which the mother's first names may follow: "BG Maria A", "Babygirl
 * Maria". "Boy" and "Girl" count so only after another word for the baby ("Baby Girl Maria", "Judy's Girl Maria"):
 * first, they are as often a keying error in a given name (Roy, Bob) with a middle name after it. Without a sex word
 * the name after the baby's is its own ("Baby John" stays a name: many people are called Baby).
 */
const SEXED_NEWBORN_WORDS: ReadonlySet<string> = new Set(['babyboy', 'babygirl', 'bb', 'bg']);
const SEX_WORDS: ReadonlySet<string> = new Set(['boy', 'girl']);

/** The mother's first name as a possessive ("judys", from "Judy's" or "Judys"), first, before one of these words. */
const POSSESSIVE = /^[a-z]{2,}s$/;
const AFTER_POSSESSIVE: ReadonlySet<string> = new Set(['girl', 'boy', 'baby']);

/**
 * True when the normalised given name and middle names are a newborn's placeholder (see the module comment). Besides
 * the words above: the mother's names after "of" ("Baby of Maria", "Baby of Maria Garcia B"), the mother's first name
 * as a possessive before the word for the baby ("Judy's Girl A", "Maria's Baby"), the mother's first names after the
 * words for the baby and its sex ("Baby Girl Maria", "BG Maria Jose B"; SEXED_NEWBORN_WORDS), and a full sex word
 * with which of twins ("Female A", "Male 2"; "Male" alone, or "M A", stays a name or initials).
 */
export function isNewbornName(givenName: string | null, middleNames: string | null): boolean {
  if (givenName === null) return false;
  const words = middleNames === null ? [givenName] : [givenName, ...middleNames.split(' ')];
  let named = false;
  let sex = false;
  let order = false;
  // Set once the words so far name a newborn and its sex and nothing else: any name after them is the mother's.
  let mothersNameNext = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (NEWBORN_WORDS.has(word) || MOTHERS_BABY.test(word)) {
      named = true;
      mothersNameNext ||= SEXED_NEWBORN_WORDS.has(word) || (i > 0 && SEX_WORDS.has(word));
      if (words[i + 1] === 'of' && i + 2 < words.length) {
        // The mother's names: every word after "of" up to a designator.
        i += 2;
        while (i + 1 < words.length && !DESIGNATORS.has(words[i + 1] ?? '')) i++;
      }
    } else if (i === 0 && POSSESSIVE.test(word) && AFTER_POSSESSIVE.has(words[1] ?? '')) {
      continue;
    } else if (DESIGNATORS.has(word)) {
      sex ||= SEXES.has(word);
      order ||= ORDERS.has(word);
    } else if (!mothersNameNext) return false;
  }
  return named || (sex && order);
}
