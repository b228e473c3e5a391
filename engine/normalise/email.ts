import { withoutInvisibles } from './text.ts';

/**
 * E-mail addresses: invisible format characters removed (the rule of all text, see text.ts), trimmed and
 * lower-cased. The local part is case-sensitive in theory but not in practice, and sources disagree on
 * case. Without text on both sides of an '@' it is not an address.
 */
export function normaliseEmail(s: string | undefined): string | null {
  if (s === undefined) return null;
  const out = withoutInvisibles(s).trim().toLowerCase();
  const at = out.indexOf('@');
  return at > 0 && at < out.length - 1 ? out : null;
}
