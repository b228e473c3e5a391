import { describe, expect, it } from 'vitest';
import { sentenceStart } from '../../../engine/contract/sentence-start.ts';

describe('words that open a sentence', () => {
  it('take a capital first letter and keep the rest as written', () => {
    expect(sentenceStart('names only')).toBe('Names only');
    expect(sentenceStart('possible twin, names alike')).toBe('Possible twin, names alike');
    expect(sentenceStart('écart de dates')).toBe('Écart de dates');
    expect(sentenceStart('MRN shared')).toBe('MRN shared');
    expect(sentenceStart('')).toBe('');
  });
});
