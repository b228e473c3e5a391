/**
 * A signed-in console session keeps working past its access token's lifetime: against a real OpenID provider
 * (oidc-provider) that gives refresh tokens and rotates them, SessionTokens renews an expired token before the
 * request, renews on demand (the remote client asks after a 401), saves the rotated pair, and a refresh token the
 * provider no longer honours ends in "sign in again", never in a message carrying a token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { beginSignIn } from '../../../main/backend/sign-in.ts';
import { SessionTokens } from '../../../main/backend/session-tokens.ts';
import type { StoredSession } from '../../../main/backend/token-store.ts';
import {
  CONSOLE_CLIENT_ID,
  LOGIN_AUDIENCE,
  startLoginProvider,
  type LoginProvider,
} from '../../helpers/login-provider.ts';

const USERS = { 'admin@t1.example': { tenant: 't1', scopes: ['mpi.admin', 'mpi.operations'] } };
const TTL_SECONDS = 2;

let idp: LoginProvider;

beforeAll(async () => {
  idp = await startLoginProvider(USERS, [], { refreshTokens: true, accessTokenTtl: TTL_SECONDS });
});
afterAll(async () => {
  await idp.close();
});

async function signedInSession(): Promise<StoredSession> {
  const request = { issuer: idp.issuer, clientId: CONSOLE_CLIENT_ID, resource: LOGIN_AUDIENCE };
  const pending = await beginSignIn(request);
  await fetch(await idp.signIn(pending.authorizationUrl, 'admin@t1.example'));
  const signedIn = await pending.result;
  return { baseUrl: 'https://registry.test', method: 'sign-in', ...request, ...signedIn };
}

async function verified(token: string): Promise<Record<string, unknown>> {
  const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(`${idp.issuer}/jwks`)), {
    issuer: idp.issuer,
    audience: LOGIN_AUDIENCE,
  });
  return payload;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('a signed-in session past its access token', () => {
  it('renews on demand: a new signed token for the same tenant and scopes, the rotated refresh token saved', async () => {
    const first = await signedInSession();
    expect(first.refreshToken).toEqual(expect.any(String));
    const saved: StoredSession[] = [];
    const tokens = new SessionTokens(first, (session) => saved.push(session));
    expect(tokens.refresh).toBeDefined();
    await tokens.refresh?.();
    const renewed = await tokens.token();
    expect(renewed).not.toBe(first.accessToken);
    expect(await verified(renewed)).toMatchObject({
      mpi_tenant: 't1',
      scope: 'mpi.admin mpi.operations',
      sub: 'admin@t1.example',
    });
    expect(saved).toHaveLength(1);
    expect(saved[0]?.accessToken).toBe(renewed);
    // Public clients get a new refresh token with each use (rotation), and the session keeps the new one.
    expect(saved[0]?.refreshToken).not.toBe(first.refreshToken);
    expect(tokens.claims.tenantId).toBe('t1');
  });

  it('renews an expired token before sending it, without a refused request first', async () => {
    const first = await signedInSession();
    const tokens = new SessionTokens(first);
    expect(await tokens.token()).toBe(first.accessToken);
    const exp = decodeJwt(first.accessToken).exp ?? 0;
    await sleep(Math.max(0, exp * 1000 - Date.now()) + 50);
    const renewed = await tokens.token();
    expect(renewed).not.toBe(first.accessToken);
    expect((decodeJwt(renewed).exp ?? 0) * 1000).toBeGreaterThan(Date.now());
  });

  it('asks to sign in again when the provider no longer honours the refresh token, naming no token', async () => {
    const first = await signedInSession();
    await new SessionTokens(first).refresh?.();
    // The refresh token was rotated: replaying the old one is refused (and revokes the grant, as RFC 9700 advises).
    const stale = new SessionTokens(first);
    const failure = await stale.refresh?.().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({
      kind: 'forbidden',
      message: 'your sign-in has expired or was refused by the registry: sign in again',
    });
    const text = JSON.stringify(failure) + String(failure);
    for (const secret of [first.accessToken, first.refreshToken ?? 'none']) expect(text.includes(secret)).toBe(false);
  });

  it('a pasted token has no refresh: an expired one asks for a new token', async () => {
    const first = await signedInSession();
    const pasted = new SessionTokens({
      baseUrl: first.baseUrl,
      method: 'token',
      accessToken: first.accessToken,
      identity: null,
    });
    expect(pasted.refresh).toBeUndefined();
    const exp = decodeJwt(first.accessToken).exp ?? 0;
    await sleep(Math.max(0, exp * 1000 - Date.now()) + 50);
    await expect(pasted.token()).rejects.toMatchObject({
      kind: 'forbidden',
      message: 'the access token has expired or was refused by the registry: paste a new token',
    });
  });
});
