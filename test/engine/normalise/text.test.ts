import { describe, expect, it } from 'vitest';
import { normaliseText } from '../../../engine/normalise/text.ts';

describe('normaliseText', () => {
  it.each([
    ['Müller', 'muller'],
    ['José', 'jose'],
    ['Łukasz', 'lukasz'],
    ['Ørsted', 'orsted'],
    ['Straße', 'strasse'],
    ['STRASSE', 'strasse'],
    ['ẞ', 'ss'],
    ['Ærø', 'aero'],
    ['Œuvre', 'oeuvre'],
    ['Đorđević', 'dordevic'],
    ['Þórður', 'thordur'],
    ['İstanbul', 'istanbul'],
    ['Françoise', 'francoise'],
    ['Nguyễn', 'nguyen'],
    ['Ｊｏｈｎ', 'john'],
    ['ﬁona', 'fiona'],
  ])('strips diacritics and transliterates: %s → %s', (input, expected) => {
    expect(normaliseText(input)).toBe(expected);
  });

  it.each([
    ["O'Brien", 'obrien'],
    ['O’Brien', 'obrien'],
    ['O‘Brien', 'obrien'],
    ['Oʼbrien', 'obrien'],
    ['O`Brien', 'obrien'],
    ['O´Brien', 'obrien'],
    ["D'Angelo-Smith", 'dangelo smith'],
  ])('removes apostrophes: %s → %s', (input, expected) => {
    expect(normaliseText(input)).toBe(expected);
  });

  it.each([
    ['Smith-Jones', 'smith jones'],
    ['Smith – Jones', 'smith jones'],
    ['  Anne   Marie  ', 'anne marie'],
    ['St. Kilda Rd., Unit #4/12', 'st kilda rd unit 4 12'],
    ['a\tb\nc', 'a b c'],
    ['Anne\u00a0Marie', 'anne marie'],
    ['(Smith)', 'smith'],
    ['Smith & Sons!', 'smith sons'],
    ['Ünit 4—B', 'unit 4 b'],
  ])('turns punctuation, symbols and whitespace into single spaces: %j → %j', (input, expected) => {
    expect(normaliseText(input)).toBe(expected);
  });

  it('keeps letters of other scripts and digits', () => {
    expect(normaliseText('Иванов 12')).toBe('иванов 12');
    expect(normaliseText('山田')).toBe('山田');
  });

  it.each(['', '   ', '-', "'", '.,;', '\u0301'])('returns null when nothing is left (%j)', (input) => {
    expect(normaliseText(input)).toBeNull();
  });

  it('gives the same result on the ASCII fast path and the Unicode path', () => {
    // A trailing non-ASCII separator forces the Unicode path without changing the result.
    for (const s of ["O'Brien-Smith Jr.", 'MC DONALD', 'a__b', '`x`', '12 Main St']) {
      expect(normaliseText(`${s}\u2014`)).toBe(normaliseText(s));
    }
  });
});

describe('invisible format characters (bidi controls, zero-width characters): removed before tokenising', () => {
  it.each([
    ['Jo\u200Bhn', 'john'],
    ['Jo\u200Chn', 'john'],
    ['Jo\u200Dhn', 'john'],
    ['\u2060John\uFEFF', 'john'],
    ['Jo\u00ADhn', 'john'],
    ['\u202EnhoJ\u202C', 'nhoj'],
    ['\u2067Smith\u2069', 'smith'],
    ['Smi\u200Eth\u200F', 'smith'],
    ['O\u200B\u2019Brien', 'obrien'],
    ['Mary\u200B Ann', 'mary ann'],
    ['\u0645\u0631\u064A\u0645\u061C', '\u0645\u0631\u064A\u0645'],
    ['\u0645\u06CC\u200C\u0631\u0627', '\u0645\u06CC\u0631\u0627'],
    ['\u200B\u200D\u2060', null],
  ])('%j → %j (never splits a token, never hides a difference)', (input, expected) => {
    expect(normaliseText(input)).toBe(expected);
  });
});
