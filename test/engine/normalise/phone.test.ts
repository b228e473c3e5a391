import { describe, expect, it } from 'vitest';
import { normalisePhone } from '../../../engine/normalise/phone.ts';

describe('normalisePhone', () => {
  it.each([
    ['+61 (02) 9876-5432', '0298765432'],
    ['(02) 9876 5432', '0298765432'],
    ['0061 2 9876 5432', '1298765432'],
    ['0412 345 678', '0412345678'],
    ['555-0199', '5550199'],
    ['123456', '123456'],
    ['０４１２３４５６７８', '0412345678'],
  ])('%s → %s', (input, expected) => {
    expect(normalisePhone(input)).toBe(expected);
  });

  it.each([undefined, '', 'n/a', '12345', '+1 (23) 45'])('null below six digits (%j)', (input) => {
    expect(normalisePhone(input)).toBeNull();
  });
});
