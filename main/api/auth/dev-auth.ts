/**
 * Local use without an identity provider: `serve --dev-auth` (loopback only) accepts tokens that
 * `mpi-console token` signs with an ES256 key kept in the configuration file (Api.DevAuth, mode 0600). The
 * tokens look like an identity provider's (RFC 9068 `at+jwt`: iss, aud, sub, client_id, scope, the tenant
 * claim, iat, exp, jti) and go through the same validation as production tokens.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, importJWK, SignJWT, type JWTVerifyGetKey } from 'jose';
import {
  ApiSettingsSchema,
  DEFAULT_TENANT_CLAIM,
  type EngineEnv,
  type DevAuthSettings,
} from '../../../engine/index.ts';

export const DEV_ISSUER = 'urn:mpi-console:dev-auth';
export const DEV_AUDIENCE = 'urn:mpi-console:registry-api';
export const DEV_ALGORITHM = 'ES256';
/** A development token lives at most this long. */
export const MAX_DEV_TOKEN_SECONDS = 7 * 24 * 3600;

/** The configuration file beside the database. */
export type SettingsFile = Pick<EngineEnv, 'settings' | 'changeSettings' | 'settingsPath'>;

/**
 * The development signing key, created (and saved to the configuration file) when there is none yet. The
 * key is generated first (asynchronously), then kept under the configuration lock only if no other process
 * saved one meanwhile, so two first runs agree on one key.
 */
export async function devSigningKey(env: SettingsFile): Promise<DevAuthSettings> {
  const settings = env.settings();
  const existing = settings.Api?.DevAuth;
  if (existing !== undefined) return existing;
  const { privateKey } = await generateKeyPair(DEV_ALGORITHM, { extractable: true });
  const jwk = await exportJWK(privateKey);
  if (jwk.x === undefined || jwk.y === undefined || jwk.d === undefined)
    throw new Error('the generated key is not an EC key');
  const devAuth: DevAuthSettings = {
    PrivateKey: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d, kid: randomBytes(12).toString('base64url') },
    CreatedAt: new Date().toISOString(),
  };
  return env.changeSettings((current) => {
    const kept = current.Api?.DevAuth;
    if (kept !== undefined) return { next: current, commit: () => kept };
    const api = current.Api ?? ApiSettingsSchema.parse({});
    return { next: { ...current, Api: { ...api, DevAuth: devAuth } }, commit: () => devAuth };
  });
}

/** The public half only: what the development server verifies with. */
export function devVerificationKeys(devAuth: DevAuthSettings): JWTVerifyGetKey {
  const { kty, crv, x, y, kid } = devAuth.PrivateKey;
  return createLocalJWKSet({ keys: [{ kty, crv, x, y, kid, alg: DEV_ALGORITHM, use: 'sig' }] });
}

export interface DevTokenRequest {
  readonly tenantId: string;
  readonly scopes: readonly string[];
  readonly ttlSeconds: number;
  readonly clientId: string;
  readonly tenantClaim?: string;
}

export async function devToken(devAuth: DevAuthSettings, token: DevTokenRequest): Promise<string> {
  const key = await importJWK({ ...devAuth.PrivateKey, alg: DEV_ALGORITHM }, DEV_ALGORITHM);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    scope: token.scopes.join(' '),
    client_id: token.clientId,
    [token.tenantClaim ?? DEFAULT_TENANT_CLAIM]: token.tenantId,
  })
    .setProtectedHeader({ alg: DEV_ALGORITHM, kid: devAuth.PrivateKey.kid, typ: 'at+jwt' })
    .setIssuer(DEV_ISSUER)
    .setAudience(DEV_AUDIENCE)
    .setSubject(token.clientId)
    .setIssuedAt(now)
    .setExpirationTime(now + Math.min(token.ttlSeconds, MAX_DEV_TOKEN_SECONDS))
    .setJti(randomUUID())
    .sign(key);
}
