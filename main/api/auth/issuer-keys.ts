/**
 * The identity provider's signing keys: the JWKS named by the issuer's metadata
 * (`/.well-known/openid-configuration`, else RFC 8414 `/.well-known/oauth-authorization-server`), or the
 * configured JwksUri. jose's remote key set caches the keys and, on a token whose `kid` it does not know,
 * fetches them again at most once per cooldown (a new key after rotation is found; a flood of made-up
 * `kid`s costs one fetch per cooldown). Metadata is fetched over https (loopback or the development switch
 * excepted), without following redirects, and its `issuer` must equal the configured one (mix-up defence).
 */
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import { request } from 'undici';
import { transportProblem } from '../../net/loopback.ts';

export interface IssuerKeysOptions {
  readonly issuer: string;
  readonly jwksUri?: string;
  readonly allowInsecureHttp: boolean;
  /** Minimum time between two key fetches on an unknown `kid` (default 30 s). */
  readonly cooldownMs?: number;
  readonly timeoutMs?: number;
}

export class IssuerKeyError extends Error {}

function checkedUrl(text: string, what: string, allowInsecureHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new IssuerKeyError(`${what} is not a URL`);
  }
  const problem = transportProblem(url, allowInsecureHttp);
  if (problem !== undefined) throw new IssuerKeyError(`${what}: ${problem}`);
  return url;
}

async function metadataJwksUri(options: IssuerKeysOptions): Promise<string> {
  const base = options.issuer.replace(/\/+$/, '');
  for (const suffix of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
    const url = checkedUrl(`${base}${suffix}`, 'the issuer', options.allowInsecureHttp);
    const timeout = options.timeoutMs ?? 5000;
    const response = await request(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
    if (response.statusCode === 404) {
      await response.body.dump();
      continue;
    }
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new IssuerKeyError(`the issuer's metadata answered ${String(response.statusCode)}`);
    }
    const metadata = (await response.body.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (metadata.issuer !== options.issuer) throw new IssuerKeyError("the issuer's metadata names another issuer");
    if (typeof metadata.jwks_uri !== 'string') throw new IssuerKeyError("the issuer's metadata names no jwks_uri");
    return metadata.jwks_uri;
  }
  throw new IssuerKeyError('the issuer publishes no metadata; configure Api.JwksUri');
}

/** A key getter for jwtVerify; metadata is read on first use and read again after a failure. */
export function issuerKeys(options: IssuerKeysOptions): JWTVerifyGetKey {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  const load = async (): Promise<JWTVerifyGetKey> => {
    const uri = options.jwksUri ?? (await metadataJwksUri(options));
    return createRemoteJWKSet(checkedUrl(uri, 'the JWKS URI', options.allowInsecureHttp), {
      cooldownDuration: options.cooldownMs ?? 30_000,
      timeoutDuration: options.timeoutMs ?? 5000,
    });
  };
  return async (header, token) => {
    keys ??= load().catch((error: unknown) => {
      keys = undefined;
      throw error;
    });
    return (await keys)(header, token);
  };
}
