/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4) for a source, with openid-client 6: the access token is cached
 * until shortly before it expires and fetched again once when the FHIR server answers 401 (the caller asks
 * for a fresh one). The token endpoint is reached through the source's transport (its CAs, no redirects).
 * Errors carry the status and the OAuth error code (RFC 6749 §5.2, a fixed vocabulary), never the secret,
 * the token or the response body.
 */
import * as oauth from 'openid-client';
import type { Transport } from './transport.ts';
import { retryAfterMs } from '../net/transient.ts';
import { networkFailure, SourceError } from './source-error.ts';

/** A token is renewed this long before the expiry its server announced. */
const EXPIRY_MARGIN_MS = 30_000;
/** When the server does not say how long a token lives. */
const DEFAULT_LIFETIME_MS = 5 * 60_000;

export interface ClientCredentials {
  readonly tokenEndpoint: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scope: string;
  readonly allowInsecureHttp: boolean;
}

const WHAT = 'the token endpoint';

function tokenFailure(error: unknown): SourceError {
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) {
    const code = /^[a-z_]{1,40}$/.test(error.error) ? ` (${error.error})` : '';
    const status = error instanceof oauth.ResponseBodyError ? error.status : 400;
    if (status === 429 || status >= 500) return new SourceError(`${WHAT} answered ${String(status)}${code} (transient)`, true);
    return new SourceError(`${WHAT} refused the client credentials: ${String(status)}${code}; check ClientId, the client secret and Scope`, false);
  }
  const status = (error as { status?: unknown; response?: { status?: unknown; headers?: Headers } }).response?.status ?? (error as { status?: unknown }).status;
  if (typeof status === 'number') {
    if (status === 408 || status === 429 || status >= 500) {
      const after = (error as { response?: { headers?: Headers } }).response?.headers?.get('retry-after') ?? undefined;
      return new SourceError(`${WHAT} answered ${String(status)} (transient)`, true, retryAfterMs(after ?? undefined));
    }
    if (status >= 300 && status < 400) return new SourceError(`${WHAT} answered with a redirect (${String(status)}); redirects are never followed`, false);
    return new SourceError(`${WHAT} answered ${String(status)}; check TokenEndpoint, ClientId, the client secret and Scope`, false);
  }
  if (error instanceof oauth.ClientError) return new SourceError(`${WHAT}: the response was not a usable token response (${error.code ?? 'invalid'})`, false);
  return networkFailure(error, WHAT);
}

export class TokenSource {
  private readonly config: oauth.Configuration;
  private cached: { readonly token: string; readonly renewAt: number } | undefined;

  constructor(
    private readonly credentials: ClientCredentials,
    transport: Transport,
    private readonly now: () => number = Date.now,
  ) {
    const endpoint = new URL(credentials.tokenEndpoint);
    // No discovery: the token endpoint is configured, and client credentials need nothing else of the issuer.
    this.config = new oauth.Configuration({ issuer: endpoint.origin, token_endpoint: endpoint.href }, credentials.clientId, undefined, oauth.ClientSecretPost(credentials.clientSecret));
    this.config[oauth.customFetch] = transport.fetch as unknown as oauth.CustomFetch;
    // Development only, and refused in production by the configuration (AllowInsecureHttp).
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated only to stand out; this is that development switch
    if (credentials.allowInsecureHttp && endpoint.protocol === 'http:') oauth.allowInsecureRequests(this.config);
  }

  /** A valid access token: the cached one, or a new one from the token endpoint. */
  async token(): Promise<string> {
    if (this.cached !== undefined && this.now() < this.cached.renewAt) return this.cached.token;
    let response;
    try {
      response = await oauth.clientCredentialsGrant(this.config, { scope: this.credentials.scope });
    } catch (error) {
      throw tokenFailure(error);
    }
    if (typeof response.access_token !== 'string' || response.access_token === '' || response.token_type.toLowerCase() !== 'bearer') {
      throw new SourceError(`${WHAT} did not return a bearer access token`, false);
    }
    const lifetime = typeof response.expires_in === 'number' && response.expires_in > 0 ? response.expires_in * 1000 : DEFAULT_LIFETIME_MS;
    this.cached = { token: response.access_token, renewAt: this.now() + Math.max(0, lifetime - Math.min(EXPIRY_MARGIN_MS, lifetime / 2)) };
    return response.access_token;
  }

  /** Forgets the cached token (the FHIR server answered 401). */
  invalidate(): void {
    this.cached = undefined;
  }
}
