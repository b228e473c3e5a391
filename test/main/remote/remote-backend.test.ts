/**
 * The console backend in remote-registry mode against the real registry API (fastify, bearer tokens verified
 * against a real OpenID provider's keys) and that provider's login: sign in → connected with the token's
 * tenant, identity and scopes (the token itself never in what the renderer gets) → start and watch a job;
 * an mpi.operations token offers watching only, and the registry refuses a start anyway; errors say what to
 * do (expired → paste a new token / sign in again; refused; unreachable; plain http to another host).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair, SignJWT } from 'jose';
import { LocalEngine } from '../../../engine/local-engine.ts';
import type { ConsoleStatus } from '../../../console-protocol/protocol.ts';
import type { JobState } from '../../../engine/contract/maintenance.ts';
import { authenticatorFor } from '../../../main/api/auth/authenticator.ts';
import { ConsoleBackend } from '../../../main/backend/console-backend.ts';
import { MemoryTokenStore } from '../../../main/backend/token-store.ts';
import { RemoteEngine } from '../../../main/remote/remote-engine.ts';
import { StaticTokenProvider } from '../../../main/remote/token-provider.ts';
import { serveApi, type ServedApi } from '../../helpers/api.ts';
import {
  CONSOLE_CLIENT_ID,
  LOGIN_AUDIENCE,
  startLoginProvider,
  type LoginProvider,
} from '../../helpers/login-provider.ts';
import { suiteDir } from '../../helpers/temp.ts';

const dir = suiteDir();
let engine: LocalEngine;
let api: ServedApi;
let idp: LoginProvider;
const JWT_SHAPE = /eyJ[A-Za-z0-9_-]+\.eyJ/;

beforeAll(async () => {
  idp = await startLoginProvider(
    {
      'admin@t1.example': { tenant: 't1', scopes: ['mpi.admin', 'mpi.operations'] },
      'operator@t1.example': { tenant: 't1', scopes: ['mpi.operations'] },
    },
    [{ clientId: 'svc-t1', secret: 'svc-secret', tenant: 't1' }],
  );
  engine = LocalEngine.open({ dbPath: join(dir, 'registry.db') });
  await engine.call('sandbox/create', { syntheticPeople: 60, seed: 3 }, { tenantId: 't1', actor: 'setup' });
  engine.env.changeSettings((current) => ({
    next: {
      ...current,
      Api: {
        TenantClaim: 'mpi_tenant',
        ClockSkewSeconds: 30,
        AllowInsecureHttp: false,
        Issuer: idp.issuer,
        Audience: LOGIN_AUDIENCE,
      },
    },
    commit: () => undefined,
  }));
  api = await serveApi(engine, { authenticator: await authenticatorFor(engine.env, false) });
});

afterAll(async () => {
  await api.stop();
  engine.close();
  await idp.close();
});

function newBackend(store = new MemoryTokenStore()): {
  backend: ConsoleBackend;
  statuses: ConsoleStatus[];
  jobs: JobState[];
} {
  const backend = new ConsoleBackend({
    dataFolder: join(dir, 'console'),
    actor: 'console:test',
    tokenStore: store,
    watcher: { pollMs: 100, minGapMs: 20, listEveryMs: 200 },
  });
  const statuses: ConsoleStatus[] = [];
  const jobs: JobState[] = [];
  backend.subscribe((event, payload) => {
    if (event === 'connection/changed') statuses.push(payload as ConsoleStatus);
    if (event === 'job/updated') jobs.push(payload as JobState);
  });
  return { backend, statuses, jobs };
}

async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('remote registry mode of the console backend', () => {
  it('signs in through the provider, connects with the token tenant and scopes, and starts and watches a job', async () => {
    const store = new MemoryTokenStore();
    const { backend, statuses, jobs } = newBackend(store);
    try {
      const waiting = await backend.call('console/sign-in', {
        baseUrl: api.url,
        issuer: idp.issuer,
        clientId: CONSOLE_CLIENT_ID,
        resource: LOGIN_AUDIENCE,
      });
      expect(waiting.connection).toBeNull();
      expect(waiting.signIn).toMatchObject({ state: 'waiting', baseUrl: api.url });
      const back = await idp.signIn(waiting.signIn?.authorizationUrl ?? '', 'admin@t1.example');
      await fetch(back);
      const connected = await until(
        () => statuses.find((s) => s.connection?.kind === 'remote-registry'),
        'the connection',
      );
      expect(connected.signIn).toBeNull();
      expect(connected.connection).toMatchObject({
        kind: 'remote-registry',
        method: 'sign-in',
        tenantId: 't1',
        identity: 'admin@t1.example',
        actor: CONSOLE_CLIENT_ID,
        storage: 'memory',
        capabilities: { scopes: ['mpi.admin', 'mpi.operations'] },
      });
      // The token stays in the backend: nothing the renderer receives holds it.
      const stored = store.load();
      expect(stored.state === 'ok' && JWT_SHAPE.test(stored.session.accessToken)).toBe(true);
      expect(JSON.stringify(statuses)).not.toMatch(JWT_SHAPE);

      const started = await backend.call('maintenance/reconcile', { reason: 'Console remote test', batchSize: 25 });
      expect(backend.status().connection).toMatchObject({ rememberedJobs: [started.jobId] });
      // serveApi has no worker: the job stays queued, and its state is pushed as the console sees it.
      const watched = await backend.call('console/watch-job', { jobId: started.jobId });
      expect(watched).toMatchObject({
        jobId: started.jobId,
        status: 'queued',
        requestedBy: `api:${CONSOLE_CLIENT_ID}`,
      });
      const listed = await backend.call('jobs/list', { limit: 5 });
      expect(listed.rows.map((row) => row.jobId)).toContain(started.jobId);
      await backend.call('jobs/cancel', { jobId: started.jobId });
      const cancelled = await until(
        () => jobs.find((job) => job.jobId === started.jobId && job.status === 'cancelled'),
        'the pushed cancellation',
      );
      expect(cancelled.status).toBe('cancelled');

      const out = await backend.call('console/sign-out', {});
      expect(out.connection).toBeNull();
      expect(store.load()).toEqual({ state: 'none' });
    } finally {
      await backend.close();
    }
  });

  it('mpi.operations only: watching is offered, starting is not, and the registry refuses a start anyway', async () => {
    const token = await idp.serviceToken('svc-t1', 'mpi.operations');
    const { backend } = newBackend();
    try {
      const status = await backend.call('console/use-token', { baseUrl: api.url, token });
      expect(status.connection).toMatchObject({
        kind: 'remote-registry',
        method: 'token',
        identity: null,
        actor: 'svc-t1',
        tenantId: 't1',
      });
      expect(status.connection?.capabilities.operations.sort()).toEqual([
        'health/series',
        'jobs/get',
        'jobs/list',
        'profile/get',
        'profile/summary',
      ]);
      await expect(backend.call('maintenance/reindex', { reason: 'not allowed', batchSize: 5 })).rejects.toThrow(
        /does not offer maintenance\/reindex \(granted scopes: mpi\.operations\)/,
      );
      // Past the console, straight to the registry with the same token: 403, nothing queued.
      const before = (await engine.call('jobs/list', { limit: 100 }, { tenantId: 't1', actor: 'check' })).rows.length;
      const direct = new RemoteEngine({ baseUrl: api.url, tokens: new StaticTokenProvider(token) });
      const refusal = await direct
        .call('maintenance/reindex', { reason: 'not allowed', batchSize: 5 }, { tenantId: 't1', actor: 'x' })
        .then(
          () => null,
          (e: unknown) => e as Error & { kind: string },
        );
      await direct.close();
      expect(refusal?.kind).toBe('forbidden');
      expect((await engine.call('jobs/list', { limit: 100 }, { tenantId: 't1', actor: 'check' })).rows.length).toBe(
        before,
      );
    } finally {
      await backend.close();
    }
  });

  it('says what to do: expired token, token the registry refuses, nothing listening, plain http to another host', async () => {
    const { backend } = newBackend();
    const { privateKey } = await generateKeyPair('RS256');
    const forge = (exp: number): Promise<string> =>
      new SignJWT({ mpi_tenant: 't1', scope: 'mpi.admin mpi.operations', client_id: 'forger' })
        .setProtectedHeader({ alg: 'RS256', kid: 'login-key' })
        .setIssuer(idp.issuer)
        .setAudience(LOGIN_AUDIENCE)
        .setExpirationTime(exp)
        .sign(privateKey);
    try {
      await expect(
        backend.call('console/use-token', { baseUrl: api.url, token: await forge(Math.floor(Date.now() / 1000) - 60) }),
      ).rejects.toThrow('the access token has expired or was refused by the registry: paste a new token');
      await expect(
        backend.call('console/use-token', {
          baseUrl: api.url,
          token: await forge(Math.floor(Date.now() / 1000) + 600),
        }),
      ).rejects.toThrow(/^the registry refused the access token: .*Paste a new token$/);
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const token = await idp.serviceToken('svc-t1', 'mpi.operations');
      await expect(
        backend.call('console/use-token', { baseUrl: `http://127.0.0.1:${String(port)}`, token }),
      ).rejects.toThrow(`nothing is listening at http://127.0.0.1:${String(port)}`);
      const insecure = await backend.call('console/use-token', { baseUrl: 'http://registry.example.org', token }).then(
        () => null,
        (e: unknown) => e as Error & { issues: { path: string; message: string }[] },
      );
      expect(insecure?.issues).toEqual([
        { path: 'baseUrl', message: expect.stringMatching(/give an https URL/) as string },
      ]);
      expect(backend.status().connection).toBeNull();
    } finally {
      await backend.close();
    }
  });

  it('a sign-in the provider ends with an error is shown as failed with what to do', async () => {
    const { backend, statuses } = newBackend();
    try {
      const waiting = await backend.call('console/sign-in', {
        baseUrl: api.url,
        issuer: idp.issuer,
        clientId: CONSOLE_CLIENT_ID,
      });
      const url = new URL(waiting.signIn?.authorizationUrl ?? '');
      await fetch(
        `${url.searchParams.get('redirect_uri') ?? ''}?error=access_denied&state=${url.searchParams.get('state') ?? ''}`,
      );
      const failed = await until(() => statuses.find((s) => s.signIn?.state === 'failed'), 'the failure');
      expect(failed.signIn).toMatchObject({
        state: 'failed',
        message: 'the identity provider ended the sign-in (access_denied); sign in again',
      });
      expect(failed.connection).toBeNull();
    } finally {
      await backend.close();
    }
  });
});
