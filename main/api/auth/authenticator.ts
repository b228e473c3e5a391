/**
 * The server's authenticator from the configuration file: the identity provider named in Api (Issuer,
 * Audience, optional JwksUri), or the development issuer with `serve --dev-auth`.
 */
import { ApiSettingsSchema, ASYMMETRIC_ALGORITHMS, type EngineEnv } from '../../../engine/index.ts';
import { validationError } from '../../../engine/contract/errors.ts';
import { bearerToken } from './bearer.ts';
import { DEV_ALGORITHM, DEV_AUDIENCE, DEV_ISSUER, devSigningKey, devVerificationKeys } from './dev-auth.ts';
import { issuerKeys } from './issuer-keys.ts';
import type { Authenticator } from './principal.ts';
import { TokenVerifier } from './token-verifier.ts';

export function bearerAuthenticator(verifier: TokenVerifier): Authenticator {
  return { authenticate: (authorization) => verifier.verify(bearerToken(authorization)) };
}

export async function authenticatorFor(env: EngineEnv, devAuth: boolean): Promise<Authenticator> {
  const settings = env.settings();
  const api = settings.Api ?? ApiSettingsSchema.parse({});
  if (devAuth) {
    const key = await devSigningKey(env);
    return bearerAuthenticator(
      new TokenVerifier({
        issuer: DEV_ISSUER,
        audience: DEV_AUDIENCE,
        keys: devVerificationKeys(key),
        algorithms: [DEV_ALGORITHM],
        clockSkewSeconds: api.ClockSkewSeconds,
        tenantClaim: api.TenantClaim,
      }),
    );
  }
  const missing = [
    ...(api.Issuer === undefined
      ? [{ path: 'Api.Issuer', message: "the identity provider's issuer identifier (https URL) is required" }]
      : []),
    ...(api.Audience === undefined
      ? [{ path: 'Api.Audience', message: 'the audience (aud) of tokens for this registry is required' }]
      : []),
  ];
  if (api.Issuer === undefined || api.Audience === undefined) {
    throw validationError(
      `${env.settingsPath} names no identity provider; add the Api section, or use --dev-auth on a loopback address for local use`,
      missing,
    );
  }
  return bearerAuthenticator(
    new TokenVerifier({
      issuer: api.Issuer,
      audience: api.Audience,
      keys: issuerKeys({
        issuer: api.Issuer,
        allowInsecureHttp: api.AllowInsecureHttp,
        ...(api.JwksUri === undefined ? {} : { jwksUri: api.JwksUri }),
      }),
      algorithms: api.Algorithms ?? ASYMMETRIC_ALGORITHMS,
      clockSkewSeconds: api.ClockSkewSeconds,
      tenantClaim: api.TenantClaim,
    }),
  );
}
