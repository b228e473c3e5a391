import { describe, it, expect } from 'vitest';
import { phoneticCodes, phoneticCodesAgree, phoneticSimilarity } from '../../../engine/comparators/phonetic.ts';

describe('phoneticCodes: Double Metaphone reference codes', () => {
  // Philips (2000), "The Double Metaphone Search Algorithm", C/C++ Users Journal 18(6); the Smith and
  // Schmidt codes are the article's own example (also quoted on Wikipedia, "Metaphone").
  // The others follow the published rules: TH before "OM" is T and P before S is kept (Thompson);
  // initial KN drops the K and GH after a vowel is silent (Knight); JOSE at the end of the word is
  // the Spanish H (Jose); C before A is K and TH gives the 0/T pair (Catherine, Kathryn).
  it.each([
    ['smith', 'SM0', 'XMT'],
    ['schmidt', 'XMT', 'SMT'],
    ['thompson', 'TMPSN', 'TMPSN'],
    ['knight', 'NT', 'NT'],
    ['jose', 'HS', 'HS'],
    ['catherine', 'K0RN', 'KTRN'],
    ['kathryn', 'K0RN', 'KTRN'],
  ])('%s -> %s / %s', (name, primary, secondary) => {
    expect(phoneticCodes(name)).toEqual([primary, secondary]);
  });

  it('encodes a multi-word name as one word', () => {
    expect(phoneticCodes('mary ann')).toEqual(phoneticCodes('maryann'));
    expect(phoneticCodes('van  der berg')).toEqual(phoneticCodes('vanderberg'));
  });

  it('gives empty codes for an empty name', () => {
    expect(phoneticCodes('')).toEqual(['', '']);
    expect(phoneticCodes('   ')).toEqual(['', '']);
  });
});

describe('phoneticCodesAgree', () => {
  it('agrees when any primary or secondary code is shared', () => {
    // Smith's secondary XMT is Schmidt's primary: the pairing Philips' article motivates.
    expect(phoneticCodesAgree(phoneticCodes('smith'), phoneticCodes('schmidt'))).toBe(true);
    expect(phoneticCodesAgree(phoneticCodes('catherine'), phoneticCodes('kathryn'))).toBe(true);
    expect(phoneticCodesAgree(phoneticCodes('smith'), phoneticCodes('jones'))).toBe(false);
  });

  it('never agrees on empty codes', () => {
    expect(phoneticCodesAgree(['', ''], ['', ''])).toBe(false);
    expect(phoneticCodesAgree(['A', ''], ['B', ''])).toBe(false);
    expect(phoneticCodesAgree(['A', 'B'], ['C', 'B'])).toBe(true);
  });
});

describe('phoneticSimilarity', () => {
  it('is 1 for equal names, the floor when codes agree, otherwise 0', () => {
    expect(phoneticSimilarity('smith', 'smith', 0.8)).toBe(1);
    expect(phoneticSimilarity('smith', 'schmidt', 0.8)).toBe(0.8);
    expect(phoneticSimilarity('catherine', 'kathryn', 0.75)).toBe(0.75);
    expect(phoneticSimilarity('smith', 'jones', 0.8)).toBe(0);
    expect(phoneticSimilarity('', 'a', 0.8)).toBe(0);
  });
});
