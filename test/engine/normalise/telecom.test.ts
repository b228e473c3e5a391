import { describe, expect, it } from 'vitest';
import { emailOf, phoneOf } from '../../../engine/normalise/telecom.ts';

describe('phoneOf', () => {
  it('prefers a home or mobile phone or sms number', () => {
    expect(
      phoneOf([
        { system: 'phone', value: '03 1111 1111', use: 'work' },
        { system: 'fax', value: '03 2222 2222', use: 'home' },
        { system: 'sms', value: '0400 000 000', use: 'mobile' },
        { system: 'phone', value: '03 3333 3333', use: 'home' },
      ]),
    ).toBe('0400000000');
  });

  it('falls back to the first usable phone-like number', () => {
    expect(
      phoneOf([
        { system: 'email', value: 'a@b.c' },
        { system: 'phone', value: '123', use: 'home' },
        { system: 'phone', value: '03 1111 1111', use: 'work' },
        { system: 'sms', value: '0400 000 000' },
      ]),
    ).toBe('0311111111');
  });

  it('null when there is no usable number', () => {
    expect(phoneOf(undefined)).toBeNull();
    expect(phoneOf([{ system: 'phone' }, { system: 'pager', value: '0311111111' }])).toBeNull();
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
