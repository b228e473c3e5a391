import { describe, expect, it } from 'vitest';
import { addressKey } from '../../../engine/comparators/address-key.ts';
import { normaliseAddressLines } from '../../../engine/normalise/address.ts';

/** The key of a line as a source writes it, normalised as ingestion normalises it. */
const key = (line: string): string => addressKey(normaliseAddressLines([line]) ?? '');

describe('addressKey', () => {
  it('gives one address written with other street types, directions or unit designators one key', () => {
    for (const [a, b] of [
      ['27 Alder Road', '27 Alder Rd'],
      ['12 Main Street Apt 4', '12 Main St #4'],
      ['12 Main Street Apartment 4B', '12 Main St. Unit 4B'],
      ['450 North Avenue', '450 N. Ave'],
      ['9 Elm Court', '9 Elm Ct'],
      ['3 Saint Anne Close', '3 St Anne Cl'],
      ['Flat 2, 18 Mount Pleasant Terrace', '2 18 Mt Pleasant Ter'],
    ] as const) {
      expect(key(a), `${a} / ${b}`).toBe(key(b));
    }
  });

  it('keeps apart another house, another flat and a street whose name is a designator', () => {
    for (const [a, b] of [
      ['9 Elm Court', '11 Elm Court'],
      ['12 Main Street Apt 4', '12 Main Street Apt 7'],
      ['12 Flat Rock Road', '12 Rock Road'],
      ['450 North Avenue', '450 South Avenue'],
      ['27 Alder Road', '27 Alder Street'],
    ] as const) {
      expect(key(a), `${a} / ${b}`).not.toBe(key(b));
    }
  });

  it('returns the line itself when nothing changes, and a key is its own key', () => {
    const line = '27 alder rd';
    expect(addressKey(line)).toBe(line);
    for (const text of ['27 Alder Road', '12 Main Street Apartment 4B', '450 North Avenue'])
      expect(addressKey(key(text))).toBe(key(text));
  });
});
