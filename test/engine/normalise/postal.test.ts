import { describe, expect, it } from 'vitest';
import { normalisePostalCode } from '../../../engine/normalise/postal.ts';

describe('normalisePostalCode', () => {
  it.each([
    ['sw1a 1aa', 'SW1A1AA'],
    ['SW1A-1AA', 'SW1A1AA'],
    [' 2000 ', '2000'],
    ['K1A 0B1', 'K1A0B1'],
    ['12345-6789', '123456789'],
    ['Ｓｗ１', 'SW1'],
    ['é1', 'E1'],
  ])('%j → %s', (input, expected) => {
    expect(normalisePostalCode(input)).toBe(expected);
  });

  it.each([undefined, '', '  ', '-.-'])('null for %j', (input) => {
    expect(normalisePostalCode(input)).toBeNull();
  });
});
