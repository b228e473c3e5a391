/**
 * The auth matrix: every route of the table × every way a token can be wrong, with tokens from a real OAuth
 * server in-process (oidc-provider, client credentials, JWT access tokens) and from `serve --dev-auth`.
 * Each is refused with the documented status and WWW-Authenticate challenge, and nothing changes in the
 * database. Forged tokens are signed with the real issuer's own key, so only the claim under test is wrong.
 */
import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, importJWK, SignJWT, type JWK } from 'jose';
import { API_AUDIENCE, startIdentityProvider, type IdentityProvider } from '../../helpers/identity-provider.ts';
import { serveApi, type ServedApi } from '../../helpers/api.ts';
import { databaseDigest } from '../../helpers/db-digest.ts';
import { suiteDir } from '../../helpers/temp.ts';
import { apiRegistry, callRoute, ROUTES, type Registry } from './fixtures.ts';
import { ProblemSchema } from '../../../main/net/api-routes.ts';
import { DEV_AUDIENCE, DEV_ISSUER, devSigningKey, devToken } from '../../../main/api/auth/dev-auth.ts';
import type { ApiSettings } from '../../../engine/config/api.ts';

interface Issuer {
  readonly name: string;
  readonly iss: string;
  readonly aud: string;
  readonly alg: 'RS256' | 'ES256';
  readonly key: JWK;
  /** A genuine token with these scopes for this tenant (undefined: no tenant claim). */
  genuine(scope: string, tenant: string | undefined): Promise<string>;
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = (): number => Math.floor(Date.now() / 1000);

async function forged(
  issuer: Issuer,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const key = await importJWK(issuer.key, issuer.alg);
  return new SignJWT({ scope: 'mpi.admin mpi.operations', mpi_tenant: 't1', client_id: 'forger', ...claims })
    .setProtectedHeader({ alg: issuer.alg, kid: issuer.key.kid ?? '', typ: 'at+jwt', ...header })
    .setIssuer(typeof claims.iss === 'string' ? claims.iss : issuer.iss)
    .setAudience(typeof claims.aud === 'string' ? claims.aud : issuer.aud)
    .setIssuedAt(typeof claims.iat === 'number' ? claims.iat : now())
    .setExpirationTime(typeof claims.exp === 'number' ? claims.exp : now() + 600)
    .sign(key);
}

/** The token cases of the matrix: name → Authorization header (undefined: none) and the expected refusal. */
async function badTokens(
  issuer: Issuer,
): Promise<{ name: string; header: string | undefined; status: number; error: string | null }[]> {
  const valid = await issuer.genuine('mpi.admin mpi.operations', 't1');
  const [head, payload, signature] = valid.split('.') as [string, string, string];
  const flipped = signature.slice(0, 10) + (signature[10] === 'A' ? 'B' : 'A') + signature.slice(11);
  const publicPem = createPublicKey({ key: issuer.key as never, format: 'jwk' }).export({
    type: 'spki',
    format: 'pem',
  });
  const hmac = await new SignJWT({ scope: 'mpi.admin mpi.operations', mpi_tenant: 't1' })
    .setProtectedHeader({ alg: 'HS256', kid: issuer.key.kid ?? '' })
    .setIssuer(issuer.iss)
    .setAudience(issuer.aud)
    .setExpirationTime(now() + 600)
    .sign(new Uint8Array(Buffer.from(publicPem)));
  const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`;
  return [
    { name: 'no token', header: undefined, status: 401, error: null },
    { name: 'malformed', header: 'Bearer not-a-token', status: 401, error: 'invalid_token' },
    {
      name: 'expired',
      header: `Bearer ${await forged(issuer, { iat: now() - 7200, exp: now() - 3600 })}`,
      status: 401,
      error: 'invalid_token',
    },
    {
      name: 'not yet valid',
      header: `Bearer ${await forged(issuer, { nbf: now() + 3600, exp: now() + 7200 })}`,
      status: 401,
      error: 'invalid_token',
    },
    {
      name: 'wrong issuer',
      header: `Bearer ${await forged(issuer, { iss: 'https://issuer.invalid' })}`,
      status: 401,
      error: 'invalid_token',
    },
    {
      name: 'wrong audience',
      header: `Bearer ${await forged(issuer, { aud: 'https://another-api.invalid' })}`,
      status: 401,
      error: 'invalid_token',
    },
    { name: 'bad signature', header: `Bearer ${head}.${payload}.${flipped}`, status: 401, error: 'invalid_token' },
    { name: 'alg none', header: `Bearer ${unsigned}`, status: 401, error: 'invalid_token' },
    { name: 'HMAC-signed with the public key', header: `Bearer ${hmac}`, status: 401, error: 'invalid_token' },
    {
      name: 'no tenant claim',
      header: `Bearer ${await issuer.genuine('mpi.admin mpi.operations', undefined)}`,
      status: 401,
      error: 'invalid_token',
    },
    {
      name: 'other tenant (not registered here)',
      header: `Bearer ${await issuer.genuine('mpi.admin mpi.operations', 't-elsewhere')}`,
      status: 404,
      error: null,
    },
  ];
}

interface Started {
  readonly issuer: Issuer;
  readonly api: ServedApi;
  readonly close: () => Promise<void>;
}

function matrix(name: string, start: (registry: Registry) => Promise<Started>): void {
  describe(`auth matrix with tokens from ${name}`, () => {
    const dir = suiteDir();
    let registry: Registry;
    let issuer: Issuer;
    let api: ServedApi;
    let close: () => Promise<void>;

    beforeAll(async () => {
      registry = await apiRegistry(dir);
      ({ issuer, api, close } = await start(registry));
    });
    afterAll(async () => {
      await close();
      registry.engine.close();
    });

    it('refuses every route for every bad token with the documented status, and changes nothing', async () => {
      const before = databaseDigest(registry.engine.env.store);
      const cases = await badTokens(issuer);
      for (const route of ROUTES) {
        for (const c of cases) {
          const answer = await callRoute(api.url, registry, route, c.header);
          const where = `${route.method} ${route.path} with ${c.name}`;
          expect(answer.status, where).toBe(c.status);
          expect(answer.headers['content-type'], where).toMatch(/^application\/problem\+json/);
          const problem = ProblemSchema.parse(answer.json);
          expect(problem.status, where).toBe(c.status);
          if (c.status === 401) {
            expect(answer.headers['www-authenticate'], where).toMatch(
              c.error === null
                ? /^Bearer realm="mpi-registry"$/
                : new RegExp(`^Bearer realm="mpi-registry", error="${c.error}"`),
            );
          } else {
            expect(problem, where).toMatchObject({ kind: 'not_found' });
            expect(problem.detail, where).toMatch(/tenant "t-elsewhere" is not registered/);
          }
        }
        // Once per route, after all its refusals: a full digest costs ~90 ms, and after each of the 286
        // requests it was most of this suite's time. A change still names the route that made it.
        expect(databaseDigest(registry.engine.env.store), `${route.method} ${route.path} with a bad token`).toBe(
          before,
        );
      }
    });

    it('refuses a token without the route scope with 403 insufficient_scope naming the scope, and changes nothing', async () => {
      const before = databaseDigest(registry.engine.env.store);
      const onlyOperations = `Bearer ${await issuer.genuine('mpi.operations', 't1')}`;
      const onlyAdmin = `Bearer ${await issuer.genuine('mpi.admin', 't1')}`;
      for (const route of ROUTES) {
        const answer = await callRoute(
          api.url,
          registry,
          route,
          route.scope === 'mpi.admin' ? onlyOperations : onlyAdmin,
        );
        expect(answer.status, route.path).toBe(403);
        expect(answer.headers['www-authenticate']).toBe(
          `Bearer realm="mpi-registry", error="insufficient_scope", error_description="this operation needs the ${route.scope} scope", scope="${route.scope}"`,
        );
        expect(ProblemSchema.parse(answer.json).kind).toBe('forbidden');
      }
      expect(databaseDigest(registry.engine.env.store)).toBe(before);
    });

    it('answers another registered tenant as if tenant t1 did not exist, and leaves t1 unchanged', async () => {
      const t2 = `Bearer ${await issuer.genuine('mpi.admin mpi.operations', 't2')}`;
      const t1 = `Bearer ${await issuer.genuine('mpi.admin mpi.operations', 't1')}`;
      const before = databaseDigest(registry.engine.env.store);
      const get = ROUTES.find((r) => r.operation === 'jobs/get');
      const cancel = ROUTES.find((r) => r.operation === 'jobs/cancel');
      const evaluate = ROUTES.find((r) => r.operation === 'matching/evaluate');
      if (get === undefined || cancel === undefined || evaluate === undefined) throw new Error('routes');
      const unknown = {
        ...registry,
        inputs: { ...registry.inputs, 'jobs/get': { jobId: 'job-00000000-0000-4000-8000-000000000000' } },
      };
      const foreign = await callRoute(api.url, registry, get, t2);
      const missing = await callRoute(api.url, unknown, get, t1);
      expect(foreign.status).toBe(404);
      const strip = (json: unknown): unknown => ({
        ...(json as object),
        instance: null,
        detail: (json as { detail: string }).detail.replace(/job-[0-9a-f-]+/, 'JOB'),
      });
      expect(strip(foreign.json)).toEqual(strip(missing.json));
      expect((await callRoute(api.url, registry, cancel, t2)).status).toBe(404);
      const evaluation = await callRoute(api.url, registry, evaluate, t2);
      expect(evaluation.status).toBe(422);
      expect(evaluation.text).toMatch(/does not exist in this tenant|not found|missing/i);
      expect(databaseDigest(registry.engine.env.store)).toBe(before);
    });

    it('accepts genuine tokens with the scope (the matrix refusals are the tokens, not the requests)', async () => {
      const full = `Bearer ${await issuer.genuine('mpi.admin mpi.operations', 't1')}`;
      for (const route of ROUTES) {
        const answer = await callRoute(api.url, registry, route, full);
        expect(answer.status, `${route.method} ${route.path}: ${answer.text.slice(0, 900)}`).toBe(route.status);
      }
    });
  });
}

matrix('a real OAuth server (oidc-provider, client credentials)', async (registry) => {
  const idp: IdentityProvider = await startIdentityProvider([
    { clientId: 'ops-t1', secret: 's1', tenant: 't1' },
    { clientId: 'ops-t2', secret: 's2', tenant: 't2' },
    { clientId: 'ops-elsewhere', secret: 's3', tenant: 't-elsewhere' },
    { clientId: 'no-tenant', secret: 's4' },
  ]);
  const env = registry.engine.env;
  const api: Partial<ApiSettings> = { Issuer: idp.issuer, Audience: API_AUDIENCE };
  env.changeSettings((current) => ({
    next: { ...current, Api: { TenantClaim: 'mpi_tenant', ClockSkewSeconds: 30, AllowInsecureHttp: false, ...api } },
    commit: () => undefined,
  }));
  const clientOf = (tenant: string | undefined): string =>
    tenant === undefined ? 'no-tenant' : tenant === 't1' ? 'ops-t1' : tenant === 't2' ? 'ops-t2' : 'ops-elsewhere';
  const served = await serveApi(registry.engine, {
    authenticator: await (await import('../../../main/api/auth/authenticator.ts')).authenticatorFor(env, false),
  });
  return {
    api: served,
    issuer: {
      name: 'oidc-provider',
      iss: idp.issuer,
      aud: API_AUDIENCE,
      alg: 'RS256',
      key: idp.signingKey,
      genuine: async (scope, tenant) => {
        const token = await idp.token(clientOf(tenant), scope);
        const claims = decodeJwt(token);
        // oidc-provider grants an unknown scope as no scope: the claim is what counts, so check it.
        expect(claims.scope).toBe(scope);
        expect(claims.mpi_tenant).toBe(tenant);
        return token;
      },
    },
    close: async () => {
      await served.stop();
      await idp.close();
    },
  };
});

matrix('serve --dev-auth (mpi-console token)', async (registry) => {
  const key = await devSigningKey(registry.engine.env);
  const served = await serveApi(registry.engine);
  return {
    api: served,
    issuer: {
      name: 'dev-auth',
      iss: DEV_ISSUER,
      aud: DEV_AUDIENCE,
      alg: 'ES256',
      key: { ...key.PrivateKey },
      genuine: async (scope, tenant) => {
        if (tenant === undefined) return forgedDev(key.PrivateKey, scope);
        return devToken(key, { tenantId: tenant, scopes: scope.split(' '), ttlSeconds: 600, clientId: 'dev' });
      },
    },
    close: () => served.stop(),
  };
});

/** A development token without the tenant claim (the token command always sets one). */
async function forgedDev(jwk: JWK, scope: string): Promise<string> {
  return new SignJWT({ scope })
    .setProtectedHeader({ alg: 'ES256', kid: jwk.kid ?? '' })
    .setIssuer(DEV_ISSUER)
    .setAudience(DEV_AUDIENCE)
    .setExpirationTime(now() + 600)
    .sign(await importJWK(jwk, 'ES256'));
}

describe('the identity provider', () => {
  let idp: IdentityProvider;
  beforeAll(async () => {
    idp = await startIdentityProvider([{ clientId: 'c', secret: 's', tenant: 't1' }]);
  });
  afterAll(() => idp.close());

  it('grants an unknown scope as no scope (so the API sees no scope claim and refuses with 403)', async () => {
    const claims = decodeJwt(await idp.token('c', 'mpi.bogus'));
    expect(claims.scope).toBeUndefined();
  });
});
