/**
 * Sign-in for a native app against a real OpenID provider (oidc-provider, in-process) with its login page
 * driven over plain HTTP: PKCE S256 (checked against RFC 7636's published example), a fresh state per
 * sign-in checked on the way back, a one-shot loopback listener on 127.0.0.1 that closes after its one answer
 * (whatever it is) or its timeout, and tokens that come back to the caller only.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { beginSignIn, pkceParameters, requestedScopes } from '../../../main/backend/sign-in.ts';
import {
  CONSOLE_CLIENT_ID,
  LOGIN_AUDIENCE,
  startLoginProvider,
  type LoginProvider,
} from '../../helpers/login-provider.ts';

let idp: LoginProvider;

beforeAll(async () => {
  idp = await startLoginProvider({
    'admin@t1.example': { tenant: 't1', scopes: ['mpi.admin', 'mpi.operations'] },
    'operator@t1.example': { tenant: 't1', scopes: ['mpi.operations'] },
  });
});
afterAll(async () => {
  await idp.close();
});

async function refused(url: string): Promise<string> {
  try {
    await fetch(url);
    return 'answered';
  } catch (error) {
    return String((error as { cause?: { code?: string } }).cause?.code);
  }
}

describe('PKCE and state', () => {
  it('computes the S256 challenge of RFC 7636 appendix B', async () => {
    expect(await oidc.calculatePKCECodeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('gives each sign-in a fresh 43-character verifier and state', async () => {
    const [a, b] = [await pkceParameters(), await pkceParameters()];
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.verifier).not.toBe(b.verifier);
    expect(a.state).not.toBe(b.state);
    expect(a.challenge).toBe(await oidc.calculatePKCECodeChallenge(a.verifier));
  });

  it('asks for offline_access only from a provider whose discovery document lists it', async () => {
    expect(requestedScopes(undefined)).toBe('openid mpi.admin mpi.operations');
    expect(requestedScopes(['openid', 'profile'])).toBe('openid mpi.admin mpi.operations');
    expect(requestedScopes(['openid', 'offline_access'])).toBe('openid mpi.admin mpi.operations offline_access');
    // The test provider (oidc-provider) lists it.
    const discovered = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as {
      scopes_supported?: string[];
    };
    expect(discovered.scopes_supported).toContain('offline_access');
  });

  it('asks for the code with an S256 challenge, a state, the registry scopes and a 127.0.0.1 redirect; no secret', async () => {
    const first = await beginSignIn({ issuer: idp.issuer, clientId: CONSOLE_CLIENT_ID, resource: LOGIN_AUDIENCE });
    const second = await beginSignIn({ issuer: idp.issuer, clientId: CONSOLE_CLIENT_ID });
    try {
      const url = new URL(first.authorizationUrl);
      expect(url.origin).toBe(idp.issuer);
      const params = Object.fromEntries(url.searchParams);
      expect(params).toMatchObject({
        response_type: 'code',
        client_id: CONSOLE_CLIENT_ID,
        code_challenge_method: 'S256',
        scope: 'openid mpi.admin mpi.operations offline_access',
        resource: LOGIN_AUDIENCE,
      });
      expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(params.redirect_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      expect(params).not.toHaveProperty('client_secret');
      const other = Object.fromEntries(new URL(second.authorizationUrl).searchParams);
      expect(other.state).not.toBe(params.state);
      expect(other.code_challenge).not.toBe(params.code_challenge);
      expect(other.redirect_uri).not.toBe(params.redirect_uri);
    } finally {
      first.cancel();
      second.cancel();
    }
  });
});

describe('the loopback redirect listener', () => {
  it('signs in: the code is exchanged with the verifier, the token carries the granted scopes and tenant, and the listener is gone after its one use', async () => {
    const pending = await beginSignIn({ issuer: idp.issuer, clientId: CONSOLE_CLIENT_ID, resource: LOGIN_AUDIENCE });
    const redirectUri = new URL(pending.authorizationUrl).searchParams.get('redirect_uri') ?? '';
    // A browser's favicon request changes nothing.
    expect((await fetch(new URL('/favicon.ico', redirectUri))).status).toBe(404);
    const back = await idp.signIn(pending.authorizationUrl, 'operator@t1.example');
    expect(back.startsWith(redirectUri)).toBe(true);
    const answer = await fetch(back);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('return to the MPI Console');
    const signedIn = await pending.result;
    const claims = decodeJwt(signedIn.accessToken);
    expect(claims).toMatchObject({
      aud: LOGIN_AUDIENCE,
      scope: 'mpi.operations',
      mpi_tenant: 't1',
      sub: 'operator@t1.example',
    });
    expect(signedIn.identity).toBe('operator@t1.example');
    // One use: the same answer again finds nobody listening (and the code could not be redeemed twice anyway).
    expect(await refused(back)).toBe('ECONNREFUSED');
  });

  it('refuses an answer whose state is not the one sent, and closes', async () => {
    const pending = await beginSignIn({ issuer: idp.issuer, clientId: CONSOLE_CLIENT_ID });
    const redirectUri = new URL(pending.authorizationUrl).searchParams.get('redirect_uri') ?? '';
    const forged = await fetch(`${redirectUri}?code=stolen-code&state=attacker-state`);
    expect(forged.status).toBe(400);
    await expect(pending.result).rejects.toThrow(/did not carry the state the console sent.*sign in again/);
    expect(await refused(redirectUri)).toBe('ECONNREFUSED');
  });

  it("reports the provider's refusal by its error code, not its free text", async () => {
    const pending = await beginSignIn({ issuer: idp.issuer, clientId: CONSOLE_CLIENT_ID });
    const url = new URL(pending.authorizationUrl);
    const redirectUri = url.searchParams.get('redirect_uri') ?? '';
    await fetch(
      `${redirectUri}?error=access_denied&error_description=${encodeURIComponent('<script>x</script>')}&state=${url.searchParams.get('state') ?? ''}`,
    );
    const error = await pending.result.then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe('the identity provider ended the sign-in (access_denied); sign in again');
  });

  it('gives up after its timeout and closes', async () => {
    const pending = await beginSignIn({ issuer: idp.issuer, clientId: CONSOLE_CLIENT_ID }, { timeoutMs: 300 });
    const redirectUri = new URL(pending.authorizationUrl).searchParams.get('redirect_uri') ?? '';
    await expect(pending.result).rejects.toThrow(/not completed within .* sign in again/);
    expect(await refused(redirectUri)).toBe('ECONNREFUSED');
  });

  it('names an identity provider that cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${String((closed.address() as AddressInfo).port)}`;
    await new Promise((resolve) => closed.close(resolve));
    await expect(beginSignIn({ issuer, clientId: CONSOLE_CLIENT_ID })).rejects.toThrow(
      `the identity provider ${issuer} cannot be reached (ECONNREFUSED); check its address and your network`,
    );
  });
});
