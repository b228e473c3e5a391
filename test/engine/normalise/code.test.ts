import { describe, expect, it } from 'vitest';
import { normaliseCode } from '../../../engine/normalise/code.ts';

describe('normaliseCode', () => {
  it('keeps upper-case ASCII letters and digits only', () => {
    expect(normaliseCode(' ab-1.2 c/3 ')).toBe('AB12C3');
    expect(normaliseCode('Ａｂ１')).toBe('AB1');
    expect(normaliseCode('Ç9')).toBe('C9');
    expect(normaliseCode('Ж9')).toBe('9');
  });

  it('null when nothing is left', () => {
    expect(normaliseCode(undefined)).toBeNull();
    expect(normaliseCode(' - ')).toBeNull();
  });
});
