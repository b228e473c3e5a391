import type { R4Address } from '../fhir/patient.ts';
import { normalisePostalCode } from './postal.ts';
import { normaliseText } from './text.ts';

export interface AddressFields {
  readonly addressLine: string | null;
  readonly city: string | null;
  readonly state: string | null;
  readonly postalCode: string | null;
}

const NO_ADDRESS: AddressFields = { addressLine: null, city: null, state: null, postalCode: null };

/** The address to match on: the first `home` address, else the first address. */
export function selectAddress(addresses: readonly R4Address[] | undefined): R4Address | undefined {
  return addresses?.find((a) => a.use === 'home') ?? addresses?.[0];
}

/** Lines are normalised one by one and joined with single spaces; blank lines drop out. */
export function normaliseAddressLines(lines: readonly string[] | undefined): string | null {
  if (lines === undefined) return null;
  let out: string | null = null;
  for (const line of lines) {
    const text = normaliseText(line);
    if (text !== null) out = out === null ? text : `${out} ${text}`;
  }
  return out;
}

export function addressFieldsOf(addresses: readonly R4Address[] | undefined): AddressFields {
  const address = selectAddress(addresses);
  if (address === undefined) return NO_ADDRESS;
  return {
    addressLine: normaliseAddressLines(address.line),
    city: address.city === undefined ? null : normaliseText(address.city),
    state: address.state === undefined ? null : normaliseText(address.state),
    postalCode: normalisePostalCode(address.postalCode),
  };
}
