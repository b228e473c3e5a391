import { describe, expect, it } from 'vitest';
import { firstSoundsDiffer } from '../../../engine/comparators/first-sound.ts';
import type { PreparedName } from '../../../engine/comparators/name-comparison.ts';

/** A name as a profile without the Phonetic comparator prepares it (no codes yet: computed when needed). */
const name = (text: string): PreparedName => ({ text, phonetic: null, nickname: undefined });
const differ = (a: string, b: string) => firstSoundsDiffer(name(a), name(b));

describe('firstSoundsDiffer', () => {
  it('says so for names alike but for their first sound, as twins are named', () => {
    // An initial consonant added (Double Metaphone AM and JM/KM), replaced (MSN and JSN/ASN) or dropped.
    for (const [a, b] of [
      ['emma', 'gemma'],
      ['ella', 'bella'],
      ['anna', 'hanna'],
      ['mason', 'jason'],
      ['madison', 'addison'],
      ['ryan', 'bryan'],
      // J and H are two sounds: Jayden and Hayden are twins' names.
      ['jayden', 'hayden'],
    ] as const) {
      expect(differ(a, b), `${a} ${b}`).toBe(true);
      expect(differ(b, a), `${b} ${a}`).toBe(true);
    }
  });

  it('says not for one first sound spelt two ways, or one first letter', () => {
    // C and K (K0RN), Ch and K (KRSTN), Ph and F (FLP), two vowels (A), two letters swapped (AN), G and J (JF).
    for (const [a, b] of [
      ['catherine', 'katherine'],
      ['christina', 'kristina'],
      ['philip', 'filip'],
      ['ava', 'eva'],
      ['ian', 'ain'],
      ['geoff', 'jeff'],
      ['jon', 'john'],
      // Transliterations of one onset: Kh, Ch and H; W and V.
      ['khalid', 'halid'],
      ['chaim', 'haim'],
      ['christina', 'hristina'],
      ['wladimir', 'vladimir'],
      ['kayla', 'kaylee'],
      ['emma', 'emma'],
    ] as const) {
      expect(differ(a, b), `${a} ${b}`).toBe(false);
    }
  });

  it('judges names without a code (another script) by their first letters, and an empty name never differs', () => {
    expect(differ('明美', '晴美')).toBe(true);
    expect(differ('明美', '明子')).toBe(false);
    expect(differ('', 'emma')).toBe(false);
  });

  it('reads the codes a profile with the Phonetic comparator prepared', () => {
    // Codes that say one sound win over the letters: a prepared name is not encoded again.
    const prepared = (text: string, code: string): PreparedName => ({
      text,
      phonetic: [code, code],
      nickname: undefined,
    });
    expect(firstSoundsDiffer(prepared('emma', 'AM'), prepared('gemma', 'AM'))).toBe(false);
    expect(firstSoundsDiffer(prepared('emma', 'AM'), prepared('gemma', 'KM'))).toBe(true);
  });
});
