/**
 * The contract suite run three times — against LocalEngine, against RemoteEngine → the registry API on loopback,
 * and against RemoteEngine → the registry API over a PostgreSQL registry — on three registries built alike, then
 * the runs' answers compared: equal, job lifecycle, refusals, evaluation and calibration reports included.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../engine/local-engine.ts';
import { runWorker } from '../../engine/jobs/worker.ts';
import { MaintenanceSettingsSchema } from '../../engine/config/maintenance.ts';
import { isEngineError } from '../../engine/contract/errors.ts';
import { RemoteEngine } from '../../main/remote/remote-engine.ts';
import { StaticTokenProvider } from '../../main/remote/token-provider.ts';
import { devTokenFor, serveApi, type ServedApi } from '../helpers/api.ts';
import { contractSuite, type Backend, type Recorded } from './suite.ts';
import type { LabelPair } from '../../engine/assurance/labels.ts';
import { scratchDir } from '../helpers/temp.ts';
import { freshDatabase } from '../helpers/postgres/database.ts';

const TENANT = 't1';
const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** A registry of 300 synthetic people: a SQLite file, or a fresh PostgreSQL database (its configuration in a file). */
async function registry(store: 'sqlite' | 'postgres' = 'sqlite'): Promise<LocalEngine> {
  const dir = scratchDir('mpi-contract-').dir;
  cleanup.push(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const engine =
    store === 'sqlite'
      ? LocalEngine.open({ dbPath: join(dir, 'registry.db') })
      : LocalEngine.open({ dbPath: await freshDatabase(), settingsPath: join(dir, 'registry.config.json') });
  cleanup.push(() => {
    engine.close();
  });
  await engine.call('sandbox/create', { syntheticPeople: 300, seed: 7 }, { tenantId: TENANT, actor: 'setup' });
  return engine;
}

const drain = (engine: LocalEngine) => async (): Promise<void> => {
  await runWorker(engine.env, { tenants: [TENANT], once: true, maintenance: MaintenanceSettingsSchema.parse({}) });
};

const local: Recorded = new Map();
const remote: Recorded = new Map();
const remoteOnPostgres: Recorded = new Map();
let served: ServedApi | undefined;
let remoteClient: RemoteEngine | undefined;
let remoteRegistry: LocalEngine | undefined;

describe('the contract suite on LocalEngine', () => {
  contractSuite(async (): Promise<Backend> => {
    const engine = await registry();
    // The actor the API records for the remote run's token (api:<client_id>), so audit and job rows compare equal.
    return { client: engine, ctx: { tenantId: TENANT, actor: 'api:test-client' }, drainJobs: drain(engine) };
  }, local);
});

describe('the contract suite on RemoteEngine → the registry API on loopback', () => {
  contractSuite(async (): Promise<Backend> => {
    const engine = await registry();
    remoteRegistry = engine;
    served = await serveApi(engine);
    const api = served;
    cleanup.push(() => api.stop());
    remoteClient = new RemoteEngine({
      baseUrl: served.url,
      tokens: new StaticTokenProvider(await devTokenFor(engine, ['mpi.admin', 'mpi.operations'], { tenantId: TENANT })),
    });
    const client = remoteClient;
    cleanup.push(() => client.close());
    // The tenant travels in the token; this context's tenant is deliberately wrong and must not matter.
    return { client, ctx: { tenantId: 'ignored-by-the-remote-client', actor: 'contract' }, drainJobs: drain(engine) };
  }, remote);
});

describe('the contract suite on RemoteEngine → the registry API served from PostgreSQL', () => {
  contractSuite(async (): Promise<Backend> => {
    const engine = await registry('postgres');
    const api = await serveApi(engine);
    cleanup.push(() => api.stop());
    const client = new RemoteEngine({
      baseUrl: api.url,
      tokens: new StaticTokenProvider(await devTokenFor(engine, ['mpi.admin', 'mpi.operations'], { tenantId: TENANT })),
    });
    cleanup.push(() => client.close());
    return { client, ctx: { tenantId: 'ignored-by-the-remote-client', actor: 'contract' }, drainJobs: drain(engine) };
  }, remoteOnPostgres);
});

describe('every run', () => {
  it('gave equal answers for every step, on either store', () => {
    expect([...remote.keys()].sort()).toEqual([
      'assurance',
      'estimate',
      'identity',
      'jobs',
      'profile',
      'record-sources',
      'refusals',
      'reviews',
    ]);
    for (const [step, value] of local) expect({ step, value: remote.get(step) }).toEqual({ step, value });
    expect([...remoteOnPostgres.keys()].sort()).toEqual([...remote.keys()].sort());
    for (const [step, value] of local) expect({ step, value: remoteOnPostgres.get(step) }).toEqual({ step, value });
  });

  it('went over HTTP in the remote run (one log line per request, with the route and the tenant of the token)', () => {
    const lines = (served?.logs.lines ?? []).map(
      (l) => JSON.parse(l) as { route?: string; tenant?: string; status?: number },
    );
    const routes = new Set(lines.filter((l) => l.tenant === TENANT).map((l) => l.route));
    // Evaluation, calibration and the estimate went as tracked runs (started, then read until they ended).
    for (const route of [
      '/api/v1/maintenance/reindex',
      '/api/v1/maintenance/jobs/:jobId',
      '/api/v1/runs',
      '/api/v1/runs/:runId',
      '/api/v1/maintenance/jobs',
      '/api/v1/review-cases',
      '/api/v1/review-cases/:caseId/decision',
      '/api/v1/identities/of-record',
      '/api/v1/records/sources',
      '/api/v1/identities/:enterpriseId/history',
    ]) {
      expect(routes).toContain(route);
    }
  });

  it("answers the specification's synchronous endpoints as before: the same report as the run gave", async () => {
    const assurance = remote.get('assurance') as
      { evaluation: { datasetDigest: string }; sample: { pairs: LabelPair[] } } | undefined;
    expect(assurance?.evaluation).toBeDefined();
    if (remoteRegistry === undefined || assurance === undefined) throw new Error('the remote run did not happen');
    const sync = new RemoteEngine({
      baseUrl: served?.url ?? '',
      tokens: new StaticTokenProvider(await devTokenFor(remoteRegistry, ['mpi.admin'], { tenantId: TENANT })),
    });
    try {
      // Listed without runs, the registry is asked the specification's way (POST /matching/evaluation, waited for).
      (sync as unknown as { offered: Promise<ReadonlySet<string>> }).offered = Promise.resolve(
        new Set(['matching/evaluate']),
      );
      const request = {
        datasetId: 'contract',
        pairs: assurance.sample.pairs,
        thresholds: [0.5, 0.75, 0.92],
        maximumErrorExamples: 6,
      };
      const report = await sync.call('matching/evaluate', request, { tenantId: TENANT, actor: 'sync' });
      expect(report.datasetDigest).toBe(assurance.evaluation.datasetDigest);
      const lines = (served?.logs.lines ?? []).map((l) => JSON.parse(l) as { route?: string; status?: number });
      expect(lines.some((l) => l.route === '/api/v1/matching/evaluation' && l.status === 200)).toBe(true);
    } finally {
      await sync.close();
    }
  });

  it('refuses, before any request, an operation the registry API does not offer', async () => {
    const before = served?.logs.lines.length;
    const error = await remoteClient
      ?.call('records/ingest', { sourceSystem: 'x', ndjson: '' }, { tenantId: TENANT, actor: 't' })
      .catch((e: unknown) => e);
    expect(
      isEngineError(error) && error.kind === 'remote_http' && /not offered by this registry/.test(error.message),
    ).toBe(true);
    expect(served?.logs.lines.length).toBe(before);
  });
});
