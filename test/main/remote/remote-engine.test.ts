/**
 * The remote client's guarantees: https except loopback (or the development switch), a private CA, no
 * redirect followed (the token never reaches another origin), timeouts, retries with backoff and Retry-After
 * on GETs only, errors mapped back to EngineError kinds, answers validated against the contract, operations
 * a registry does not offer refused before any request, token files read per request, refresh on 401.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'selfsigned';
import { EngineError, isEngineError } from '../../../engine/contract/errors.ts';
import { HTTP_ROUTES, SPEC_OPERATIONS } from '../../../main/net/api-routes.ts';
import type { JobState } from '../../../engine/contract/maintenance.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { buildApi } from '../../../main/api/app.ts';
import { authenticatorFor } from '../../../main/api/auth/authenticator.ts';
import { apiLogger } from '../../../main/api/logging.ts';
import { RemoteEngine } from '../../../main/remote/remote-engine.ts';
import { StaticTokenProvider, TokenFileProvider, type TokenProvider } from '../../../main/remote/token-provider.ts';
import { devTokenFor, LogLines, serveApi, type ServedApi } from '../../helpers/api.ts';
import { json, stubServer, type StubServer } from '../../helpers/stub-server.ts';
import { suiteDir } from '../../helpers/temp.ts';

const ctx = { tenantId: 'ignored', actor: 'test' };
const JOB_ID = 'job-11111111-2222-4333-8444-555555555555';
const token = new StaticTokenProvider('token-for-tests');

const jobState: JobState = {
  jobId: JOB_ID,
  kind: 'reindex',
  status: 'queued',
  reason: 'r',
  requestedBy: 'api:x',
  batchSize: 5,
  externalSourceSystem: null,
  changedSince: null,
  scheduleKey: null,
  matchingProfileVersion: null,
  populationTotal: null,
  phases: [],
  counters: {
    validated: 0,
    scanned: 0,
    imported: 0,
    updated: 0,
    unchanged: 0,
    reviewCreated: 0,
    warning: 0,
    failure: 0,
  },
  cancelRequested: false,
  leaseOwner: null,
  leaseExpiresAt: null,
  error: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  startedAt: null,
  finishedAt: null,
};

async function failure(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isEngineError(error)) throw new Error(`expected an EngineError, got ${String(error)}`);
  return error;
}

const stubs: StubServer[] = [];
afterAll(async () => {
  for (const stub of stubs) await stub.close();
});
async function stub(answer: Parameters<typeof stubServer>[0]): Promise<StubServer> {
  const server = await stubServer(answer);
  stubs.push(server);
  return server;
}

describe('transport security', () => {
  it('refuses plain http to a host that is not loopback, other schemes and credentials in the URL, before any request', () => {
    for (const url of [
      'http://192.0.2.10:8080',
      'http://registry.example.org',
      'ftp://127.0.0.1/',
      'https://user:secret@registry.example.org',
      'https://registry.example.org/?tenant=x',
      'not a url',
    ]) {
      expect(() => new RemoteEngine({ baseUrl: url, tokens: token }), url).toThrow(EngineError);
    }
    for (const url of [
      'http://127.0.0.1:1',
      'http://localhost:1',
      'http://[::1]:1',
      'https://registry.example.org/mpi',
    ]) {
      expect(() => new RemoteEngine({ baseUrl: url, tokens: token }), url).not.toThrow();
    }
    expect(
      () => new RemoteEngine({ baseUrl: 'http://192.0.2.10:8080', tokens: token, allowInsecureHttp: true }),
    ).not.toThrow();
  });

  describe('over https with a private CA', () => {
    const dir = suiteDir();
    let engine: LocalEngine;
    let url: string;
    let close: () => Promise<void>;
    let cert: string;

    beforeAll(async () => {
      engine = LocalEngine.open({ dbPath: join(dir, 'registry.db') });
      await engine.call('sandbox/create', { syntheticPeople: 0, seed: 1 }, { tenantId: 't1', actor: 'setup' });
      const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
        keySize: 2048,
        extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
      });
      cert = pems.cert;
      const app = buildApi({
        engine,
        authenticator: await authenticatorFor(engine.env, true),
        logger: apiLogger(new LogLines()),
        https: { key: pems.private, cert: pems.cert },
      });
      url = await app.listen({ host: '127.0.0.1', port: 0 });
      close = () => app.close();
    });
    afterAll(async () => {
      await close();
      engine.close();
    });

    it('works when the CA is given and refuses an untrusted certificate otherwise', async () => {
      expect(url).toMatch(/^https:/);
      const tokens = new StaticTokenProvider(await devTokenFor(engine));
      const trusted = new RemoteEngine({ baseUrl: url, tokens, ca: cert });
      expect((await trusted.call('profile/summary', {}, ctx)).matchingProfileVersion).toBe(1);
      await trusted.close();
      const untrusted = new RemoteEngine({ baseUrl: url, tokens, retries: 0 });
      const error = await failure(untrusted.call('jobs/get', { jobId: JOB_ID }, ctx));
      expect(error.kind).toBe('remote_http');
      expect(error.message).toMatch(/not trusted/);
      await untrusted.close();
    });
  });

  it('follows no redirect: the token never reaches the other origin', async () => {
    const elsewhere = await stub((_req, res) => {
      json(res, 200, jobState);
    });
    const registry = await stub((_req, res) => {
      res.writeHead(307, { location: `${elsewhere.url}/api/v1/maintenance/jobs/${JOB_ID}` });
      res.end();
    });
    const client = new RemoteEngine({ baseUrl: registry.url, tokens: token });
    const error = await failure(client.call('jobs/get', { jobId: JOB_ID }, ctx));
    expect(error.kind).toBe('remote_http');
    expect(error.message).toMatch(/redirect/);
    expect(registry.received).toHaveLength(1);
    expect(elsewhere.received).toHaveLength(0);
    await client.close();
  });
});

describe('retries, timeouts and answers', () => {
  it('retries a GET on 503 and 429, waiting what Retry-After says (seconds or a date), then succeeds', async () => {
    const at = new Date(Date.now() + 5000).toUTCString();
    const registry = await stub((_req, res, index) => {
      if (index === 0) json(res, 503, {}, { 'retry-after': '2' });
      else if (index === 1) json(res, 429, {}, { 'retry-after': at });
      else json(res, 200, jobState);
    });
    const delays: number[] = [];
    const client = new RemoteEngine({
      baseUrl: registry.url,
      tokens: token,
      sleep: (ms) => (delays.push(ms), Promise.resolve()),
    });
    expect((await client.call('jobs/get', { jobId: JOB_ID }, ctx)).jobId).toBe(JOB_ID);
    expect(registry.received).toHaveLength(3);
    expect(delays[0]).toBe(2000);
    expect(delays[1]).toBeGreaterThan(2000);
    expect(delays[1]).toBeLessThanOrEqual(5000);
    await client.close();
  });

  it('retries a GET after a reset connection with a backoff below its ceiling, and gives up after the retries', async () => {
    const registry = await stub((req) => {
      req.socket.destroy();
    });
    const delays: number[] = [];
    const client = new RemoteEngine({
      baseUrl: registry.url,
      tokens: token,
      retries: 2,
      backoffMs: 100,
      sleep: (ms) => (delays.push(ms), Promise.resolve()),
    });
    const error = await failure(client.call('jobs/get', { jobId: JOB_ID }, ctx));
    expect(error.kind).toBe('remote_http');
    expect(registry.received).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeLessThanOrEqual(100);
    expect(delays[1]).toBeLessThanOrEqual(200);
    await client.close();
  });

  it('never retries a POST, and does not wait for a Retry-After longer than it allows', async () => {
    const registry = await stub((_req, res) => {
      json(res, 503, {}, { 'retry-after': '3600' });
    });
    const delays: number[] = [];
    const client = new RemoteEngine({
      baseUrl: registry.url,
      tokens: token,
      sleep: (ms) => (delays.push(ms), Promise.resolve()),
    });
    const post = await failure(client.call('maintenance/reindex', { reason: 'r', batchSize: 5 }, ctx));
    expect(post.kind).toBe('remote_http');
    expect(registry.received).toHaveLength(1);
    const get = await failure(client.call('jobs/get', { jobId: JOB_ID }, ctx));
    expect(get.message).toMatch(/retry .* after 3600 s/);
    expect(registry.received).toHaveLength(2);
    expect(delays).toEqual([]);
    await client.close();
  });

  it('times out a registry that does not answer', async () => {
    const registry = await stub(() => {
      // never answers
    });
    const client = new RemoteEngine({ baseUrl: registry.url, tokens: token, timeoutMs: 300, retries: 0 });
    const error = await failure(client.call('jobs/get', { jobId: JOB_ID }, ctx));
    expect(error.kind).toBe('remote_http');
    expect(error.message).toMatch(/did not answer .* in time/);
    await client.close();
  });

  it('refuses an answer outside the contract (paths named, values not) and one larger than its limit', async () => {
    const registry = await stub((req, res) => {
      if (req.url?.includes('/jobs/') === true) json(res, 200, { jobId: 'SECRET-VALUE', status: 'exploded' });
      else json(res, 200, { rows: [], nextCursor: null, padding: 'x'.repeat(2_000_000) });
    });
    const client = new RemoteEngine({ baseUrl: registry.url, tokens: token, maxResponseBytes: 1_000_000 });
    const error = await failure(client.call('jobs/get', { jobId: JOB_ID }, ctx));
    expect(error.kind).toBe('remote_http');
    expect(error.message).toMatch(/does not match the contract/);
    expect(error.issues.map((i) => i.path)).toContain('status');
    expect(JSON.stringify(error)).not.toContain('SECRET-VALUE');
    await client.close();
  });

  it('maps refusals without problem details by status', async () => {
    const statuses = [401, 403, 404, 409, 422, 500];
    const registry = await stub((_req, res, index) => {
      res.writeHead(statuses[index] ?? 500, {
        'content-type': 'text/plain',
        'www-authenticate': 'Bearer error="invalid_token", error_description="expired"',
      });
      res.end('no');
    });
    const client = new RemoteEngine({ baseUrl: registry.url, tokens: token, retries: 0 });
    const kinds: string[] = [];
    for (let i = 0; i < statuses.length; i++)
      kinds.push((await failure(client.call('jobs/cancel', { jobId: JOB_ID }, ctx))).kind);
    expect(kinds).toEqual(['forbidden', 'forbidden', 'not_found', 'conflict', 'validation', 'remote_http']);
    await client.close();
  });
});

describe('what a registry offers', () => {
  const dir = suiteDir();
  let engine: LocalEngine;
  let full: ServedApi;
  let specOnly: ServedApi;
  let tokens: TokenProvider;

  beforeAll(async () => {
    engine = LocalEngine.open({ dbPath: join(dir, 'registry.db') });
    await engine.call('sandbox/create', { syntheticPeople: 20, seed: 1 }, { tenantId: 't1', actor: 'setup' });
    await engine.call('sandbox/create', { syntheticPeople: 0, seed: 1 }, { tenantId: 't2', actor: 'setup' });
    full = await serveApi(engine);
    specOnly = await serveApi(engine, { routes: HTTP_ROUTES.filter((r) => !r.extension) });
    tokens = new StaticTokenProvider(await devTokenFor(engine));
  });
  afterAll(async () => {
    await full.stop();
    await specOnly.stop();
    engine.close();
  });

  it('lists the extensions from the OpenAPI document; a spec-only registry offers the six endpoints', async () => {
    const client = new RemoteEngine({ baseUrl: full.url, tokens });
    expect([...(await client.offeredOperations())].sort()).toEqual(HTTP_ROUTES.map((r) => r.operation).sort());
    await client.close();
    const spec = new RemoteEngine({ baseUrl: specOnly.url, tokens });
    expect([...(await spec.offeredOperations())].sort()).toEqual([...SPEC_OPERATIONS].sort());
    const before = specOnly.logs.lines.length;
    const error = await failure(spec.call('jobs/list', { limit: 5 }, ctx));
    expect(error.kind).toBe('remote_http');
    expect(error.message).toMatch(/jobs\/list is not offered by this registry/);
    expect(specOnly.logs.lines.length).toBe(before);
    // The six still work.
    const { jobId } = await spec.call('maintenance/reindex', { reason: 'spec only', batchSize: 5 }, ctx);
    expect((await spec.call('jobs/get', { jobId }, ctx)).status).toBe('queued');
    await spec.close();
  });

  it('treats a registry without an OpenAPI document, or a 404 no operation answered, as not offering an extension', async () => {
    const registry = await stub((req, res) => {
      if (req.url === '/api/v1/openapi.json') json(res, 404, {});
      else
        json(res, 404, {
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          detail: 'no',
          kind: 'not_found',
          issues: [],
        });
    });
    const client = new RemoteEngine({ baseUrl: registry.url, tokens: token });
    expect([...(await client.offeredOperations())].sort()).toEqual([...SPEC_OPERATIONS].sort());
    expect((await failure(client.call('profile/get', {}, ctx))).message).toMatch(/not offered by this registry/);
    await client.close();
    const listing = await stub((req, res) => {
      if (req.url === '/api/v1/openapi.json') json(res, 200, { paths: { '/api/v1/matching/profile': { get: {} } } });
      else
        json(res, 404, {
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          detail: 'no route',
          kind: 'not_found',
          issues: [],
        });
    });
    const listed = new RemoteEngine({ baseUrl: listing.url, tokens: token });
    expect((await failure(listed.call('profile/get', {}, ctx))).message).toMatch(
      /not offered by this registry \(the registry answered 404/,
    );
    await listed.close();
  });

  it('reads a token file before every request (a rotated token is used at once) and names an unreadable one', async () => {
    const file = join(dir, 'token');
    writeFileSync(file, `${await devTokenFor(engine, ['mpi.operations'], { tenantId: 't1' })}\n`, { mode: 0o600 });
    const client = new RemoteEngine({ baseUrl: full.url, tokens: new TokenFileProvider(file) });
    const t1Jobs = (await client.call('jobs/list', { limit: 50 }, ctx)).rows.length;
    writeFileSync(file, await devTokenFor(engine, ['mpi.operations'], { tenantId: 't2' }));
    expect((await client.call('jobs/list', { limit: 50 }, ctx)).rows).toHaveLength(0);
    expect(t1Jobs).toBeGreaterThan(0);
    await client.close();
    const missing = new RemoteEngine({ baseUrl: full.url, tokens: new TokenFileProvider(join(dir, 'absent')) });
    const error = await failure(missing.call('jobs/get', { jobId: JOB_ID }, ctx));
    expect(error.message).toMatch(/token file .*absent cannot be read/);
    await missing.close();
  });

  it('asks the token provider to refresh once after a 401, then succeeds; a second 401 is a forbidden error with the reason', async () => {
    const good = await devTokenFor(engine);
    let current = 'expired.token.value';
    let refreshes = 0;
    const client = new RemoteEngine({
      baseUrl: full.url,
      tokens: {
        token: () => Promise.resolve(current),
        refresh: () => {
          refreshes++;
          current = good;
          return Promise.resolve();
        },
      },
    });
    expect((await client.call('profile/summary', {}, ctx)).matchingProfileVersion).toBe(1);
    expect(refreshes).toBe(1);
    await client.close();
    const never = new RemoteEngine({
      baseUrl: full.url,
      tokens: { token: () => Promise.resolve('still.not.valid'), refresh: () => Promise.resolve() },
    });
    const error = await failure(never.call('profile/summary', {}, ctx));
    expect(error.kind).toBe('forbidden');
    expect(error.message).toMatch(/refused the access token: the token is malformed/);
    await never.close();
  });
});
