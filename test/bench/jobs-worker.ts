/**
 * One step of the maintenance-job bench, in its own process so that peak RSS is that step's own:
 *
 *   build DB PEOPLE        a registry of PEOPLE synthetic people, one identity each with all its records
 *                          linked, canonical records and blocking tags, written straight through the store's
 *                          statements (ingesting with matching would take far longer than the job itself)
 *   reindex DB             stage a key change (new key active, previous key inactive), re-index at batch size 25
 *   raw-reindex DB         the same tag rows inserted in one loop: no HMAC, no validation, no job machinery
 *   raw-reindex-batched DB the same rows committed every 25 identities, as the job's bounded batches must
 *   reconcile DB           change survivorship (reversed source trust), registry-only reconciliation at batch size 25
 *   raw-reconcile DB       the same canonical-record update statement for every identity in one loop
 *   scan DB                the link-quality scan of every identity with two or more records (cases opened)
 *   preview DB             the impact preview of the active profile with Certain raised to 0.999 (writes nothing)
 *   health DB              the daily health sample (records, identities by size): what every finished job adds
 *   audit DB               the registry audit's stratified sample of 400 pairs (every linked and candidate pair scored)
 *   replicas DB N          reversed source trust, a reconciliation queued, then N `mpi-console worker --once`
 *                          processes started together on the registry (replicas); the wall time until all exit
 *
 * DB is a SQLite file, or a PostgreSQL URL whose configuration file MPI_BENCH_CONFIG names. Prints one JSON line.
 */
import { randomUUID } from 'node:crypto';
import { LocalEngine } from '../../engine/local-engine.ts';
import { createTenant, sandboxProfile } from '../../engine/operations/sandbox.ts';
import { addBlockingKey } from '../../engine/operations/blocking-keys.ts';
import { keyRingFor } from '../../engine/config/key-ring.ts';
import { identityTags } from '../../engine/ingest/identity-rebuild.ts';
import { buildCanonical } from '../../engine/ingest/survivorship.ts';
import { payloadDigest } from '../../engine/ingest/payload-digest.ts';
import { validatePatient } from '../../engine/fhir/patient.ts';
import { matchFieldsOf } from '../../engine/normalise/record.ts';
import { generatePopulation, SYNTHETIC_SOURCES } from '../../engine/synthetic/generate.ts';
import { insertIdentity, linkRecord } from '../../engine/store/identities.ts';
import { insertRecord, type SourceRecord } from '../../engine/store/records.ts';
import { addTags } from '../../engine/store/tags.ts';
import { activeProfile } from '../../engine/store/profiles.ts';
import { runWorker } from '../../engine/jobs/worker.ts';
import { recordDailySample } from '../../engine/jobs/daily-health.ts';
import { countIdentities } from '../../engine/store/identities.ts';
import type { JobCounters } from '../../engine/contract/maintenance.ts';
import { peakRssMiB } from './measure.ts';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../main/cli/bin.js', import.meta.url));
import { withTenant } from '../../engine/store/tenant-scope.ts';

const TENANT = 'bench';
const CTX = { tenantId: TENANT, actor: 'bench' };
const BATCH_SIZE = 25;

/** The configuration file of a PostgreSQL registry (a SQLite registry's sits beside it). */
const SETTINGS = process.env.MPI_BENCH_CONFIG;
const open = (dbPath: string): LocalEngine =>
  LocalEngine.open({ dbPath, ...(SETTINGS === undefined ? {} : { settingsPath: SETTINGS }) });

