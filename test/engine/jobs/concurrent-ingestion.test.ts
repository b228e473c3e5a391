/**
 * Optimistic concurrency: ingestion running while a reconciliation runs never has its newer data
 * overwritten. Deterministically (an update injected between a batch's read and its write forces a
 * conflict and a retry on fresh data) and with two real processes writing the same database.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import type { EngineEnv } from '../../../engine/env.ts';
import { buildCanonical } from '../../../engine/ingest/survivorship.ts';
import { payloadDigest } from '../../../engine/ingest/payload-digest.ts';
import { activeProfile } from '../../../engine/store/profiles.ts';
import { recordsOfIdentity } from '../../../engine/store/records.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import type { BatchInfo } from '../../../engine/jobs/runner.ts';
import {
  CTX,
  TENANT,
  exited,
  makeSandbox,
  openSandbox,
  readJob,
  setMaintenance,
  spawnWorker,
  waitFor,
} from './helpers.ts';
import { scratchDir } from '../../helpers/temp.ts';

interface RecordRow {
  identity_id: number;
  record_id: number;
  source_system: string;
  resource_json: string;
}

/** A newer version of a stored Patient with a different family name. */
function newerVersion(resourceJson: string, family: string): Record<string, unknown> {
  const patient = JSON.parse(resourceJson) as { name?: { family?: string }[]; meta?: { lastUpdated?: string } };
  const first = patient.name?.[0];
  if (first !== undefined) first.family = family;
  patient.meta = { ...patient.meta, lastUpdated: '2099-01-01T00:00:00Z' };
  return patient;
}

async function reverseSourceTrust(engine: LocalEngine): Promise<void> {
  const current = await engine.call('profile/get', {}, CTX);
  await engine.call(
    'profile/apply',
    { document: { SourceTrust: [...current.profile.SourceTrust].reverse() }, reason: 'test: survivorship change' },
    CTX,
  );
}

/** Every active identity's canonical record is what its current records give: nothing stale was written over them. */
function expectCanonicalRecordsCurrent(env: EngineEnv): void {
  const trustOrder = activeProfile(env.store, TENANT).profile.SourceTrust.map((s) => s.SourceSystem);
  const identities = env.store
    .statement(
      "SELECT identity_id, canonical_json FROM identity WHERE tenant_id = ? AND status = 'active' ORDER BY identity_id",
    )
    .all(TENANT) as { identity_id: number; canonical_json: string }[];
  const stale = identities.filter(
    (i) =>
      JSON.stringify(buildCanonical(recordsOfIdentity(env.store, TENANT, i.identity_id), trustOrder)) !==
      i.canonical_json,
  );
  expect(stale.map((i) => i.identity_id)).toEqual([]);
}

