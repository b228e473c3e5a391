/**
 * Token validation details behind the matrix: keys from the issuer's metadata, fetched again once for an
 * unknown key ID (a rotated key is found; a flood of made-up key IDs costs one fetch per cooldown), the
 * metadata's issuer checked, an http issuer refused unless loopback, scopes from `scope` or `scp`, and
 * verified tokens remembered but never past their expiry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJWK, SignJWT } from 'jose';
import { ASYMMETRIC_ALGORITHMS } from '../../../engine/config/api.ts';
import { issuerKeys } from '../../../main/api/auth/issuer-keys.ts';
import { AuthFailure } from '../../../main/api/auth/principal.ts';
import { TokenVerifier } from '../../../main/api/auth/token-verifier.ts';
import { API_AUDIENCE, startIdentityProvider, type IdentityProvider } from '../../helpers/identity-provider.ts';
import { json, stubServer } from '../../helpers/stub-server.ts';

const now = (): number => Math.floor(Date.now() / 1000);

function verifier(idp: IdentityProvider, cooldownMs: number): TokenVerifier {
  return new TokenVerifier({
    issuer: idp.issuer,
    audience: API_AUDIENCE,
    keys: issuerKeys({ issuer: idp.issuer, allowInsecureHttp: false, cooldownMs }),
    algorithms: ASYMMETRIC_ALGORITHMS,
    clockSkewSeconds: 0,
    tenantClaim: 'mpi_tenant',
  });
}

async function refusal(promise: Promise<unknown>): Promise<AuthFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AuthFailure)) throw new Error(`expected an AuthFailure, got ${String(error)}`);
  return error;
}

describe('token verification', () => {
  let idp: IdentityProvider;
  beforeAll(async () => {
    idp = await startIdentityProvider([{ clientId: 'c1', secret: 's1', tenant: 't1' }]);
  });
  afterAll(() => idp.close());

  async function signed(claims: Record<string, unknown>, kid?: string): Promise<string> {
    return new SignJWT({ mpi_tenant: 't1', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: kid ?? idp.signingKey.kid ?? '' })
      .setIssuer(idp.issuer)
      .setAudience(API_AUDIENCE)
      .setExpirationTime(typeof claims.exp === 'number' ? claims.exp : now() + 600)
      .sign(await importJWK(idp.signingKey, 'RS256'));
  }

  it('fetches the keys once, again once for an unknown key ID, and finds a rotated key', async () => {
    const v = verifier(idp, 0);
    const fetchesAtStart = idp.jwksFetches;
    const principal = await v.verify(await idp.token('c1', 'mpi.operations'));
    expect(principal).toMatchObject({ tenantId: 't1', clientId: 'c1' });
    expect([...principal.scopes]).toEqual(['mpi.operations']);
    await v.verify(await idp.token('c1', 'mpi.admin'));
    expect(idp.jwksFetches - fetchesAtStart).toBe(1);

    const unknownKid = await refusal(v.verify(await signed({ scope: 'mpi.admin' }, 'no-such-kid')));
    expect(unknownKid.status).toBe(401);
    expect(idp.jwksFetches - fetchesAtStart).toBe(2);

    await idp.rotate();
    const rotated = await idp.token('c1', 'mpi.admin');
    expect((await v.verify(rotated)).tenantId).toBe('t1');
    expect(idp.jwksFetches - fetchesAtStart).toBe(3);
  });

  it('does not fetch the keys again for made-up key IDs within the cooldown', async () => {
    const v = verifier(idp, 60_000);
    await v.verify(await idp.token('c1', 'mpi.admin'));
    const fetches = idp.jwksFetches;
    for (let i = 0; i < 5; i++) await refusal(v.verify(await signed({ scope: 'mpi.admin' }, `made-up-${String(i)}`)));
    expect(idp.jwksFetches).toBe(fetches);
  });

  it('reads scopes from scope or scp (string or array)', async () => {
    const v = verifier(idp, 0);
    expect([...(await v.verify(await signed({ scp: ['mpi.admin', 'mpi.operations'] }))).scopes].sort()).toEqual([
      'mpi.admin',
      'mpi.operations',
    ]);
    expect([...(await v.verify(await signed({ scp: 'mpi.operations' }))).scopes]).toEqual(['mpi.operations']);
    expect([...(await v.verify(await signed({}))).scopes]).toEqual([]);
  });

  it('remembers a verified token but never past its expiry', async () => {
    const keys = issuerKeys({ issuer: idp.issuer, allowInsecureHttp: false, cooldownMs: 0 });
    let keyLookups = 0;
    const v = new TokenVerifier({
      issuer: idp.issuer,
      audience: API_AUDIENCE,
      keys: (header, token) => {
        keyLookups++;
        return keys(header, token);
      },
      algorithms: ['RS256'],
      clockSkewSeconds: 0,
      tenantClaim: 'mpi_tenant',
    });
    const shortLived = await signed({ scope: 'mpi.admin', exp: now() + 2 });
    expect((await v.verify(shortLived)).tenantId).toBe('t1');
    expect((await v.verify(shortLived)).tenantId).toBe('t1');
    expect(keyLookups).toBe(1);
    // One changed byte is another token: verified again (and refused).
    await refusal(v.verify(`${shortLived.slice(0, -2)}${shortLived.endsWith('AA') ? 'BB' : 'AA'}`));
    expect(keyLookups).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 3100));
    expect((await refusal(v.verify(shortLived))).message).toBe('the token has expired');
  });

  it('refuses metadata naming another issuer, an issuer without metadata, and a plain-http issuer that is not loopback', async () => {
    const liar = await stubServer((req, res) => {
      if (req.url === '/.well-known/openid-configuration')
        json(res, 200, { issuer: 'https://someone-else.example', jwks_uri: `${idp.issuer}/jwks` });
      else json(res, 404, {});
    });
    const silent = await stubServer((_req, res) => {
      json(res, 404, {});
    });
    const token = await idp.token('c1', 'mpi.admin');
    for (const issuer of [liar.url, silent.url]) {
      const v = new TokenVerifier({
        issuer,
        audience: API_AUDIENCE,
        keys: issuerKeys({ issuer, allowInsecureHttp: false }),
        algorithms: ['RS256'],
        clockSkewSeconds: 0,
        tenantClaim: 'mpi_tenant',
      });
      expect((await refusal(v.verify(token))).status).toBe(503);
    }
    const remote = 'http://192.0.2.1';
    const v = new TokenVerifier({
      issuer: remote,
      audience: API_AUDIENCE,
      keys: issuerKeys({ issuer: remote, allowInsecureHttp: false }),
      algorithms: ['RS256'],
      clockSkewSeconds: 0,
      tenantClaim: 'mpi_tenant',
    });
    expect((await refusal(v.verify(token))).status).toBe(503);
    expect(silent.received).toHaveLength(2);
    await liar.close();
    await silent.close();
  });
});