function build(dbPath: string, people: number): object {
  const engine = open(dbPath);
  createTenant(engine.env, CTX, sandboxProfile());
  const { store } = engine.env;
  const { profile } = activeProfile(store, TENANT);
  const ring = keyRingFor(profile.Blocking, engine.env.settings(), TENANT);
  const trustOrder = profile.SourceTrust.map((s) => s.SourceSystem);
  const localSystems = new Map(SYNTHETIC_SOURCES.map((s) => [s.sourceSystem, s.localIdentifierSystem]));
  const population = generatePopulation({ people, seed: 17 });
  const byPerson = new Map<string, typeof population.records>();
  for (const record of population.records) {
    const list = byPerson.get(record.personId) ?? [];
    list.push(record);
    byPerson.set(record.personId, list);
  }
  const persons = [...byPerson.values()];
  const at = new Date().toISOString();
  let records = 0;
  let tags = 0;
  for (let start = 0; start < persons.length; start += 2000) {
    store.write(() => {
      for (const person of persons.slice(start, start + 2000)) {
        const stored: SourceRecord[] = [];
        for (const r of person) {
          const validation = validatePatient(r.patient);
          if (!validation.ok) continue;
          const fields = matchFieldsOf(validation.patient, { localIdentifierSystem: localSystems.get(r.sourceSystem) });
          const write = {
            sourceSystem: r.sourceSystem,
            localId: r.localId,
            resourceJson: JSON.stringify(r.patient),
            fields,
            payloadDigest: payloadDigest(r.patient),
            sourceLastUpdated: validation.patient.meta?.lastUpdated ?? null,
          };
          const recordId = insertRecord(store, TENANT, write, at);
          stored.push({
            recordId,
            sourceSystem: write.sourceSystem,
            localId: write.localId,
            fields,
            payloadDigest: write.payloadDigest,
            version: 1,
            sourceLastUpdated: write.sourceLastUpdated,
          });
        }
        if (stored.length === 0) continue;
        const identityId = insertIdentity(store, TENANT, randomUUID(), buildCanonical(stored, trustOrder), at);
        for (const record of stored) linkRecord(store, TENANT, record.recordId, identityId, 'auto', null, at);
        const identityTagSet = identityTags(stored, profile.Blocking, ring);
        addTags(store, TENANT, identityId, identityTagSet);
        records += stored.length;
        tags += identityTagSet.length;
      }
    });
  }
  store.checkpoint();
  engine.close();
  return { identities: persons.length, records, tags };
}

function stageKeyChange(engine: LocalEngine): Promise<unknown> {
  addBlockingKey(engine.env, CTX, 'k2');
  const { Blocking } = activeProfile(engine.env.store, TENANT).profile;
  return engine.call(
    'profile/apply',
    {
      document: { Blocking: { ...Blocking, Version: 2, ActiveKeyVersion: 'k2', InactiveKeyVersion: 'k1' } },
      reason: 'bench: stage a key change',
    },
    CTX,
  );
}

async function reverseSourceTrust(engine: LocalEngine): Promise<void> {
  const { SourceTrust } = activeProfile(engine.env.store, TENANT).profile;
  await engine.call(
    'profile/apply',
    { document: { SourceTrust: [...SourceTrust].reverse() }, reason: 'bench: survivorship change' },
    CTX,
  );
}

async function runJob(engine: LocalEngine, kind: 'reindex' | 'reconcile'): Promise<object> {
  const { jobId } = await engine.call(
    kind === 'reindex' ? 'maintenance/reindex' : 'maintenance/reconcile',
    { reason: 'bench', batchSize: BATCH_SIZE },
    CTX,
  );
  const start = performance.now();
  await runWorker(engine.env, {
    tenants: [TENANT],
    once: true,
    maintenance: {
      WorkerEnabled: true,
      PollIntervalSeconds: 1,
      LeaseSeconds: 300,
      ReconciliationSchedules: [],
      FhirSources: [],
      AllowInsecureHttp: false,
    },
  });
  const wallMs = performance.now() - start;
  const job = await engine.call('jobs/get', { jobId }, CTX);
  if (job.status !== 'completed') throw new Error(`bench job ended ${job.status}: ${job.error ?? ''}`);
  const identities = job.populationTotal ?? 0;
  const counters: JobCounters = job.counters;
  return { identities, wallMs, identitiesPerSecond: (identities * 1000) / wallMs, counters };
}

