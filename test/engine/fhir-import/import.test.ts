/**
 * The Importing phase against real servers on loopback (test/helpers/fhir/world.ts): OAuth client
 * credentials with JWT access tokens, a medplum FHIR server checking them, HTTPS with a test CA.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { CTX, makeRegistry, sourcePatients, startWorld, TENANT, type World } from '../../helpers/fhir/world.ts';

const FAST = { attempts: 4, baseMs: 5, capMs: 50, maxRetryAfterMs: 1500 };

let world: World;

beforeAll(async () => {
  world = await startWorld();
  await world.fhir.seed(sourcePatients(300));
}, 60_000);

afterAll(async () => {
  await world.close();
});

async function reconcile(engine: LocalEngine, extra: Record<string, unknown> = {}) {
  const { jobId } = await engine.call('maintenance/reconcile', { reason: 'import test', batchSize: 25, externalSourceSystem: 'st-marys-hospital', ...extra }, CTX);
  await runWorker(engine.env, { tenants: [TENANT], once: true, importRetry: FAST });
  return engine.call('jobs/get', { jobId }, CTX);
}

describe('import with client credentials', () => {
  it('imports every Patient once, then a rerun finds them all unchanged', async () => {
    const engine = LocalEngine.open({ dbPath: await makeRegistry(world, 'basic') });
    try {
      const before = world.oauth.tokensIssued();
      const job = await reconcile(engine);
      expect(job.error).toBeNull();
      expect(job.status).toBe('completed');
      expect(job.phases.map((p) => [p.name, p.status])).toEqual([
        ['importing', 'completed'],
        ['rebuilding', 'completed'],
        ['matching', 'completed'],
      ]);
      expect(job.counters.imported).toBe(300);
      expect(job.counters.failure).toBe(0);
      // 3 pages of 100, one token (cached).
      expect(world.oauth.tokensIssued() - before).toBe(1);
      const identities = await engine.call('identities/list', {}, CTX);
      expect(identities.rows.filter((r) => r.sourceSystem === 'st-marys-hospital')).toHaveLength(300);

      const again = await reconcile(engine);
      expect(again.status).toBe('completed');
      // Counters span the phases: the 300 replayed Patients, then every identity rebuilt unchanged.
      const [importing, rebuilding] = again.phases;
      expect(importing?.processed).toBe(300);
      expect(again.counters).toMatchObject({ imported: 0, updated: 0, unchanged: 300 + (rebuilding?.processed ?? NaN), failure: 0, warning: 0 });
    } finally {
      engine.close();
    }
  }, 120_000);
});
