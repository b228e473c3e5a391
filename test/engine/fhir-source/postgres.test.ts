/**
 * The Importing phase into a registry on PostgreSQL (a real cluster, the run's throwaway one), from the same real
 * servers on loopback as the SQLite tests: every Patient once, a rerun finds them unchanged, and a Patient the
 * database refuses on write is one failure with its path while the rest of its page is imported.
 */
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import { CTX, SOURCE, TENANT, sourceEntry, sourcePatients, startWorld, type World } from '../../helpers/fhir/world.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';

const FAST = { attempts: 4, baseMs: 5, capMs: 50, maxRetryAfterMs: 1500 };

let world: World;

beforeAll(async () => {
  world = await startWorld();
  await world.fhir.seed(sourcePatients(300));
});

afterAll(async () => {
  await world.close();
});

/** A registry on a fresh PostgreSQL database, its configuration file naming the world's source. */
async function postgresRegistry(name: string): Promise<{ url: string; config: string }> {
  const url = await freshDatabase();
  const config = join(world.dir, `${name}.config.json`);
  const engine = LocalEngine.open({ dbPath: url, settingsPath: config });
  try {
    await engine.call('sandbox/create', { syntheticPeople: 0, seed: 1 }, CTX);
  } finally {
    engine.close();
  }
  const settings = JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>;
  const maintenance = { LeaseSeconds: 5, PollIntervalSeconds: 1, FhirSources: [sourceEntry(world)] };
  writeFileSync(config, JSON.stringify({ ...settings, Maintenance: maintenance }, null, 2), { mode: 0o600 });
  return { url, config };
}

async function reconcile(engine: LocalEngine) {
  const { jobId } = await engine.call(
    'maintenance/reconcile',
    { reason: 'import test', batchSize: 25, externalSourceSystem: SOURCE },
    CTX,
  );
  await runWorker(engine.env, { tenants: [TENANT], once: true, importRetry: FAST });
  return engine.call('jobs/get', { jobId }, CTX);
}

function count(engine: LocalEngine, sql: string): unknown {
  return withTenant(TENANT, () => engine.env.store.statement(sql).pluck().get(TENANT));
}

describe('import into a registry on PostgreSQL', () => {
  it('imports every Patient once, then a rerun finds them all unchanged', async () => {
    const { url, config } = await postgresRegistry('basic');
    const engine = LocalEngine.open({ dbPath: url, settingsPath: config });
    try {
      const job = await reconcile(engine);
      expect(job.error).toBeNull();
      expect(job.status).toBe('completed');
      expect(job.counters).toMatchObject({ imported: 300, failure: 0 });
      expect(count(engine, 'SELECT COUNT(*) FROM source_record WHERE tenant_id = ?')).toBe(300);
      const again = await reconcile(engine);
      expect(again.status).toBe('completed');
      expect(again.counters).toMatchObject({ imported: 0, updated: 0, failure: 0 });
      expect(count(engine, 'SELECT COUNT(*) FROM source_record WHERE tenant_id = ?')).toBe(300);
    } finally {
      engine.close();
    }
  }, 120_000);

  it('a Patient the database refuses on write is one failure with its path; the rest of its page is imported once', async () => {
    const { url, config } = await postgresRegistry('refused');
    const engine = LocalEngine.open({ dbPath: url, settingsPath: config });
    try {
      // A real refusal of one row that validation cannot foresee (as a future constraint or trigger would be).
      withTenant(TENANT, () => {
        engine.env.store.exec(
          `CREATE FUNCTION refuse_one() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN IF NEW.local_id = 'M0000150' THEN RAISE EXCEPTION 'refused M0000150'; END IF; RETURN NEW; END $$;
           CREATE TRIGGER refuse_one BEFORE INSERT ON source_record FOR EACH ROW EXECUTE FUNCTION refuse_one()`,
        );
      });
      const job = await reconcile(engine);
      expect(job.error).toBeNull();
      expect(job.status).toBe('completed');
      expect(job.counters).toMatchObject({ imported: 299, failure: 1 });
      const notes = job.phases[0]?.notes ?? [];
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatch(
        /^page [1-3], Bundle\.entry\[\d+\]\.resource\.record: the database refused this record \(SQLSTATE P0001\); nothing was written for it$/,
      );
      expect(JSON.stringify(job)).not.toContain('M0000150');
      expect(count(engine, "SELECT COUNT(*) FROM source_record WHERE tenant_id = ? AND local_id = 'M0000150'")).toBe(0);
      expect(count(engine, 'SELECT COUNT(*) FROM source_record WHERE tenant_id = ?')).toBe(299);
      expect(count(engine, 'SELECT COUNT(*) FROM ingestion_receipt WHERE tenant_id = ?')).toBe(299);
    } finally {
      engine.close();
    }
  }, 120_000);
});
