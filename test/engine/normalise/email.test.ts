import { describe, expect, it } from 'vitest';
import { normaliseEmail } from '../../../engine/normalise/email.ts';

describe('normaliseEmail', () => {
  it('trims and lower-cases', () => {
    expect(normaliseEmail('  Anne.Smith@Example.ORG ')).toBe('anne.smith@example.org');
  });

  it.each([undefined, '', 'anne.example.org', '@example.org', 'anne@', '  '])('null for %j', (input) => {
    expect(normaliseEmail(input)).toBeNull();
  });
});

describe('normaliseEmail and invisible characters', () => {
  it('removes zero-width and bidi characters like all text does', () => {
    expect(normaliseEmail('\u200Bann@exa\u200Dmple.org\u202C')).toBe('ann@example.org');
  });
});
