import { describe, expect, it } from 'vitest';
import type { R4Address } from '../../../engine/fhir/patient.ts';
import {
  addressFieldsOf,
  normaliseAddressLines,
  placeholderAddressIndex,
  selectAddress,
} from '../../../engine/normalise/address.ts';

describe('selectAddress', () => {
  const work: R4Address = { use: 'work', city: 'Work' };
  const home: R4Address = { use: 'home', city: 'Home' };
  const home2: R4Address = { use: 'home', city: 'Home 2' };

  it('takes the first home address, else the first that is not work, old or billing', () => {
    expect(selectAddress([work, home, home2])).toBe(home);
    const plain: R4Address = { city: 'X' };
    const temp: R4Address = { use: 'temp', city: 'T' };
    expect(selectAddress([work, plain])).toBe(plain);
    expect(selectAddress([{ use: 'old', city: 'O' }, { use: 'billing', city: 'B' }, temp])).toBe(temp);
    expect(selectAddress([work, { use: 'old', city: 'O' }])).toBeUndefined();
    expect(selectAddress([])).toBeUndefined();
    expect(selectAddress(undefined)).toBeUndefined();
  });
});

describe('addressFieldsOf', () => {
  it('normalises each part', () => {
    expect(
      addressFieldsOf([
        {
          use: 'home',
          line: ['Unit 4/12', '', 'Rue de l’Église'],
          city: 'Saint-Étienne',
          state: 'Loire ',
          postalCode: '42 000',
        },
      ]),
    ).toEqual({ addressLine: 'unit 4 12 rue de leglise', city: 'saint etienne', state: 'loire', postalCode: '42000' });
  });

  it('gives nulls for missing parts and missing addresses', () => {
    const none = { addressLine: null, city: null, state: null, postalCode: null };
    expect(addressFieldsOf(undefined)).toEqual(none);
    expect(addressFieldsOf([{ country: 'AU' }])).toEqual(none);
    expect(addressFieldsOf([{ line: [' ', '--'], city: '.', state: '', postalCode: ' ' }])).toEqual(none);
  });

  it('joins lines with single spaces', () => {
    expect(normaliseAddressLines(['1  Main St.', 'Level 2'])).toBe('1 main st level 2');
    expect(normaliseAddressLines([])).toBeNull();
  });
});

describe('a placeholder address line', () => {
  it('drops the line and the postcode, keeps the city and state, and names the address', () => {
    const addresses: R4Address[] = [
      { use: 'work', line: ['1 Quay Road'], city: 'Port' },
      { use: 'home', line: ['HOMELESS'], city: 'Springfield', state: 'ND', postalCode: '72419' },
    ];
    expect(addressFieldsOf(addresses)).toEqual({
      addressLine: null,
      city: 'springfield',
      state: 'nd',
      postalCode: null,
    });
    expect(placeholderAddressIndex(addresses)).toBe(1);
    expect(placeholderAddressIndex([{ line: ['No fixed abode'] }])).toBe(0);
    expect(placeholderAddressIndex([{ line: ['Homeless shelter', '12 Quay Road'] }])).toBeNull();
    expect(placeholderAddressIndex(undefined)).toBeNull();
  });
});