describe('reconciliation beside concurrent ingestion', () => {
  it(
    'retries a batch whose identity an ingestion changed between read and write, and keeps the newer data',
    { timeout: 120_000 },
    async () => {
      const { engine } = await openSandbox('conflict', 300, 5);
      await reverseSourceTrust(engine);
      const { jobId } = await engine.call('maintenance/reconcile', { reason: 'conflict test', batchSize: 5 }, CTX);

      const batches: BatchInfo[] = [];
      let injected:
        { cursor: number; identityId: number; recordId: number; digest: string; versionBefore: number } | undefined;
      await runWorker(engine.env, {
        tenants: [TENANT],
        once: true,
        hooks: {
          beforeWrite: async (info) => {
            batches.push(info);
            if (injected !== undefined || info.phase !== 'rebuilding' || info.cursor === 0) return;
            const row = engine.env.store
              .statement(
                `SELECT i.identity_id, r.record_id, r.source_system, (SELECT resource_json FROM source_resource x WHERE x.record_id = r.record_id) AS resource_json FROM identity i
               JOIN identity_link l ON l.tenant_id = i.tenant_id AND l.identity_id = i.identity_id
               JOIN source_record r ON r.tenant_id = l.tenant_id AND r.record_id = l.record_id
               WHERE i.tenant_id = ? AND i.identity_id > ? AND i.status = 'active' ORDER BY i.identity_id, r.record_id LIMIT 1`,
              )
              .get(TENANT, info.cursor) as RecordRow;
            const versionBefore = engine.env.store
              .statement('SELECT logical_version FROM identity WHERE identity_id = ?')
              .pluck()
              .get(row.identity_id) as number;
            const patient = newerVersion(row.resource_json, 'Zzyzx');
            const report = await engine.call(
              'records/ingest',
              { sourceSystem: row.source_system, ndjson: JSON.stringify(patient) },
              CTX,
            );
            expect(report.updated).toBe(1);
            injected = {
              cursor: info.cursor,
              identityId: row.identity_id,
              recordId: row.record_id,
              digest: payloadDigest(patient),
              versionBefore,
            };
          },
        },
      });

      expect(injected).toBeDefined();
      if (injected === undefined) return;
      const { cursor } = injected;
      const retried = batches.filter((b) => b.phase === 'rebuilding' && b.cursor === cursor).map((b) => b.attempt);
      expect(retried).toEqual([1, 2]);
      const job = await engine.call('jobs/get', { jobId }, CTX);
      expect(job.status).toBe('completed');

      // The ingested version is kept, and the identity's canonical record is rebuilt from it (not from the stale read).
      const record = engine.env.store
        .statement('SELECT payload_digest FROM source_record WHERE record_id = ?')
        .pluck()
        .get(injected.recordId);
      expect(record).toBe(injected.digest);
      const canonical = engine.env.store
        .statement('SELECT canonical_json FROM identity WHERE identity_id = ?')
        .pluck()
        .get(injected.identityId) as string;
      expect(canonical).toContain('zzyzx');
      expectCanonicalRecordsCurrent(engine.env);
    },
  );

  it(
    'two processes: ingestion of newer versions while a worker reconciles leaves no canonical record stale',
    { timeout: 240_000 },
    async () => {
      const { dir, cleanup } = scratchDir();
      onTestFinished(cleanup);
      const db = await makeSandbox(dir, 'processes', 1500, 8);
      setMaintenance(db, { LeaseSeconds: 30, PollIntervalSeconds: 1 });
      const engine = LocalEngine.open({ dbPath: db });
      onTestFinished(() => {
        engine.close();
      });
      await reverseSourceTrust(engine);
      const { jobId } = await engine.call(
        'maintenance/reconcile',
        { reason: 'concurrent ingestion test', batchSize: 5 },
        CTX,
      );
      const targets = engine.env.store
        .statement(
          'SELECT r.record_id, r.source_system, x.resource_json FROM source_record r JOIN source_resource x ON x.record_id = r.record_id WHERE r.tenant_id = ? AND r.record_id % 9 = 0 ORDER BY r.record_id DESC',
        )
        .all(TENANT) as RecordRow[];

      const worker = spawnWorker(db);
      onTestFinished(() => {
        worker.kill('SIGKILL');
      });
      await waitFor('the job to start', () => (readJob(db, jobId).counters.scanned > 0 ? true : undefined), 60_000, 20);
      let whileRunning = 0;
      const digests = new Map<number, string>();
      for (let start = 0; start < targets.length; start += 5) {
        const chunk = targets.slice(start, start + 5);
        if ((await engine.call('jobs/get', { jobId }, CTX)).status === 'running') whileRunning++;
        for (const target of chunk) {
          const patient = newerVersion(target.resource_json, `Newname${String(target.record_id)}`);
          const report = await engine.call(
            'records/ingest',
            { sourceSystem: target.source_system, ndjson: JSON.stringify(patient) },
            CTX,
          );
          expect(report.updated).toBe(1);
          digests.set(target.record_id, payloadDigest(patient));
        }
      }
      const finished = await waitFor(
        'the job to finish',
        () => {
          const job = readJob(db, jobId);
          return job.status === 'running' || job.status === 'queued' ? undefined : job;
        },
        180_000,
        50,
      );
      worker.kill('SIGTERM');
      expect(await exited(worker), worker.output()).toBe(0);

      expect(whileRunning, 'ingestion must overlap the running job for this test to mean anything').toBeGreaterThan(3);
      expect(finished.status).toBe('completed');
      for (const [recordId, digest] of digests) {
        expect(
          engine.env.store
            .statement('SELECT payload_digest FROM source_record WHERE record_id = ?')
            .pluck()
            .get(recordId),
        ).toBe(digest);
      }
      expectCanonicalRecordsCurrent(engine.env);
    },
  );
});
