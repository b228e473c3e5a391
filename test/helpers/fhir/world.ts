/**
 * Everything an import test needs, real and on loopback: a test CA, the OAuth server (client credentials, JWT
 * access tokens), the FHIR server checking those tokens, the fault proxy in front of it, "another origin"
 * recording what reaches it, a registry with the demo profile in a temp folder, its configuration file naming
 * the source (BaseUrl = the proxy), and the client secret in a 0600 file. Patients are synthetic.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Patient } from '@medplum/fhirtypes';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import type { RetryPolicy } from '../../../engine/fhir-source/retry.ts';
import type { JobState } from '../../../engine/contract/maintenance.ts';
import { settingsPathFor } from '../../../engine/config/settings.ts';
import { generatePopulation, SYNTHETIC_SOURCES } from '../../../engine/synthetic/generate.ts';
import { startFaultProxy, type FaultProxy } from './fault-proxy.ts';
import { BASE_PATH, startFhirServer, type FhirServer } from './fhir-server.ts';
import { startOAuthServer, FHIR_SCOPE, type OAuthServer } from './oauth-server.ts';
import { startRecordingServer, type RecordingServer } from './recording-server.ts';
import { testTls, type TestTls } from './test-ca.ts';
import { scratchDir } from '../temp.ts';

export const TENANT = 'import-test';
export const CTX = { tenantId: TENANT, actor: 'test' };
export const SOURCE = SYNTHETIC_SOURCES[0]?.sourceSystem ?? 'st-marys-hospital';
export const SOURCE_MRN_SYSTEM = SYNTHETIC_SOURCES[0]?.localIdentifierSystem ?? 'urn:mpi-demo:st-marys-hospital:mrn';
export const CLIENT_ID = 'mpi-console-import';
/** Planted: a test searches every output for it. */
export const CLIENT_SECRET = 'cs-PLANTED-SECRET-7f3a9c1e5b2d4068';

export interface World {
  readonly dir: string;
  readonly tls: TestTls;
  readonly oauth: OAuthServer;
  readonly fhir: FhirServer;
  readonly proxy: FaultProxy;
  readonly other: RecordingServer;
  readonly secretFile: string;
  close(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  const dir = scratchDir('mpi-import-').dir;
  const tls = await testTls(dir);
  const audience = 'https://fhir.test/R4';
  const oauth = await startOAuthServer(tls, { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, audience });
  const fhir = await startFhirServer(tls, { verify: (token) => oauth.verify(token) });
  const proxy = await startFaultProxy(tls, fhir.origin);
  const other = await startRecordingServer(tls);
  const secretFile = join(dir, 'client-secret');
  writeFileSync(secretFile, `${CLIENT_SECRET}\n`, { mode: 0o600 });
  return {
    dir,
    tls,
    oauth,
    fhir,
    proxy,
    other,
    secretFile,
    async close() {
      await Promise.all([oauth.close(), fhir.close(), proxy.close(), other.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The FhirSources entry for the world's source (through the proxy). */
export function sourceEntry(world: World, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    TenantId: TENANT,
    SourceSystem: SOURCE,
    BaseUrl: `${world.proxy.origin}${BASE_PATH}`,
    LocalIdentifierSystem: SOURCE_MRN_SYSTEM,
    PageSize: 100,
    TrustedCaFile: world.tls.caFile,
    Authentication: {
      Type: 'ClientCredentials',
      TokenEndpoint: world.oauth.tokenEndpoint,
      ClientId: CLIENT_ID,
      ClientSecretFile: world.secretFile,
      Scope: FHIR_SCOPE,
    },
    ...overrides,
  };
}

/**
 * Writes the Maintenance section of a database's configuration file (keeping its blocking keys), 0600; the file
 * beside a SQLite database unless named.
 */
export function setMaintenance(
  dbPath: string,
  maintenance: Record<string, unknown>,
  settingsPath: string = settingsPathFor(dbPath),
): void {
  const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>;
  writeFileSync(settingsPath, JSON.stringify({ ...settings, Maintenance: maintenance }, null, 2), { mode: 0o600 });
}

/** A registry at dbPath with the demo profile (no people) whose configuration file names the world's source. */
async function registryAt(
  world: World,
  dbPath: string,
  settingsPath: string | undefined,
  maintenance: Record<string, unknown>,
): Promise<void> {
  const engine = LocalEngine.open({ dbPath, ...(settingsPath === undefined ? {} : { settingsPath }) });
  try {
    await engine.call('sandbox/create', { syntheticPeople: 0, seed: 1 }, CTX);
  } finally {
    engine.close();
  }
  setMaintenance(
    dbPath,
    { LeaseSeconds: 5, PollIntervalSeconds: 1, FhirSources: [sourceEntry(world)], ...maintenance },
    settingsPath,
  );
}

/**
 * A reconciliation importing from the world's source (batches of 25), run to its end by one worker
 * pass with the test's retry policy: the job as `jobs/get` then gives it.
 */
export async function importAndReconcile(engine: LocalEngine, reason: string, retry: RetryPolicy): Promise<JobState> {
  const { jobId } = await engine.call(
    'maintenance/reconcile',
    { reason, batchSize: 25, externalSourceSystem: SOURCE },
    CTX,
  );
  await runWorker(engine.env, { tenants: [TENANT], once: true, importRetry: retry });
  return engine.call('jobs/get', { jobId }, CTX);
}

/** A SQLite registry in the world's folder with the demo profile (no people) whose configuration names the world's source. */
export async function makeRegistry(
  world: World,
  name: string,
  maintenance: Record<string, unknown> = {},
): Promise<string> {
  const dbPath = join(world.dir, `${name}.db`);
  await registryAt(world, dbPath, undefined, maintenance);
  return dbPath;
}

/** The same on a PostgreSQL database (a fresh one at url), its configuration file in the world's folder. */
export async function makePostgresRegistry(
  world: World,
  name: string,
  url: string,
): Promise<{ readonly dbPath: string; readonly settingsPath: string }> {
  const settingsPath = join(world.dir, `${name}.config.json`);
  await registryAt(world, url, settingsPath, {});
  return { dbPath: url, settingsPath };
}

/**
 * About `count` synthetic Patients as the source would hold them: every synthetic record (people with typos,
 * twins, households, several records each) re-keyed under the source's MRN system, so the source holds
 * duplicates to match. Deterministic for a seed.
 */
export function sourcePatients(count: number, seed = 5): Patient[] {
  const population = generatePopulation({ people: Math.ceil(count / 2), seed });
  const out: Patient[] = [];
  for (const record of population.records) {
    if (out.length >= count) break;
    const patient = structuredClone<Record<string, unknown>>(record.patient);
    delete patient.id;
    delete patient.meta;
    const identifiers = (patient.identifier as { system: string; value: string }[] | undefined) ?? [];
    patient.identifier = [
      { system: SOURCE_MRN_SYSTEM, value: `M${String(out.length + 1).padStart(7, '0')}` },
      ...identifiers.filter((i) => !i.system.endsWith(':mrn')),
    ];
    out.push(patient as unknown as Patient);
  }
  if (out.length < count) throw new Error(`only ${String(out.length)} synthetic records for ${String(count)}`);
  return out;
}
