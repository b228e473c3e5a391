import { describe, expect, it } from 'vitest';
import { emailOf, phoneOf, placeholderContactIndexes } from '../../../engine/normalise/telecom.ts';

describe('phoneOf', () => {
  it('prefers a home or mobile phone or sms number', () => {
    expect(
      phoneOf([
        { system: 'phone', value: '03 9123 4411', use: 'work' },
        { system: 'fax', value: '03 9222 8812', use: 'home' },
        { system: 'sms', value: '0400 123 987', use: 'mobile' },
        { system: 'phone', value: '03 9333 1234', use: 'home' },
      ]),
    ).toBe('0400123987');
  });

  it('falls back to the first usable phone-like number that is not work or old', () => {
    expect(
      phoneOf([
        { system: 'email', value: 'a@b.c' },
        { system: 'phone', value: '123', use: 'home' },
        { system: 'phone', value: '03 9123 4411', use: 'work' },
        { system: 'phone', value: '03 9123 4412', use: 'old' },
        { system: 'sms', value: '0400 123 987' },
      ]),
    ).toBe('0400123987');
    expect(phoneOf([{ system: 'phone', value: '03 9123 4411', use: 'work' }])).toBeNull();
  });

  it('passes over a placeholder number to the next one, and lists each placeholder', () => {
    const telecom = [
      { system: 'phone', value: '000-000-0000', use: 'home' },
      { system: 'email', value: 'noemail@noemail.com' },
      { system: 'phone', value: '(204) 555-0142', use: 'mobile' },
      { system: 'email', value: 'ann@example.org' },
    ] as const;
    expect(phoneOf(telecom)).toBe('2045550142');
    expect(emailOf(telecom)).toBe('ann@example.org');
    expect(placeholderContactIndexes(telecom)).toEqual([0, 1]);
    expect(phoneOf([{ system: 'phone', value: '999 999 9999' }])).toBeNull();
  });

  it('null when there is no usable number', () => {
    expect(phoneOf(undefined)).toBeNull();
    expect(phoneOf([{ system: 'phone' }, { system: 'pager', value: '0391234411' }])).toBeNull();
  });
});

describe('emailOf', () => {
  it('takes the first usable e-mail address', () => {
    expect(
      emailOf([
        { system: 'phone', value: 'x@y.z' },
        { system: 'email', value: 'not an address' },
        { system: 'email', value: ' Anne@Example.org ' },
        { system: 'email', value: 'b@example.org' },
      ]),
    ).toBe('anne@example.org');
    expect(emailOf(undefined)).toBeNull();
    expect(emailOf([{ system: 'email' }])).toBeNull();
  });
});
