import type { R4ContactPoint } from '../fhir/patient.ts';
import { normaliseEmail } from './email.ts';
import { normalisePhone } from './phone.ts';
import { isPlaceholderEmail, isPlaceholderPhone } from './placeholder-values.ts';

/**
 * Picking the phone and e-mail to match on. Contact points whose value does not normalise (too few
 * digits, no '@') or is a placeholder (placeholder-values.ts: "000-000-0000", "noemail@noemail.com") are passed
 * over rather than ending the search.
 */

function isPhoneLike(c: R4ContactPoint): boolean {
  return c.system === 'phone' || c.system === 'sms';
}

function isPersonal(c: R4ContactPoint): boolean {
  return c.use === 'home' || c.use === 'mobile';
}

/**
 * Numbers that are not the patient's or the household's: a `work` number is an employer's line (a switchboard
 * shared by every colleague), an `old` one may have passed to someone else.
 */
function isNotThePatients(c: R4ContactPoint): boolean {
  return c.use === 'work' || c.use === 'old';
}

/** The first usable phone or sms number with use home or mobile, else the first usable one that is not work or old. */
export function phoneOf(telecom: readonly R4ContactPoint[] | undefined): string | null {
  if (telecom === undefined) return null;
  let fallback: string | null = null;
  for (const contact of telecom) {
    if (!isPhoneLike(contact) || isNotThePatients(contact)) continue;
    const phone = normalisePhone(contact.value);
    if (phone === null || isPlaceholderPhone(phone)) continue;
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
    if (email !== null && !isPlaceholderEmail(email)) return email;
  }
  return null;
}

/** The indexes of the phone, sms and e-mail contact points whose value is a placeholder (matching passes them over). */
export function placeholderContactIndexes(telecom: readonly R4ContactPoint[] | undefined): number[] {
  const out: number[] = [];
  (telecom ?? []).forEach((contact, index) => {
    if (isPhoneLike(contact)) {
      const phone = normalisePhone(contact.value);
      if (phone !== null && isPlaceholderPhone(phone)) out.push(index);
    } else if (contact.system === 'email') {
      const email = normaliseEmail(contact.value);
      if (email !== null && isPlaceholderEmail(email)) out.push(index);
    }
  });
  return out;
}
