/**
 * Reconciliation's matching phase keeps each compared identity's prepared records between batches, at the identity
 * version they were read at. The cases it finds must not depend on that cache: a cache of two identities, dropped
 * and refilled within nearly every batch, finds exactly the pairs the default cache finds; and an identity whose
 * record an ingestion changes between two batches is compared as it now is, never as the cache last held it.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { reconcileMatching } from '../../../engine/jobs/reconcile.ts';
import { keyRingFor } from '../../../engine/config/key-ring.ts';
import { activeProfile } from '../../../engine/store/profiles.ts';
import { identityKeys, identityKeysSql } from '../../../engine/jobs/population.ts';
import { CTX, TENANT, copyDatabase, lowerProbable, makeSandbox, openSandbox } from './helpers.ts';
import { scratchDir } from '../../helpers/temp.ts';

/** Runs the matching phase to its end at batch size 25; returns the review cases it opened (pair and score). */
async function matchingCases(
  dbPath: string,
  memberCapacity?: number,
  afterBatch?: (engine: LocalEngine, batch: number) => Promise<void>,
): Promise<string[]> {
  const engine = LocalEngine.open({ dbPath });
  try {
    const store = engine.env.store;
    const profile = activeProfile(store, TENANT);
    const work = reconcileMatching(
      {
        store,
        tenantId: TENANT,
        jobId: 'matching-test',
        profile,
        ring: keyRingFor(profile.profile.Blocking, engine.env.settings(), TENANT),
      },
      memberCapacity,
    );
    for (let cursor = 0, batch = 1; ; batch++) {
      const plan = store.read(() => work.readBatch(cursor, 25));
      if (plan === null) break;
      store.write(() => plan.write(new Date().toISOString(), false));
      cursor = plan.lastIdentityId;
      await afterBatch?.(engine, batch);
    }
    return cases(engine);
  } finally {
    engine.close();
  }
}

/** The reconciliation cases opened: left, right, right's version, score. */
function cases(engine: LocalEngine): string[] {
  return (
    engine.env.store
      .statement(
        'SELECT left_identity_id, right_identity_id, right_version, score FROM review_case WHERE tenant_id = ? AND kind = ? ORDER BY 1, 2',
      )
      .raw()
      .all(TENANT, 'PopulationReconciliation') as unknown[][]
  ).map((row) => row.join(' '));
}

/** An identity's first record: its source, local ID and stored Patient. */
function firstRecord(engine: LocalEngine, identityId: number): { source: string; localId: string; patient: Patient } {
  const row = engine.env.store
    .statement(
      `SELECT r.source_system, r.local_id, x.resource_json FROM identity_link l
       JOIN source_record r ON r.tenant_id = l.tenant_id AND r.record_id = l.record_id
       JOIN source_resource x ON x.record_id = r.record_id
       WHERE l.tenant_id = ? AND l.identity_id = ? ORDER BY r.record_id LIMIT 1`,
    )
    .raw()
    .get(TENANT, identityId) as [string, string, string];
  return { source: row[0], localId: row[1], patient: JSON.parse(row[2]) as Patient };
}

interface Patient {
  readonly name?: unknown;
  readonly birthDate?: unknown;
  readonly gender?: unknown;
  readonly address?: unknown;
  readonly telecom?: unknown;
  readonly meta?: Record<string, unknown>;
  readonly [key: string]: unknown;
}

/** A closed sandbox with Probable lowered: most candidate pairs open a case, so every pair counts. */
async function lowProbableSandbox(name: string, people: number, seed: number): Promise<string> {
  const { dir, cleanup } = scratchDir();
  onTestFinished(cleanup);
  const db = await makeSandbox(dir, name, people, seed);
  const engine = LocalEngine.open({ dbPath: db });
  try {
    await lowerProbable(engine);
  } finally {
    engine.close();
  }
  return db;
}

describe("reconciliation's matching phase", () => {
  it('finds the same cases whatever its cache of prepared identities holds', async () => {
    const db = await lowProbableSandbox('matching', 3000, 6);
    const tiny = copyDatabase(db, `${db}.tiny.db`);
    const found = await matchingCases(db);
    expect(found.length).toBeGreaterThan(50);
    expect(await matchingCases(tiny, 2)).toEqual(found);
  });

  it('compares an identity an ingestion changed between two batches as it now is, not as its cache held it', async () => {
    const db = await lowProbableSandbox('changed', 600, 7);
    // A first run tells which identities the first batch compares with: the right side of its cases, read into the
    // cache at their versions. The last of them is changed after that batch into a copy of an identity just before
    // it, which only a later batch reaches.
    const probe = copyDatabase(db, `${db}.probe.db`);
    const firstBatchRights = (await matchingCases(probe))
      .map((line) => line.split(' ').map(Number))
      .filter(([left]) => (left ?? 0) <= 25)
      .map(([, right]) => right ?? 0);
    const changed = Math.max(...firstBatchRights);
    const copied = changed - 1;
    expect(copied).toBeGreaterThan(25);
    let version = 0;
    const found = await matchingCases(db, undefined, async (engine, batch) => {
      if (batch !== 1) return;
      const target = firstRecord(engine, changed);
      const model = firstRecord(engine, copied).patient;
      const patient = {
        ...target.patient,
        name: model.name,
        birthDate: model.birthDate,
        gender: model.gender,
        address: model.address,
        telecom: model.telecom,
        meta: { ...target.patient.meta, lastUpdated: '2099-01-01T00:00:00Z' },
      };
      const report = await engine.call(
        'records/ingest',
        { sourceSystem: target.source, ndjson: JSON.stringify(patient) },
        CTX,
      );
      expect(report.updated).toBe(1);
      version = engine.env.store
        .statement('SELECT logical_version FROM identity WHERE tenant_id = ? AND identity_id = ?')
        .pluck()
        .get(TENANT, changed) as number;
    });
    // The copy is found, at the identity's new version, with the score of identical records.
    const pair = found.find((line) => line.startsWith(`${String(copied)} ${String(changed)} `));
    expect(pair, `no case for ${String(copied)} and its copy ${String(changed)}`).toBeDefined();
    const [, , rightVersion, score] = (pair ?? '').split(' ').map(Number);
    expect(rightVersion).toBe(version);
    expect(score).toBeGreaterThan(0.999);
  });

  it("reads the candidates' keys and versions from their own index, never an identity row", async () => {
    const { store } = await openSandbox('keys', 40);
    // The identity row holds the canonical record: reading it for every candidate was a tenth of the phase's time.
    const plan = store
      .statement(`EXPLAIN QUERY PLAN ${identityKeysSql('?, ?, ?')}`)
      .all(TENANT, 1, 2, 3)
      .map((row) => (row as { detail: string }).detail)
      .join(' | ');
    expect(plan).toMatch(/COVERING INDEX identity_keys/);
    const rows = store
      .statement('SELECT identity_id, enterprise_id, logical_version, status FROM identity WHERE tenant_id = ?')
      .raw()
      .all(TENANT) as [number, string, number, string][];
    expect(rows.length).toBeGreaterThan(10);
    const keys = identityKeys(
      store,
      TENANT,
      rows.map(([id]) => id),
    );
    expect(
      [...keys.values()].map((k) => [k.identityId, k.enterpriseId, k.version, k.active ? 'active' : 'retired']),
    ).toEqual(rows);
  });
});
