import { normaliseCode } from './code.ts';

/** 'sw1a 1aa' → 'SW1A1AA': postal codes compare without spacing or case (see code.ts). */
export function normalisePostalCode(s: string | undefined): string | null {
  return normaliseCode(s);
}
