import type { R4ContactPoint } from '../fhir/patient.ts';
import { normaliseEmail } from './email.ts';
import { normalisePhone } from './phone.ts';

/**
 * Picking the phone and e-mail to match on. Contact points whose value does not normalise (too few
 * digits, no '@') are passed over rather than ending the search.
 */

function isPhoneLike(c: R4ContactPoint): boolean {
  return c.system === 'phone' || c.system === 'sms';
}

function isPersonal(c: R4ContactPoint): boolean {
  return c.use === 'home' || c.use === 'mobile';
}

/** The first usable phone or sms number with use home or mobile, else the first usable one. */
export function phoneOf(telecom: readonly R4ContactPoint[] | undefined): string | null {
  if (telecom === undefined) return null;
  let fallback: string | null = null;
  for (const contact of telecom) {
    if (!isPhoneLike(contact)) continue;
    const phone = normalisePhone(contact.value);
    if (phone === null) continue;
    if (isPersonal(contact)) return phone;
    fallback ??= phone;
  }
  return fallback;
}

/** The first usable e-mail address. */
export function emailOf(telecom: readonly R4ContactPoint[] | undefined): string | null {
  if (telecom === undefined) return null;
  for (const contact of telecom) {
    if (contact.system !== 'email') continue;
    const email = normaliseEmail(contact.value);
    if (email !== null) return email;
  }
  return null;
}
