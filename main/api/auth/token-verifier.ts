/**
 * Access-token validation with jose: signature under the issuer's keys with an asymmetric algorithm from the
 * allowlist (`none` and HMAC are refused before any key is looked at), issuer, audience, expiry and
 * not-before within a small clock skew, `exp` required. Scopes come from `scope` (space-separated) or `scp`
 * (string or array); the tenant from the tenant claim, without which a token is refused.
 *
 * Verified tokens are remembered (bounded, keyed by the whole token string, so a changed byte is a new
 * token) and never used past their `exp`: a repeated request costs a map look-up, not a signature check.
 */
import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { AuthFailure, type Principal } from './principal.ts';

const TENANT_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
const CLIENT_PATTERN = /^[\x21-\x7e]{1,128}$/;

export interface TokenVerifierOptions {
  readonly issuer: string;
  readonly audience: string;
  readonly keys: JWTVerifyGetKey;
  readonly algorithms: readonly string[];
  readonly clockSkewSeconds: number;
  readonly tenantClaim: string;
  /** Verified tokens remembered at most (default 10,000). */
  readonly cacheSize?: number;
}

/** A fixed message per refusal reason: nothing of the token is echoed. */
function failureOf(error: unknown): AuthFailure {
  const invalid = (message: string): AuthFailure => new AuthFailure(401, 'invalid_token', message);
  if (error instanceof errors.JWTExpired) return invalid('the token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'nbf':
        return invalid('the token is not valid yet');
      case 'iss':
        return invalid('the token was issued by another issuer');
      case 'aud':
        return invalid('the token is meant for another audience');
      case 'exp':
        return invalid('the token has no valid expiry');
      default:
        return invalid('a claim of the token is invalid');
    }
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return invalid('the token is not signed with an allowed asymmetric algorithm');
  if (error instanceof errors.JWSSignatureVerificationFailed) return invalid('the token signature does not verify');
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return invalid("no signing key of the issuer matches the token's key ID and algorithm");
  }
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JOSENotSupported ||
    error instanceof errors.JWKInvalid
  ) {
    return invalid('the token is malformed');
  }
  if (error instanceof AuthFailure) return error;
  // Key fetch failures (timeout, refused, bad JWKS) are the identity provider's, not the caller's.
  return new AuthFailure(503, null, "the identity provider's signing keys could not be fetched; try again shortly");
}

function scopesOf(payload: JWTPayload): Set<string> {
  const scopes = new Set<string>();
  const { scope, scp } = payload as { scope?: unknown; scp?: unknown };
  if (typeof scope === 'string') for (const s of scope.split(' ')) if (s !== '') scopes.add(s);
  if (typeof scp === 'string') for (const s of scp.split(' ')) if (s !== '') scopes.add(s);
  if (Array.isArray(scp)) for (const s of scp) if (typeof s === 'string' && s !== '') scopes.add(s);
  return scopes;
}

function clientIdOf(payload: JWTPayload): string {
  const { client_id: clientId, azp } = payload as { client_id?: unknown; azp?: unknown };
  for (const candidate of [clientId, azp, payload.sub]) {
    if (typeof candidate === 'string' && CLIENT_PATTERN.test(candidate)) return candidate;
  }
  return 'unnamed-client';
}

export class TokenVerifier {
  private readonly verified = new Map<string, Principal>();
  private readonly cacheSize: number;

  constructor(private readonly options: TokenVerifierOptions) {
    this.cacheSize = options.cacheSize ?? 10_000;
  }

  async verify(token: string): Promise<Principal> {
    const known = this.verified.get(token);
    if (known !== undefined) {
      if (known.expiresAt * 1000 > Date.now()) return known;
      this.verified.delete(token);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.options.keys, {
        issuer: this.options.issuer,
        audience: this.options.audience,
        algorithms: [...this.options.algorithms],
        clockTolerance: this.options.clockSkewSeconds,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      throw failureOf(error);
    }
    const tenant = (payload as Record<string, unknown>)[this.options.tenantClaim];
    if (typeof tenant !== 'string' || !TENANT_PATTERN.test(tenant)) {
      throw new AuthFailure(
        401,
        'invalid_token',
        `the token carries no valid ${this.options.tenantClaim} claim (the tenant it acts for)`,
      );
    }
    const principal: Principal = {
      tenantId: tenant,
      clientId: clientIdOf(payload),
      scopes: scopesOf(payload),
      expiresAt: payload.exp ?? 0,
    };
    this.remember(token, principal);
    return principal;
  }

  private remember(token: string, principal: Principal): void {
    if (this.verified.size >= this.cacheSize) {
      // Oldest first (Map keeps insertion order): drop expired entries, else the oldest one.
      const now = Date.now();
      for (const [key, value] of this.verified) if (value.expiresAt * 1000 <= now) this.verified.delete(key);
      if (this.verified.size >= this.cacheSize) {
        const oldest = this.verified.keys().next();
        if (oldest.done !== true) this.verified.delete(oldest.value);
      }
    }
    this.verified.set(token, principal);
  }
}
