/**
 * End to end with the real `mpi-console worker` process against the loopback servers: 5,000 Patients imported
 * with client credentials; a rerun finds them all unchanged; an incremental window imports only the changed
 * ones; Patients missing from a full import are warnings and stay linked; and a worker killed with SIGKILL
 * mid-import (between pages, and inside a page's write transaction) is resumed by another worker, ending
 * in the same registry state as the uninterrupted run, with no record imported twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Patient } from '@medplum/fhirtypes';
import { Store } from '../../../engine/store/store.ts';
import type { JobState } from '../../../engine/contract/maintenance.ts';
import { runProcess, type ProcessResult } from '../../helpers/processes.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { CTX, makeRegistry, sourcePatients, startWorld, TENANT, type World } from '../../helpers/fhir/world.ts';

const PATIENTS = 5000;
const SOURCE = 'st-marys-hospital';

let world: World;
let seeded: Patient[] = [];

beforeAll(async () => {
  world = await startWorld();
  seeded = await world.fhir.seed(sourcePatients(PATIENTS));
}, 120_000);

afterAll(async () => {
  await world.close();
});

function run(db: string, args: readonly string[], faultPoint?: string): Promise<ProcessResult> {
  return runProcess(
    ['--db', db, '--tenant', TENANT, ...args],
    faultPoint === undefined ? {} : { env: { MPI_FAULT_POINT: faultPoint } },
  );
}

/** Reads a job in this process (a second connection; the worker is another process). */
async function readJob(db: string, jobId: string): Promise<JobState> {
  const engine = LocalEngine.open({ dbPath: db, create: false });
  try {
    return await engine.call('jobs/get', { jobId }, CTX);
  } finally {
    engine.close();
  }
}

/** Queues in this process, as the console would; only the worker needs to be a process of its own. */
async function queue(db: string, changedSince?: string): Promise<string> {
  const engine = LocalEngine.open({ dbPath: db, create: false });
  try {
    const input = {
      reason: 'import',
      batchSize: 25,
      externalSourceSystem: SOURCE,
      ...(changedSince === undefined ? {} : { changedSince }),
    };
    return (await engine.call('maintenance/reconcile', input, CTX)).jobId;
  } finally {
    engine.close();
  }
}

async function reconcile(db: string, changedSince?: string): Promise<JobState> {
  const jobId = await queue(db, changedSince);
  const worked = await run(db, ['worker', '--once']);
  expect(worked.status, worked.stderr).toBe(0);
  const job = await readJob(db, jobId);
  // The worker's line for the finished job gives its figures as the job records them.
  const c = job.counters;
  const figures = `${c.imported > 0 ? `${c.imported.toLocaleString('en-US')} imported, ` : ''}${c.scanned.toLocaleString('en-US')} scanned; review cases `;
  expect(worked.stdout).toContain(`job ${jobId} (tenant ${TENANT}): ${job.status}: ${figures}`);
  expect(worked.stdout).toMatch(
    new RegExp(`; ${String(c.failure)} failures?; its phases: mpi-console job show ${jobId}\n`),
  );
  return job;
}

/** The registry's state without what differs between runs by design (random enterprise IDs, HMAC secrets, times). */
function registryState(db: string): Record<string, unknown[]> {
  const store = Store.open(db, { readonly: true });
  try {
    const q = (sql: string) => store.statement(sql).all(TENANT);
    return {
      records: q(
        'SELECT record_id, source_system, local_id, payload_digest, logical_version, source_last_updated FROM source_record WHERE tenant_id = ? ORDER BY record_id',
      ),
      receipts: q(
        'SELECT source_system, local_id, payload_digest FROM ingestion_receipt WHERE tenant_id = ? ORDER BY source_system, local_id, payload_digest',
      ),
      identities: q(
        'SELECT identity_id, logical_version, status FROM identity WHERE tenant_id = ? ORDER BY identity_id',
      ),
      links: q(
        'SELECT record_id, identity_id, link_kind, score FROM identity_link WHERE tenant_id = ? ORDER BY record_id',
      ),
      // Tags are keyed by each registry's own HMAC secret: compared by identity and rule.
      tags: q(
        'SELECT identity_id, rule_name, count(*) AS n FROM blocking_tag WHERE tenant_id = ? GROUP BY identity_id, rule_name ORDER BY identity_id, rule_name',
      ),
      reviews:
        q(`SELECT kind, left_identity_id, left_version, right_identity_id, right_version, score, decision FROM review_case WHERE tenant_id = ?
                  ORDER BY left_identity_id, right_identity_id, kind`),
    };
  } finally {
    store.close();
  }
}

