/**
 * Two given names alike but for their first sound: Emma and Gemma, Ella and Bella, Anna and Hanna, Mason and Jason,
 * Madison and Addison. Parents name twins so (rhyming names are a fashion of their own), and such names agree Strong
 * by spelling (Jaro-Winkler 0.87 to 0.93), so same-sex twins at one home, one birth date, were linked automatically.
 * A clerk's slip rarely falls on a first letter ("few errors are made in the first character of a word",
 * Yannakoudakis and Fawthrop 1983, "The rules of spelling errors", Information Processing & Management 19(2); the
 * reason Jaro-Winkler rewards an agreeing start; the synthetic generator puts one typo in ten there). Among pairs of
 * one family name, birth date, sex and home whose given names differ so, one person's slip is then no likelier than
 * twins, so the twin hold reads it (scoring/possible-twin.ts): a review, not a link.
 *
 * The first sounds differ when the first letters differ and so do the first letters of every pair of their Double
 * Metaphone codes (comparators/phonetic.ts): a spelling of one sound is one name (Catherine and Katherine K, Philip and
 * Filip F, Ava and Eva and Ian and Ain the vowel A). A name without a code (another script) is judged by its letters.
 * Two transliterations of one onset that Double Metaphone (made for English) writes apart are one sound too: Kh, Ch
 * and H (Arabic and Hebrew names: Khalid and Halid, Chaim and Haim; Hristina, the Bulgarian Christina) and W and V
 * (Polish and German spellings: Wladimir and Vladimir, Wiktor and Viktor). J and H stay apart: Jayden and Hayden are
 * a pair of twins' names.
 */
import { phoneticCodes } from './phonetic.ts';
import type { PreparedName } from './name-comparison.ts';

export function firstSoundsDiffer(a: PreparedName, b: PreparedName): boolean {
  if (a.text.length === 0 || b.text.length === 0 || onset(a.text) === onset(b.text)) return false;
  const left = a.phonetic ?? phoneticCodes(a.text);
  const right = b.phonetic ?? phoneticCodes(b.text);
  for (const x of left) {
    for (const y of right) {
      if (x !== '' && y !== '' && x.charCodeAt(0) === y.charCodeAt(0)) return false;
    }
  }
  return true;
}

/** The first letter, with the transliterations of one onset written alike (kh and ch as h, w as v). */
function onset(text: string): string {
  const first = text.charAt(0);
  if ((first === 'k' || first === 'c') && text.charAt(1) === 'h') return 'h';
  return first === 'w' ? 'v' : first;
}