/** N worker processes (replicas) on one registry, started together; one claims the job, any other finds none. */
async function replicas(engine: LocalEngine, dbPath: string, count: number): Promise<object> {
  const { jobId } = await engine.call('maintenance/reconcile', { reason: 'bench', batchSize: BATCH_SIZE }, CTX);
  const where = SETTINGS === undefined ? ['--db', dbPath] : ['--database', dbPath, '--config', SETTINGS];
  const start = performance.now();
  const codes = await Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(process.execPath, [CLI, ...where, '--tenant', TENANT, 'worker', '--once'], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      return new Promise<number | null>((resolve) => child.once('exit', resolve));
    }),
  );
  const wallMs = performance.now() - start;
  const job = await engine.call('jobs/get', { jobId }, CTX);
  if (job.status !== 'completed' || codes.some((c) => c !== 0))
    throw new Error(`bench job ended ${job.status} (exit codes ${codes.join(', ')})`);
  const identities = job.populationTotal ?? 0;
  return { identities, wallMs, identitiesPerSecond: (identities * 1000) / wallMs, counters: job.counters };
}

/**
 * The tag rows a staged key change adds, inserted with no HMAC, validation or job machinery: in one transaction,
 * or committed every perCommit identities. A tag is random, so each row lands on its own page of the tag index:
 * a commit of 25 identities writes some 400 pages to the WAL, and that, not the insert, is the bounded job's floor.
 */
function rawReindex(engine: LocalEngine, perCommit = Number.POSITIVE_INFINITY): object {
  const { store } = engine.env;
  const ids = store
    .statement("SELECT identity_id FROM identity WHERE tenant_id = ? AND status = 'active' ORDER BY identity_id")
    .pluck()
    .all(TENANT) as number[];
  const read = store.statement(
    'SELECT tag, rule_name FROM blocking_tag INDEXED BY blocking_tag_by_identity WHERE tenant_id = ? AND identity_id = ?',
  );
  const insert = store.statement(
    'INSERT OR IGNORE INTO blocking_tag (tenant_id, tag, identity_id, rule_name, rule_set_version, key_version) VALUES (?, ?, ?, ?, 2, ?)',
  );
  const start = performance.now();
  let rows = 0;
  const part = Math.min(perCommit, ids.length);
  for (let from = 0; from < ids.length; from += part)
    store.write(() => {
      for (const id of ids.slice(from, from + part)) {
        // As many new tags as the identity has now: what staging a second key adds. Bytes flipped instead of an HMAC.
        for (const { tag, rule_name } of read.all(TENANT, id) as { tag: Buffer; rule_name: string }[]) {
          insert.run(
            TENANT,
            tag.map((b) => b ^ 0xff),
            id,
            rule_name,
            'k2',
          );
          rows++;
        }
      }
    });
  const wallMs = performance.now() - start;
  return { identities: ids.length, rows, wallMs, identitiesPerSecond: (ids.length * 1000) / wallMs };
}

function rawReconcile(engine: LocalEngine): object {
  const { store } = engine.env;
  const ids = store
    .statement("SELECT identity_id FROM identity WHERE tenant_id = ? AND status = 'active' ORDER BY identity_id")
    .pluck()
    .all(TENANT) as number[];
  const read = store.statement(
    'SELECT logical_version, canonical_json FROM identity WHERE tenant_id = ? AND identity_id = ?',
  );
  const update = store.statement(
    'UPDATE identity SET canonical_json = ?, updated_at = ?, logical_version = logical_version + 1 WHERE tenant_id = ? AND identity_id = ? AND logical_version = ?',
  );
  const at = new Date().toISOString();
  const start = performance.now();
  store.write(() => {
    for (const id of ids) {
      const row = read.get(TENANT, id) as { logical_version: number; canonical_json: string };
      update.run(row.canonical_json, at, TENANT, id, row.logical_version);
    }
  });
  const wallMs = performance.now() - start;
  return { identities: ids.length, wallMs, identitiesPerSecond: (ids.length * 1000) / wallMs };
}

