import { describe, expect, it } from 'vitest';
import {
  matchIdentifiersOf,
  normaliseIdentifierValue,
  placeholderIdentifierIndexes,
} from '../../../engine/normalise/identifier.ts';

const LOCAL = 'urn:oid:1.2.3.local';

describe('normaliseIdentifierValue', () => {
  it.each([
    ['ab-123.45 6', 'AB123456'],
    ['2123 45670 1', '2123456701'],
    [' x/y ', 'XY'],
  ])('%j → %s', (input, expected) => {
    expect(normaliseIdentifierValue(input)).toBe(expected);
  });

  it('null when nothing is left', () => {
    expect(normaliseIdentifierValue(' -.- ')).toBeNull();
  });
});

describe('matchIdentifiersOf', () => {
  it('drops the local system, trims systems, normalises values, sorts and de-duplicates', () => {
    expect(
      matchIdentifiersOf(
        [
          { system: 'urn:z', value: 'b-2' },
          { system: LOCAL, value: 'L-1' },
          { system: ' urn:a ', value: 'x 9' },
          { system: 'urn:z', value: 'A.1' },
          { system: 'urn:a', value: 'X-9' },
          { system: 'URN:a', value: '1' },
          { system: 'urn:z', value: '---' },
          { system: ` ${LOCAL}`, value: 'L-2' },
        ],
        LOCAL,
      ),
    ).toEqual([
      { system: 'URN:a', value: '1' },
      { system: 'urn:a', value: 'X9' },
      { system: 'urn:z', value: 'A1' },
      { system: 'urn:z', value: 'B2' },
    ]);
  });

  it('keeps every identifier when no local system is configured', () => {
    expect(matchIdentifiersOf([{ system: LOCAL, value: '1' }], undefined)).toEqual([{ system: LOCAL, value: '1' }]);
    expect(matchIdentifiersOf(undefined, LOCAL)).toEqual([]);
  });

  it('drops placeholder values (never the local one) and lists them by index', () => {
    const identifiers = [
      { system: LOCAL, value: '0000' },
      { system: 'http://hl7.org/fhir/sid/us-ssn', value: '999-99-9999' },
      { system: 'urn:z', value: 'UNKNOWN' },
      { system: 'urn:z', value: 'B-2' },
    ];
    expect(matchIdentifiersOf(identifiers, LOCAL)).toEqual([{ system: 'urn:z', value: 'B2' }]);
    expect(placeholderIdentifierIndexes(identifiers, LOCAL)).toEqual([1, 2]);
  });
});
