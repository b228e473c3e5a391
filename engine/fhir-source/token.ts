/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4) for a source, with openid-client 6: the access token is cached
 * until shortly before it expires and fetched again once when the FHIR server answers 401 (the caller asks
 * for a fresh one). The token endpoint is reached through the source's transport (its CAs, no redirects).
 * Errors carry the status and the OAuth error code (RFC 6749 §5.2, a fixed vocabulary), never the secret,
 * the token or the response body. openid-client loads with the first token request (about 0.1 s with what it
 * needs): most processes never reach a source.
 */
import type * as Oauth from 'openid-client';
import type { Transport } from './transport.ts';
import { isTransientStatus, retryAfterMs } from '../net/transient.ts';
import { networkFailure, SourceAborted, SourceError } from './source-error.ts';

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

/** True when the error (or one it wraps) is an AbortSignal.timeout firing: the request's deadline passed. */
function timedOut(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth++) {
    if ((current as { name?: unknown }).name === 'TimeoutError') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The HTTP response an error carries: openid-client puts it on `response`, oauth4webapi on `cause`. */
function responseOf(error: unknown): { readonly status: number; readonly headers?: Headers } | undefined {
  for (let current: unknown = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth++) {
    const candidate = current as { status?: unknown; headers?: unknown; response?: unknown; cause?: unknown };
    const response = candidate.response as { status?: unknown; headers?: unknown } | undefined;
    if (typeof response?.status === 'number')
      return { status: response.status, ...(response.headers instanceof Headers ? { headers: response.headers } : {}) };
    if (typeof candidate.status === 'number')
      return {
        status: candidate.status,
        ...(candidate.headers instanceof Headers ? { headers: candidate.headers } : {}),
      };
    current = candidate.cause;
  }
  return undefined;
}

function tokenFailure(oauth: typeof Oauth, error: unknown, timedOut: boolean, aborted: boolean): SourceError {
  if (aborted) return new SourceAborted();
  if (timedOut) return new SourceError(`${WHAT}: no complete answer in time (RequestTimeoutSeconds) (transient)`, true);
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) {
    const code = /^[a-z_]{1,40}$/.test(error.error) ? ` (${error.error})` : '';
    const status = error instanceof oauth.ResponseBodyError ? error.status : 400;
    if (isTransientStatus(status))
      return new SourceError(`${WHAT} answered ${String(status)}${code} (transient)`, true);
    return new SourceError(
      `${WHAT} refused the client credentials: ${String(status)}${code}; check ClientId, the client secret and Scope`,
      false,
    );
  }
  const response = responseOf(error);
  if (response !== undefined) {
    const { status } = response;
    if (isTransientStatus(status)) {
      return new SourceError(
        `${WHAT} answered ${String(status)} (transient)`,
        true,
        retryAfterMs(response.headers?.get('retry-after') ?? undefined),
      );
    }
    if (status >= 300 && status < 400)
      return new SourceError(
        `${WHAT} answered with a redirect (${String(status)}); redirects are never followed`,
        false,
      );
    return new SourceError(
      `${WHAT} answered ${String(status)}; check TokenEndpoint, ClientId, the client secret and Scope`,
      false,
    );
  }
  if (error instanceof oauth.ClientError)
    return new SourceError(`${WHAT}: the response was not a usable token response (${error.code ?? 'invalid'})`, false);
  return networkFailure(error, WHAT);
}

export class TokenSource {
  private readonly endpoint: URL;
  private config: Oauth.Configuration | undefined;
  private cached: { readonly token: string; readonly renewAt: number } | undefined;
  /** The token request in flight, shared by concurrent callers, and the signal that abandons it. */
  private pending: Promise<string> | undefined;
  private signal: AbortSignal | undefined;

  constructor(
    private readonly credentials: ClientCredentials,
    private readonly transport: Transport,
    private readonly now: () => number = Date.now,
  ) {
    this.endpoint = new URL(credentials.tokenEndpoint);
  }

  private configure(oauth: typeof Oauth): Oauth.Configuration {
    const { credentials, endpoint } = this;
    // No discovery: the token endpoint is configured, and client credentials need nothing else of the issuer.
    const config = new oauth.Configuration(
      { issuer: endpoint.origin, token_endpoint: endpoint.href },
      credentials.clientId,
      undefined,
      oauth.ClientSecretPost(credentials.clientSecret),
    );
    config[oauth.customFetch] = this.transport.fetchFor(() => this.signal) as unknown as Oauth.CustomFetch;
    // openid-client's own timeout (seconds) matches the transport's deadline; the transport enforces it too.
    config.timeout = Math.ceil(this.transport.requestTimeoutMs / 1000);
    // Development only, and refused in production by the configuration (AllowInsecureHttp).
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated only to stand out; this is that development switch
    if (credentials.allowInsecureHttp && endpoint.protocol === 'http:') oauth.allowInsecureRequests(config);
    return config;
  }

  /** A valid access token: the cached one, or a new one from the token endpoint (abandoned when `signal` aborts). */
  async token(signal?: AbortSignal): Promise<string> {
    if (this.cached !== undefined && this.now() < this.cached.renewAt) return this.cached.token;
    if (signal?.aborted === true) throw new SourceAborted();
    this.pending ??= this.fetchToken(signal).finally(() => {
      this.pending = undefined;
      this.signal = undefined;
    });
    return this.pending;
  }

  private async fetchToken(signal: AbortSignal | undefined): Promise<string> {
    this.signal = signal;
    const oauth = await import('openid-client');
    this.config ??= this.configure(oauth);
    let response;
    try {
      response = await oauth.clientCredentialsGrant(this.config, { scope: this.credentials.scope });
    } catch (error) {
      throw tokenFailure(oauth, error, timedOut(error), signal?.aborted === true);
    }
    if (
      typeof response.access_token !== 'string' ||
      response.access_token === '' ||
      response.token_type.toLowerCase() !== 'bearer'
    ) {
      throw new SourceError(`${WHAT} did not return a bearer access token`, false);
    }
    const lifetime =
      typeof response.expires_in === 'number' && response.expires_in > 0
        ? response.expires_in * 1000
        : DEFAULT_LIFETIME_MS;
    this.cached = {
      token: response.access_token,
      renewAt: this.now() + Math.max(0, lifetime - Math.min(EXPIRY_MARGIN_MS, lifetime / 2)),
    };
    return response.access_token;
  }

  /** The cached token while it is valid, without a request. */
  cachedToken(): string | undefined {
    return this.cached !== undefined && this.now() < this.cached.renewAt ? this.cached.token : undefined;
  }

  /** Forgets the cached token (the FHIR server answered 401). */
  invalidate(): void {
    this.cached = undefined;
  }
}