function linkedLocalIds(db: string): Set<string> {
  const store = Store.open(db, { readonly: true });
  try {
    const rows = store
      .statement(
        'SELECT r.local_id FROM source_record r JOIN identity_link l ON l.tenant_id = r.tenant_id AND l.record_id = r.record_id WHERE r.tenant_id = ? AND r.source_system = ?',
      )
      .pluck()
      .all(TENANT, SOURCE) as string[];
    return new Set(rows);
  } finally {
    store.close();
  }
}

let uninterrupted: Record<string, unknown[]>;
let firstDb = '';

describe('a reconciliation importing from the FHIR source, through the CLI', () => {
  let db: string;

  it('imports 5,000 Patients with client credentials', async () => {
    db = await makeRegistry(world, 'e2e', { PollIntervalSeconds: 1 });
    firstDb = db;
    const job = await reconcile(db);
    expect(job.error).toBeNull();
    expect(job.status).toBe('completed');
    expect(job.counters).toMatchObject({ imported: PATIENTS, updated: 0, failure: 0, warning: 0 });
    expect(job.phases[0]).toMatchObject({ name: 'importing', status: 'completed', processed: PATIENTS });
    uninterrupted = registryState(db);
    expect(uninterrupted.records).toHaveLength(PATIENTS);
    expect(uninterrupted.receipts).toHaveLength(PATIENTS);
  }, 300_000);

  it('finds every Patient unchanged on a rerun', async () => {
    const job = await reconcile(db);
    expect(job.status).toBe('completed');
    expect(job.counters).toMatchObject({ imported: 0, updated: 0, failure: 0, warning: 0 });
    expect(job.phases[0]?.processed).toBe(PATIENTS);
    expect(registryState(db)).toEqual(uninterrupted);
  }, 300_000);
});

describe('kill -9 of the worker mid-import, resumed by another worker', () => {
  it.each(['job:batch-committed@7', 'job:batch-written@4'])(
    '%s',
    async (point) => {
      const db = await makeRegistry(world, `crash-${point.replace(/[^a-z0-9]/gi, '-')}`, {
        LeaseSeconds: 2,
        PollIntervalSeconds: 1,
      });
      const jobId = await queue(db);
      const killed = await run(db, ['worker', '--once'], point);
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      const half = await readJob(db, jobId);
      expect(half.status).toBe('running');
      expect(half.phases[0]?.status).toBe('running');
      const committedPages = Number(point.split('@')[1]) - (point.startsWith('job:batch-written') ? 1 : 0);
      expect(half.counters.imported).toBe(committedPages * 100);
      // Another worker takes the job over once the lease has expired.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const resumed = await run(db, ['worker', '--once']);
      expect(resumed.status, resumed.stderr).toBe(0);
      const job = await readJob(db, jobId);
      expect(job.status).toBe('completed');
      expect(job.counters).toMatchObject({
        imported: PATIENTS,
        updated: 0,
        unchanged: expect.any(Number) as unknown,
        failure: 0,
      });
      expect(job.phases[0]?.processed).toBe(PATIENTS);
      expect(registryState(db)).toEqual(uninterrupted);
    },
    300_000,
  );
});

describe('changes on the source after the first import', () => {
  const db = (): string => firstDb;

  it('imports only the Patients changed inside an incremental window', async () => {
    const since = new Date(Date.now() + 5).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const changed = seeded.slice(0, 40);
    for (const patient of changed)
      await world.fhir.repo.updateResource({ ...patient, telecom: [{ system: 'phone', value: '555 0100' }] });
    const job = await reconcile(db(), since);
    expect(job.status).toBe('completed');
    expect(job.changedSince).toBe(since);
    expect(job.phases[0]?.processed).toBe(changed.length);
    expect(job.counters).toMatchObject({ imported: 0, updated: changed.length, failure: 0, warning: 0 });
  }, 300_000);

  it('reports Patients missing from a full import as warnings and leaves them linked', async () => {
    const gone = seeded.slice(100, 103);
    for (const patient of gone) await world.fhir.repo.deleteResource('Patient', patient.id ?? '');
    const job = await reconcile(db());
    expect(job.status).toBe('completed');
    expect(job.counters.warning).toBe(gone.length);
    expect(job.phases[0]?.note).toMatch(
      /3 record\(s\) of this source system were not returned by the full import; they stay linked/,
    );
    const linked = linkedLocalIds(db());
    for (const patient of gone) expect(linked.has(patient.identifier?.[0]?.value ?? '')).toBe(true);
    // The note counts; it never lists identifiers.
    expect(job.phases[0]?.note).not.toMatch(/M\d{7}/);
  }, 300_000);
});
