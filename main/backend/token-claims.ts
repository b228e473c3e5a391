/**
 * What the console reads from an access token, for display and for its own choices (tenant, scopes, expiry,
 * actor). The token is NOT verified here: the registry verifies every request, so nothing here grants
 * anything; a forged claim only changes what the console shows, never what the registry allows.
 */
import type { JWTPayload } from 'jose';
// The decoder alone: all of jose takes about 40 ms to load, at the console's start.
import { decodeJwt } from 'jose/jwt/decode';
import { DEFAULT_TENANT_CLAIM } from '../../engine/host-side.ts';
import { validationError } from '../../engine/contract/errors.ts';

export interface TokenClaims {
  readonly tenantId: string;
  /** client_id, else azp, else sub (what the registry records as the actor). */
  readonly actor: string;
  readonly scopes: readonly string[];
  /** Seconds since the epoch; undefined when the token carries no `exp`. */
  readonly expiresAt: number | undefined;
}

function scopesOf(payload: JWTPayload): string[] {
  const { scope, scp } = payload as { scope?: unknown; scp?: unknown };
  const found: string[] = [];
  if (typeof scope === 'string') found.push(...scope.split(' '));
  if (typeof scp === 'string') found.push(...scp.split(' '));
  if (Array.isArray(scp)) found.push(...scp.filter((s): s is string => typeof s === 'string'));
  return [...new Set(found.filter((s) => s !== ''))].sort();
}

export function tokenClaims(token: string, tenantClaim = DEFAULT_TENANT_CLAIM): TokenClaims {
  let payload: JWTPayload;
  try {
    payload = decodeJwt(token);
  } catch {
    throw validationError('the access token is not a JWT: the console reads its tenant and scopes from the token', [
      { path: 'token', message: 'expected a JWT access token (three dot-separated parts)' },
    ]);
  }
  const tenant = (payload as Record<string, unknown>)[tenantClaim];
  if (typeof tenant !== 'string' || tenant === '') {
    throw validationError(
      `the access token has no tenant claim (${tenantClaim}); ask the identity provider's administrator to add it`,
      [{ path: 'token', message: `no ${tenantClaim} claim` }],
    );
  }
  const { client_id: clientId, azp } = payload as { client_id?: unknown; azp?: unknown };
  const actor =
    [clientId, azp, payload.sub].find((value): value is string => typeof value === 'string' && value !== '') ??
    'unknown';
  return {
    tenantId: tenant,
    actor,
    scopes: scopesOf(payload),
    expiresAt: typeof payload.exp === 'number' ? payload.exp : undefined,
  };
}

/** True when the token's `exp` has passed (a token without `exp` is left to the registry). */
export function isExpired(claims: TokenClaims, nowSeconds = Date.now() / 1000): boolean {
  return claims.expiresAt !== undefined && claims.expiresAt <= nowSeconds;
}
