/**
 * Reconciliation's matching phase keeps each compared identity's prepared records between batches, at the identity
 * version they were read at. The cases it finds must not depend on that cache: a cache of two identities, dropped
 * and refilled within nearly every batch, finds exactly the pairs the default cache finds.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { reconcileMatching } from '../../../engine/jobs/reconcile.ts';
import { keyRingFor } from '../../../engine/config/key-ring.ts';
import { activeProfile } from '../../../engine/store/profiles.ts';
import { identityKeys, identityKeysSql } from '../../../engine/jobs/population.ts';
import { TENANT, copyDatabase, lowerProbable, makeSandbox } from './helpers.ts';
import { scratchDir } from '../../helpers/temp.ts';

/** Runs the matching phase to its end at batch size 25; returns the review cases it opened (pair and score). */
function matchingCases(dbPath: string, memberCapacity?: number): string[] {
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
    for (let cursor = 0; ;) {
      const plan = store.read(() => work.readBatch(cursor, 25));
      if (plan === null) break;
      store.write(() => plan.write(new Date().toISOString(), false));
      cursor = plan.lastIdentityId;
    }
    return (
      store
        .statement(
          'SELECT left_identity_id, right_identity_id, score FROM review_case WHERE tenant_id = ? AND kind = ? ORDER BY 1, 2',
        )
        .raw()
        .all(TENANT, 'PopulationReconciliation') as unknown[][]
    ).map((row) => row.join(' '));
  } finally {
    engine.close();
  }
}

describe("reconciliation's matching phase", () => {
  it('finds the same cases whatever its cache of prepared identities holds', async () => {
    const { dir, cleanup } = scratchDir();
    onTestFinished(cleanup);
    const db = await makeSandbox(dir, 'matching', 3000, 6);
    // Most candidate pairs open a case, so every pair counts.
    const engine = LocalEngine.open({ dbPath: db });
    await lowerProbable(engine);
    engine.close();
    const tiny = copyDatabase(db, `${db}.tiny.db`);
    const cases = matchingCases(db);
    expect(cases.length).toBeGreaterThan(50);
    expect(matchingCases(tiny, 2)).toEqual(cases);
  });

  it("reads the candidates' keys and versions from their own index, never an identity row", async () => {
    const { dir, cleanup } = scratchDir();
    onTestFinished(cleanup);
    const engine = LocalEngine.open({ dbPath: await makeSandbox(dir, 'keys', 40) });
    onTestFinished(() => {
      engine.close();
    });
    const { store } = engine.env;
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
