import type { R4Address } from '../fhir/patient.ts';
import { normalisePostalCode } from './postal.ts';
import { normaliseText } from './text.ts';
import { isPlaceholderAddressLine } from './placeholder-values.ts';

export interface AddressFields {
  readonly addressLine: string | null;
  readonly city: string | null;
  readonly state: string | null;
  readonly postalCode: string | null;
}

const NO_ADDRESS: AddressFields = { addressLine: null, city: null, state: null, postalCode: null };

/**
 * Addresses that are not where the patient lives: a `work` address is an employer's (shared by every colleague), an
 * `old` one may house someone else now, a `billing` one is whoever pays.
 */
const NOT_A_HOME: ReadonlySet<string> = new Set(['work', 'old', 'billing']);

/** The address to match on: the first `home` address, else the first that is not work, old or billing. */
export function selectAddress(addresses: readonly R4Address[] | undefined): R4Address | undefined {
  return (
    addresses?.find((a) => a.use === 'home') ?? addresses?.find((a) => a.use === undefined || !NOT_A_HOME.has(a.use))
  );
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

/**
 * The matching fields of the selected address. Under a placeholder line ("Homeless", "No fixed abode":
 * placeholder-values.ts) the line and the postcode are missing: the postcode is then where the patient was met (a
 * shelter's, the hospital's), not a home. The city and state are kept: they place no one.
 */
export function addressFieldsOf(addresses: readonly R4Address[] | undefined): AddressFields {
  const address = selectAddress(addresses);
  if (address === undefined) return NO_ADDRESS;
  const line = normaliseAddressLines(address.line);
  const placeholder = line !== null && isPlaceholderAddressLine(line);
  return {
    addressLine: placeholder ? null : line,
    city: address.city === undefined ? null : normaliseText(address.city),
    state: address.state === undefined ? null : normaliseText(address.state),
    postalCode: placeholder ? null : normalisePostalCode(address.postalCode),
  };
}

/** The index of the selected address when its line is a placeholder (matching ignores it, the report warns), or null. */
export function placeholderAddressIndex(addresses: readonly R4Address[] | undefined): number | null {
  const address = selectAddress(addresses);
  if (address === undefined || addresses === undefined) return null;
  const line = normaliseAddressLines(address.line);
  return line !== null && isPlaceholderAddressLine(line) ? addresses.indexOf(address) : null;
}
