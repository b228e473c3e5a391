/**
 * A job batch writes only over the identities it read: between a batch's read and its write, an identity raised to
 * a new version (an ingestion's change) or no longer active makes the write refuse with a conflict, and the runner
 * retries the batch on fresh data. The identities a batch leaves as they were are checked together
 * (population.ts expectIdentityVersions), in reconciliation's rebuilding phase (every identity of the batch) and its
 * matching phase (every identity of a pair it opens a case for).
 */
import { describe, expect, it } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { reconcileMatching, reconcileRebuilding } from '../../../engine/jobs/reconcile.ts';
import type { BatchPlan, PhaseWork } from '../../../engine/jobs/phase-work.ts';
import { keyRingFor } from '../../../engine/config/key-ring.ts';
import { activeProfile } from '../../../engine/store/profiles.ts';
import type { Store } from '../../../engine/store/store.ts';
import { TENANT, lowerProbable, openSandbox } from './helpers.ts';

const CONFLICT = /identity \d+ changed since version \d+ was read; the batch is retried on fresh data/;

async function open(people: number, lowProbable: boolean): Promise<LocalEngine> {
  const { engine } = await openSandbox('versions', people, 3);
  if (lowProbable) await lowerProbable(engine);
  return engine;
}

function work(engine: LocalEngine, phase: typeof reconcileMatching | typeof reconcileRebuilding): PhaseWork {
  const { store } = engine.env;
  const profile = activeProfile(store, TENANT);
  return phase({
    store,
    tenantId: TENANT,
    jobId: 'versions-test',
    profile,
    ring: keyRingFor(profile.profile.Blocking, engine.env.settings(), TENANT),
  });
}

const count = (store: Store, sql: string): number => store.statement(sql).pluck().get(TENANT) as number;

/** Writes `plan` after `change` ran on the registry; returns the message of what the write threw, all rolled back. */
function writeAfter(store: Store, plan: BatchPlan, change: string): string | undefined {
  const before = count(store, 'SELECT COUNT(*) FROM identity_event WHERE tenant_id = ?');
  const cases = count(store, 'SELECT COUNT(*) FROM review_case WHERE tenant_id = ?');
  let thrown: string | undefined;
  try {
    store.write(() => {
      store.statement(change).run(TENANT);
      try {
        plan.write(new Date().toISOString(), false);
      } catch (error) {
        thrown = (error as Error).message;
      }
      // The change is the test's own: rolled back with whatever the write did.
      throw new Error('roll back');
    });
  } catch (error) {
    if ((error as Error).message !== 'roll back') throw error;
  }
  expect(count(store, 'SELECT COUNT(*) FROM identity_event WHERE tenant_id = ?')).toBe(before);
  expect(count(store, 'SELECT COUNT(*) FROM review_case WHERE tenant_id = ?')).toBe(cases);
  return thrown;
}

const RAISED = "UPDATE identity SET logical_version = logical_version + 1 WHERE tenant_id = ? AND status = 'active'";
const RETIRED = "UPDATE identity SET status = 'retired' WHERE tenant_id = ? AND status = 'active'";
const NOTHING = 'SELECT COUNT(*) FROM identity WHERE tenant_id = ?';

describe('a job batch written after its identities changed', () => {
  it("is refused in reconciliation's rebuilding phase, for identities it leaves as they were", async () => {
    const engine = await open(120, false);
    const { store } = engine.env;
    // The profile is unchanged, so the batch rebuilds no identity: every one of its 25 is checked, none written.
    const plan = store.read(() => work(engine, reconcileRebuilding).readBatch(0, 25));
    if (plan === null) throw new Error('no batch');
    expect(plan.counters).toMatchObject({ scanned: 25, updated: 0 });
    expect(writeAfter(store, plan, NOTHING)).toBeUndefined();
    expect(writeAfter(store, plan, RAISED)).toMatch(CONFLICT);
    expect(writeAfter(store, plan, RETIRED)).toMatch(CONFLICT);
  });

  it("is refused in reconciliation's matching phase, for the identities of the pairs it opens cases for", async () => {
    const engine = await open(300, true);
    const { store } = engine.env;
    const matching = work(engine, reconcileMatching);
    let refused = 0;
    for (let cursor = 0; ;) {
      const plan = store.read(() => matching.readBatch(cursor, 25));
      if (plan === null) break;
      const cases = count(store, 'SELECT COUNT(*) FROM review_case WHERE tenant_id = ?');
      const raised = writeAfter(store, plan, RAISED);
      if (raised !== undefined) {
        expect(raised).toMatch(CONFLICT);
        refused++;
      }
      // The same batch written with nothing changed: one that opens a case was refused above (a batch can be
      // refused and open none, when its pairs already have their cases).
      store.write(() => plan.write(new Date().toISOString(), false));
      if (count(store, 'SELECT COUNT(*) FROM review_case WHERE tenant_id = ?') > cases)
        expect(raised).toMatch(CONFLICT);
      cursor = plan.lastIdentityId;
    }
    expect(refused).toBeGreaterThan(3);
  });
});
