/**
 * Sign-in to a remote registry for a native app (RFC 8252): OAuth 2.0 authorization code with PKCE (S256,
 * RFC 7636) through the system browser and a one-shot loopback redirect listener; a public client (no
 * secret). openid-client 6 discovers the provider's endpoints, builds the authorization URL, checks the
 * answer's state and exchanges the code with the verifier. The tokens come back to the backend only.
 *
 *   begin ─▶ discovery ─▶ listener on 127.0.0.1 ─▶ authorization URL (state, S256 challenge) ─▶ browser
 *   browser ─▶ /callback?code&state ─▶ state checked, listener closed ─▶ code + verifier ─▶ tokens
 */
import type * as Oidc from 'openid-client';
import { EngineError } from '../../engine/contract/errors.ts';
import { isLoopbackHost } from '../net/loopback.ts';
import { listenForRedirect } from './loopback-redirect.ts';

/** openid-client (with jose, about 40 ms to load) is loaded at the first sign-in, not at the console's start. */
async function loadOidc(): Promise<typeof Oidc> {
  return import('openid-client');
}

export const REQUESTED_SCOPES = ['openid', 'mpi.admin', 'mpi.operations'] as const;

/**
 * The scopes asked for: the registry's, plus `offline_access` (OpenID Connect Core §11) when the provider lists it
 * in its discovery document. Several providers give a native app a refresh token only for that scope; without one
 * the console would ask the user to sign in again each time the access token expires. A provider that does not
 * list it is not asked (some refuse an unknown scope).
 */
export function requestedScopes(supported: readonly string[] | undefined): string {
  return [...REQUESTED_SCOPES, ...(supported?.includes('offline_access') === true ? ['offline_access'] : [])].join(' ');
}

export interface SignInRequest {
  readonly issuer: string;
  readonly clientId: string;
  /** The registry API's resource indicator (RFC 8707), sent with both requests when given. */
  readonly resource?: string;
}

export interface SignedIn {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** From the verified ID token: name, else email, else subject. */
  readonly identity: string | null;
}

export interface PendingSignIn {
  readonly authorizationUrl: string;
  readonly result: Promise<SignedIn>;
  cancel(): void;
}

function providerError(oidc: typeof Oidc, issuer: string, error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  // fetch and openid-client wrap the socket's error: its code is a few causes down.
  let code: string | undefined;
  for (
    let at: unknown = error, depth = 0;
    at !== undefined && at !== null && depth < 5 && code === undefined;
    depth++
  ) {
    const candidate = (at as { code?: unknown }).code;
    if (typeof candidate === 'string' && /^[A-Z][A-Z0-9_]+$/.test(candidate) && !candidate.startsWith('OAUTH_'))
      code = candidate;
    at = (at as { cause?: unknown }).cause;
  }
  const text = code ?? (error instanceof Error ? error.name : 'error');
  if (text.includes('CERT') || text.startsWith('ERR_TLS') || text.includes('SELF_SIGNED')) {
    return new EngineError(
      'remote_http',
      `the TLS certificate of the identity provider ${issuer} is not trusted (${text})`,
    );
  }
  if (text === 'ECONNREFUSED' || text === 'ENOTFOUND' || text === 'EAI_AGAIN' || text.includes('TIMEOUT')) {
    return new EngineError(
      'remote_http',
      `the identity provider ${issuer} cannot be reached (${text}); check its address and your network`,
    );
  }
  if (error instanceof oidc.ResponseBodyError)
    return new EngineError('forbidden', `the identity provider refused the sign-in (${error.error}); sign in again`);
  return new EngineError(
    'remote_http',
    `the sign-in with ${issuer} failed (${text}); check the identity provider's address and the client ID`,
  );
}

async function discover(oidc: typeof Oidc, request: SignInRequest): Promise<Oidc.Configuration> {
  const issuer = new URL(request.issuer);
  // openid-client refuses plain http; a loopback provider (development) is the one exception.
  const insecure = issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname);
  try {
    return await oidc.discovery(
      issuer,
      request.clientId,
      undefined,
      oidc.None(),
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- marked so only to stand out: used for a loopback provider only
      insecure ? { execute: [oidc.allowInsecureRequests] } : {},
    );
  } catch (error) {
    throw providerError(oidc, request.issuer, error);
  }
}

export interface PkceParameters {
  readonly state: string;
  readonly verifier: string;
  readonly challenge: string;
}

/** A fresh state and PKCE pair for one sign-in (both from a CSPRNG, 32 bytes, base64url). */
export async function pkceParameters(): Promise<PkceParameters> {
  const oidc = await loadOidc();
  const verifier = oidc.randomPKCECodeVerifier();
  return { state: oidc.randomState(), verifier, challenge: await oidc.calculatePKCECodeChallenge(verifier) };
}

export async function beginSignIn(
  request: SignInRequest,
  options: { readonly timeoutMs?: number } = {},
): Promise<PendingSignIn> {
  const oidc = await loadOidc();
  const config = await discover(oidc, request);
  const pkce = await pkceParameters();
  const redirect = await listenForRedirect(pkce.state, options.timeoutMs ?? 5 * 60_000);
  const resource = request.resource === undefined || request.resource === '' ? {} : { resource: request.resource };
  const authorizationUrl = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirect.redirectUri,
    scope: requestedScopes(config.serverMetadata().scopes_supported),
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    state: pkce.state,
    ...resource,
  });
  const result = (async (): Promise<SignedIn> => {
    const callback = await redirect.callback;
    let tokens: Oidc.TokenEndpointResponse & Oidc.TokenEndpointResponseHelpers;
    try {
      tokens = await oidc.authorizationCodeGrant(
        config,
        callback,
        { pkceCodeVerifier: pkce.verifier, expectedState: pkce.state },
        resource,
      );
    } catch (error) {
      throw providerError(oidc, request.issuer, error);
    }
    const claims = tokens.claims();
    const identity =
      [claims?.name, claims?.email, claims?.sub].find(
        (value): value is string => typeof value === 'string' && value !== '',
      ) ?? null;
    return {
      accessToken: tokens.access_token,
      ...(tokens.refresh_token === undefined ? {} : { refreshToken: tokens.refresh_token }),
      identity,
    };
  })();
  result.catch(() => undefined);
  return {
    authorizationUrl: authorizationUrl.href,
    result,
    cancel: () => {
      redirect.cancel();
    },
  };
}

/** A new access token from a refresh token (the provider may rotate the refresh token too). */
export async function refreshSignIn(
  request: SignInRequest,
  refreshToken: string,
): Promise<{ accessToken: string; refreshToken?: string }> {
  const oidc = await loadOidc();
  const config = await discover(oidc, request);
  try {
    const tokens = await oidc.refreshTokenGrant(
      config,
      refreshToken,
      request.resource === undefined ? undefined : { resource: request.resource },
    );
    return {
      accessToken: tokens.access_token,
      ...(tokens.refresh_token === undefined ? {} : { refreshToken: tokens.refresh_token }),
    };
  } catch (error) {
    throw providerError(oidc, request.issuer, error);
  }
}
