/**
 * What an import must never do, against the loopback servers: leak the client secret, a token or a patient
 * value into job records, audit rows, phase notes or command output (planted values are searched for);
 * overwrite newer data from a concurrent clinical update; read plain HTTP without AllowInsecureHttp (and a
 * warning when it does). Also: `sources list|check`, and a schedule with a SourceSystem.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Patient } from '@medplum/fhirtypes';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { main } from '../../../main/cli/main.ts';
import { BASE_PATH, startFhirServer, type FhirServer } from '../../helpers/fhir/fhir-server.ts';
import {
  CLIENT_SECRET,
  CTX,
  importAndReconcile,
  makeRegistry,
  setMaintenance,
  SOURCE,
  SOURCE_MRN_SYSTEM,
  sourceEntry,
  sourcePatients,
  startWorld,
  TENANT,
  type World,
} from '../../helpers/fhir/world.ts';

const FAST = { attempts: 3, baseMs: 5, capMs: 20, maxRetryAfterMs: 100 };
const PLANTED_FAMILY = 'Zqxplantedfamily';
const PLANTED_BIRTH = 'PLANTED-birth-19xx';

let world: World;
let seeded: Patient[];

beforeAll(async () => {
  world = await startWorld();
  const patients = sourcePatients(120);
  const first = patients[0];
  const second = patients[1];
  if (first === undefined || second === undefined) throw new Error('no patients');
  first.name = [{ family: PLANTED_FAMILY, given: ['Ann'] }];
  second.birthDate = PLANTED_BIRTH;
  seeded = await world.fhir.seed(patients);
});

afterAll(async () => {
  await world.close();
});

async function cli(db: string, args: readonly string[]): Promise<{ status: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const status = await main(
    ['--db', db, '--tenant', TENANT, ...args],
    (t) => (out += t),
    (t) => (err += t),
  );
  return { status, out, err };
}

function rowsText(engine: LocalEngine): string {
  const q = (sql: string) => JSON.stringify(engine.env.store.statement(sql).all(TENANT));
  return [
    q('SELECT * FROM maintenance_job WHERE tenant_id = ?'),
    q('SELECT * FROM maintenance_job_phase WHERE tenant_id = ?'),
    q('SELECT * FROM audit_record WHERE tenant_id = ?'),
  ].join('\n');
}

describe('canaries', () => {
  it('no secret, token or patient value in job records, audit rows, notes, errors or output; the invalid Patient is a failure with its path', async () => {
    const db = await makeRegistry(world, 'canaries');
    const engine = LocalEngine.open({ dbPath: db });
    try {
      const job = await importAndReconcile(engine, 'canaries', FAST);
      const { jobId } = job;
      expect(job.status).toBe('completed');
      expect(job.counters).toMatchObject({ imported: 119, failure: 1 });
      expect(job.phases[0]?.note).toBe(
        'page 1, Bundle.entry[1].resource.birthDate: must be a FHIR date (YYYY, YYYY-MM or YYYY-MM-DD)',
      );
      // A failed job too: the next page refused.
      world.proxy.inject({ kind: 'next-other-origin', origin: world.other.origin }, 0);
      const failed = await engine.call(
        'maintenance/reconcile',
        { reason: 'canaries', batchSize: 25, externalSourceSystem: SOURCE },
        CTX,
      );
      await runWorker(engine.env, { tenants: [TENANT], once: true, importRetry: FAST });
      expect((await engine.call('jobs/get', { jobId: failed.jobId }, CTX)).status).toBe('failed');

      const outputs = [
        rowsText(engine),
        (await cli(db, ['job', 'show', jobId])).out,
        (await cli(db, ['job', 'show', failed.jobId, '--json'])).out,
        (await cli(db, ['jobs', '--json'])).out,
        JSON.stringify(await cli(db, ['sources', 'list'])),
        JSON.stringify(await cli(db, ['sources', 'check', SOURCE, '--json'])),
      ].join('\n');
      for (const planted of [CLIENT_SECRET, PLANTED_FAMILY, PLANTED_BIRTH, PLANTED_FAMILY.toLowerCase()])
        expect(outputs).not.toContain(planted);
      // A JWT (header.payload.signature in base64url) never lands anywhere either.
      expect(outputs).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}\./);
    } finally {
      engine.close();
    }
    // The secret is nowhere in the database files.
    for (const suffix of ['', '-wal']) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(db + suffix);
      } catch {
        continue;
      }
      expect(bytes.includes(Buffer.from(CLIENT_SECRET))).toBe(false);
    }
  });
});

describe('a concurrent clinical update', () => {
  it('is never overwritten by an older version from the source', async () => {
    const db = await makeRegistry(world, 'concurrent');
    const engine = LocalEngine.open({ dbPath: db });
    const target = seeded[5];
    const mrn = target?.identifier?.[0]?.value ?? '';
    // Later than the source's version (seeded before this test), and not in the future (a future instant orders nothing).
    const newerAt = new Date().toISOString();
    const newer = { ...target, meta: { lastUpdated: newerAt }, telecom: [{ system: 'phone', value: '555 0199' }] };
    try {
      const { jobId } = await engine.call(
        'maintenance/reconcile',
        { reason: 'concurrent', batchSize: 25, externalSourceSystem: SOURCE },
        CTX,
      );
      let interleaved = 0;
      await runWorker(engine.env, {
        tenants: [TENANT],
        once: true,
        importRetry: FAST,
        hooks: {
          async beforeWrite(info) {
            if (info.phase !== 'importing' || info.cursor !== 0 || interleaved > 0) return;
            interleaved++;
            // The clinical system's newer version lands between the page's read and its write.
            await engine.call('records/ingest', { sourceSystem: SOURCE, ndjson: JSON.stringify(newer) }, CTX);
          },
        },
      });
      const job = await engine.call('jobs/get', { jobId }, CTX);
      expect(interleaved).toBe(1);
      expect(job.status).toBe('completed');
      expect(job.counters.imported).toBe(118);
      const stored = engine.env.store
        .statement(
          'SELECT r.source_last_updated, s.resource_json FROM source_record r JOIN source_resource s ON s.tenant_id = r.tenant_id AND s.record_id = r.record_id WHERE r.tenant_id = ? AND r.local_id = ?',
        )
        .get(TENANT, mrn) as { source_last_updated: string; resource_json: string };
      expect(stored.source_last_updated).toBe(newerAt);
      expect(stored.resource_json).toContain('555 0199');
    } finally {
      engine.close();
    }
  });
});

describe('plain HTTP', () => {
  let plain: FhirServer;
  beforeAll(async () => {
    plain = await startFhirServer(world.tls, { plain: true });
    await plain.seed(sourcePatients(30, 9));
  });
  afterAll(async () => {
    await plain.close();
  });

  it('is refused without AllowInsecureHttp, and with it each job records a warning', async () => {
    const db = await makeRegistry(world, 'plain');
    const entry = sourceEntry(world, { BaseUrl: `${plain.origin}${BASE_PATH}`, Authentication: { Type: 'None' } });
    setMaintenance(db, { FhirSources: [entry] });
    const refused = await (async () => {
      const engine = LocalEngine.open({ dbPath: db });
      try {
        return await engine.call(
          'maintenance/reconcile',
          { reason: 'plain', batchSize: 25, externalSourceSystem: SOURCE },
          CTX,
        );
      } finally {
        engine.close();
      }
    })().catch((error: unknown) => error);
    expect(refused).toMatchObject({
      kind: 'validation',
      issues: expect.arrayContaining([
        { path: 'Maintenance.FhirSources[0].BaseUrl', message: expect.stringMatching(/HTTPS is required/) as unknown },
      ]) as unknown,
    });
    setMaintenance(db, { FhirSources: [entry], AllowInsecureHttp: true });
    const engine = LocalEngine.open({ dbPath: db });
    try {
      const { jobId } = await engine.call(
        'maintenance/reconcile',
        { reason: 'plain', batchSize: 25, externalSourceSystem: SOURCE },
        CTX,
      );
      await runWorker(engine.env, { tenants: [TENANT], once: true, importRetry: FAST });
      const job = await engine.call('jobs/get', { jobId }, CTX);
      expect(job.status).toBe('completed');
      expect(job.counters).toMatchObject({ imported: 30, warning: 1 });
      expect(job.phases[0]?.note).toMatch(/plain HTTP under AllowInsecureHttp/);
    } finally {
      engine.close();
    }
  });
});

describe('sources list and check', () => {
  it('lists the source without its secret and checks it; a bad secret file fails the check at its step', async () => {
    const db = await makeRegistry(world, 'sources');
    const list = await cli(db, ['sources', 'list']);
    expect(list.status).toBe(0);
    expect(list.out).toContain(SOURCE);
    expect(list.out).toContain(`file ${world.secretFile}`);
    expect(list.out).toContain(SOURCE_MRN_SYSTEM);
    const check = await cli(db, ['sources', 'check', SOURCE, '--json']);
    expect(check.status, check.err).toBe(0);
    expect(JSON.parse(check.out)).toMatchObject({
      configuration: 'ok',
      token: 'ok',
      firstPage: 'ok',
      entries: 1,
      hasNextPage: true,
      error: null,
    });

    const placeholder = `${world.dir}/placeholder-secret`;
    writeFileSync(placeholder, '<CLIENT_SECRET>\n', { mode: 0o600 });
    setMaintenance(db, {
      FhirSources: [
        sourceEntry(world, {
          Authentication: { ...(sourceEntry(world).Authentication as object), ClientSecretFile: placeholder },
        }),
      ],
    });
    const bad = await cli(db, ['sources', 'check', SOURCE]);
    expect(bad.status).toBe(1);
    expect(bad.out).toMatch(/configuration and secret\s+failed/);
    expect(bad.out).toMatch(/still holds a placeholder such as <CLIENT_SECRET>/);
    const unknown = await cli(db, ['sources', 'check', 'nowhere']);
    expect(unknown.status).toBe(1);
    expect(unknown.err).toMatch(/no external FHIR source of this tenant has this source system/);
    expect(unknown.err).not.toContain('nowhere');
  });
});

describe('schedules', () => {
  it('a schedule with a SourceSystem queues a reconciliation that imports from it', async () => {
    const db = await makeRegistry(world, 'schedule');
    setMaintenance(db, {
      FhirSources: [sourceEntry(world)],
      ReconciliationSchedules: [
        {
          Key: 'nightly',
          TenantId: TENANT,
          SourceSystem: SOURCE,
          IntervalMinutes: 1440,
          BatchSize: 25,
          RunOnStartup: true,
        },
      ],
    });
    const engine = LocalEngine.open({ dbPath: db });
    try {
      await runWorker(engine.env, { tenants: [TENANT], once: true, importRetry: FAST });
      const { rows } = await engine.call('jobs/list', { limit: 5 }, CTX);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        status: 'completed',
        externalSourceSystem: SOURCE,
        scheduleKey: 'nightly',
        counters: { imported: 119, failure: 1 },
      });
    } finally {
      engine.close();
    }
  });
});