async function scan(engine: LocalEngine): Promise<object> {
  const start = performance.now();
  const report = await engine.call('links/scan', { maxListed: 0 }, CTX);
  const wallMs = performance.now() - start;
  const identities = report.identitiesWithSeveralRecords;
  return {
    identities,
    wallMs,
    identitiesPerSecond: (identities * 1000) / wallMs,
    counters: { scanned: identities, flagged: report.flagged, pairs: report.pairsScored },
  };
}

async function preview(engine: LocalEngine): Promise<object> {
  const { profile } = await engine.call('profile/get', {}, CTX);
  const document = {
    MatchingRules: { ...profile.MatchingRules, Thresholds: { ...profile.MatchingRules.Thresholds, Certain: 0.999 } },
  };
  const start = performance.now();
  const report = await engine.call('profile/preview', { document, maxExamples: 0 }, CTX);
  const wallMs = performance.now() - start;
  const pairs = report.linkedRecordsCompared + report.candidatePairsCompared;
  return {
    identities: report.identitiesCompared,
    wallMs,
    identitiesPerSecond: (report.identitiesCompared * 1000) / wallMs,
    counters: {
      pairs,
      pairsPerSecond: Math.round((pairs * 1000) / wallMs),
      linkBelowCertain: report.changes['link-below-certain'],
    },
  };
}

/** The daily health sample, in its write transaction (a finished job takes the same identity-size query). */
function healthSample(engine: LocalEngine): object {
  const { store } = engine.env;
  const start = performance.now();
  store.write(() => {
    recordDailySample(store, TENANT, new Date());
  });
  const wallMs = performance.now() - start;
  const identities = countIdentities(store, TENANT);
  return { identities, wallMs, identitiesPerSecond: (identities * 1000) / wallMs };
}

async function auditSample(engine: LocalEngine): Promise<object> {
  const start = performance.now();
  const sample = await engine.call('audit/sample', { labels: 400, seed: 1 }, CTX);
  const wallMs = performance.now() - start;
  const pairs = sample.strata.reduce((sum, s) => sum + s.population, 0);
  const identities = countIdentities(engine.env.store, TENANT);
  return {
    identities,
    wallMs,
    identitiesPerSecond: (identities * 1000) / wallMs,
    counters: { pairs, pairsPerSecond: Math.round((pairs * 1000) / wallMs), sampled: sample.pairs.length },
  };
}

const [step, dbPath, people] = process.argv.slice(2);
if (dbPath === undefined)
  throw new Error(
    'usage: jobs-worker.ts build|reindex|raw-reindex|raw-reindex-batched|reconcile|raw-reconcile|scan|preview|health|audit|replicas DB [PEOPLE|N]',
  );
let result: object = {};
// Every statement is the bench tenant's (a PostgreSQL registry's row-level security checks it).
await withTenant(TENANT, async () => {
  if (step === 'build') {
    result = build(dbPath, Number(people ?? '1000'));
  } else {
    const engine = open(dbPath);
    try {
      if (step === 'reindex' || step === 'raw-reindex' || step === 'raw-reindex-batched') await stageKeyChange(engine);
      else if (step !== 'scan' && step !== 'preview' && step !== 'health' && step !== 'audit')
        await reverseSourceTrust(engine);
      switch (step) {
        case 'reindex':
          result = await runJob(engine, 'reindex');
          break;
        case 'reconcile':
          result = await runJob(engine, 'reconcile');
          break;
        case 'raw-reindex':
          result = rawReindex(engine);
          break;
        case 'raw-reindex-batched':
          result = rawReindex(engine, BATCH_SIZE);
          break;
        case 'raw-reconcile':
          result = rawReconcile(engine);
          break;
        case 'scan':
          result = await scan(engine);
          break;
        case 'preview':
          result = await preview(engine);
          break;
        case 'health':
          result = healthSample(engine);
          break;
        case 'audit':
          result = await auditSample(engine);
          break;
        case 'replicas':
          result = await replicas(engine, dbPath, Number(people ?? '1'));
          break;
        default:
          throw new Error(`unknown step ${String(step)}`);
      }
    } finally {
      engine.close();
    }
  }
});
process.stdout.write(JSON.stringify({ ...result, peakRssMiB: peakRssMiB() }) + '\n');
