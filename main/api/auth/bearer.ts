/**
 * RFC 6750 bearer tokens: reading the Authorization header and the WWW-Authenticate challenge of a refusal.
 */
import { AuthFailure } from './principal.ts';

export const REALM = 'mpi-registry';

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
/** Longer than any access token an identity provider issues; refused before any parsing. */
const MAX_TOKEN_LENGTH = 16 * 1024;

/** The bearer token of the header, or an AuthFailure (401). Another scheme counts as no bearer token. */
export function bearerToken(authorization: string | undefined): string {
  if (authorization === undefined || authorization.trim() === '' || !/^bearer(\s|$)/i.test(authorization)) {
    throw new AuthFailure(401, null, 'send an access token: Authorization: Bearer <token>');
  }
  const match = authorization.length <= MAX_TOKEN_LENGTH + 16 ? BEARER.exec(authorization) : null;
  if (match?.[1] === undefined)
    throw new AuthFailure(401, 'invalid_token', 'the Authorization header does not hold one well-formed bearer token');
  return match[1];
}

/** The WWW-Authenticate value of a refusal (error_description carries only the fixed message). */
export function challenge(failure: AuthFailure): string {
  const parts = [`realm="${REALM}"`];
  if (failure.error !== null) {
    parts.push(`error="${failure.error}"`);
    parts.push(`error_description="${failure.message.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, ' ')}"`);
  }
  if (failure.scope !== undefined) parts.push(`scope="${failure.scope}"`);
  return `Bearer ${parts.join(', ')}`;
}
