/**
 * The Importing phase against real servers on loopback (test/helpers/fhir/world.ts): OAuth client
 * credentials with JWT access tokens, a medplum FHIR server checking them, HTTPS with a test CA; into a registry
 * on SQLite, and on PostgreSQL (a fresh database in the run's throwaway cluster).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { TokenSource } from '../../../engine/fhir-source/token.ts';
import { Transport } from '../../../engine/fhir-source/transport.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import { FHIR_SCOPE } from '../../helpers/fhir/oauth-server.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  CTX,
  importAndReconcile,
  makePostgresRegistry,
  makeRegistry,
  sourcePatients,
  startWorld,
  TENANT,
  type World,
} from '../../helpers/fhir/world.ts';

const FAST = { attempts: 4, baseMs: 5, capMs: 50, maxRetryAfterMs: 1500 };

let world: World;

beforeAll(async () => {
  world = await startWorld();
  await world.fhir.seed(sourcePatients(300));
});

afterAll(async () => {
  await world.close();
});

/** One number a statement of the test's tenant reads, on either store (its `?` is the tenant). */
function count(engine: LocalEngine, sql: string): unknown {
  return withTenant(TENANT, () => engine.env.store.statement(sql).pluck().get(TENANT));
}

describe('import with client credentials', () => {
  it('imports every Patient once, then a rerun finds them all unchanged', async () => {
    const engine = LocalEngine.open({ dbPath: await makeRegistry(world, 'basic') });
    try {
      const before = world.oauth.tokensIssued();
      const job = await importAndReconcile(engine, 'import test', FAST);
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

      const again = await importAndReconcile(engine, 'import test', FAST);
      expect(again.status).toBe('completed');
      // Counters span the phases: the 300 replayed Patients, then every identity rebuilt unchanged.
      const [importing, rebuilding] = again.phases;
      expect(importing?.processed).toBe(300);
      expect(again.counters).toMatchObject({
        imported: 0,
        updated: 0,
        unchanged: 300 + (rebuilding?.processed ?? NaN),
        failure: 0,
        warning: 0,
      });
    } finally {
      engine.close();
    }
  }, 120_000);

  it('a Patient the database refuses on write is one failure with its path; the rest of its page is imported once', async () => {
    const engine = LocalEngine.open({ dbPath: await makeRegistry(world, 'refused') });
    try {
      // A real SQLite refusal of one row that validation cannot foresee (as a future constraint or trigger would be),
      // on the connection the in-process worker writes through.
      engine.env.store.exec(
        "CREATE TEMP TRIGGER refuse_one BEFORE INSERT ON source_record WHEN NEW.local_id = 'M0000150' BEGIN SELECT RAISE(ABORT, 'refused M0000150'); END",
      );
      const job = await importAndReconcile(engine, 'import test', FAST);
      expect(job.error).toBeNull();
      expect(job.status).toBe('completed');
      const [importing] = job.phases;
      expect(importing?.processed).toBe(300);
      expect(job.counters).toMatchObject({ imported: 299, failure: 1 });
      const notes = importing?.notes ?? [];
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatch(
        /^page [1-3], Bundle\.entry\[\d+\]\.resource\.record: the database refused this record \(SQLITE_CONSTRAINT_TRIGGER\); nothing was written for it$/,
      );
      expect(JSON.stringify(job)).not.toContain('M0000150');
      // Each of the other 299 written once (the page was rolled back and written again, each Patient isolated).
      expect(count(engine, "SELECT COUNT(*) FROM source_record WHERE tenant_id = ? AND local_id = 'M0000150'")).toBe(0);
      expect(
        count(engine, "SELECT COUNT(*) FROM source_record WHERE tenant_id = ? AND source_system = 'st-marys-hospital'"),
      ).toBe(299);
      expect(count(engine, 'SELECT COUNT(DISTINCT local_id) FROM ingestion_receipt WHERE tenant_id = ?')).toBe(299);
      expect(count(engine, 'SELECT COUNT(*) FROM ingestion_receipt WHERE tenant_id = ?')).toBe(299);
      const identities = await engine.call('identities/list', {}, CTX);
      expect(identities.rows.filter((r) => r.sourceSystem === 'st-marys-hospital')).toHaveLength(299);
    } finally {
      engine.close();
    }
  }, 120_000);
});

describe('import into a registry on PostgreSQL', () => {
  it('imports every Patient once, then a rerun finds them all unchanged', async () => {
    const engine = LocalEngine.open(await makePostgresRegistry(world, 'postgres-basic', await freshDatabase()));
    try {
      const job = await importAndReconcile(engine, 'import test', FAST);
      expect(job.error).toBeNull();
      expect(job.status).toBe('completed');
      expect(job.counters).toMatchObject({ imported: 300, failure: 0 });
      expect(count(engine, 'SELECT COUNT(*) FROM source_record WHERE tenant_id = ?')).toBe(300);
      const again = await importAndReconcile(engine, 'import test', FAST);
      expect(again.status).toBe('completed');
      expect(again.counters).toMatchObject({ imported: 0, updated: 0, failure: 0 });
      expect(count(engine, 'SELECT COUNT(*) FROM source_record WHERE tenant_id = ?')).toBe(300);
    } finally {
      engine.close();
    }
  }, 120_000);

  it('a Patient the database refuses on write is one failure with its path; the rest of its page is imported once', async () => {
    const engine = LocalEngine.open(await makePostgresRegistry(world, 'postgres-refused', await freshDatabase()));
    try {
      // A real refusal of one row that validation cannot foresee (as a future constraint or trigger would be).
      withTenant(TENANT, () => {
        engine.env.store.exec(
          `CREATE FUNCTION refuse_one() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN IF NEW.local_id = 'M0000150' THEN RAISE EXCEPTION 'refused M0000150'; END IF; RETURN NEW; END $$;
           CREATE TRIGGER refuse_one BEFORE INSERT ON source_record FOR EACH ROW EXECUTE FUNCTION refuse_one()`,
        );
      });
      const job = await importAndReconcile(engine, 'import test', FAST);
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

describe('client-credentials tokens', () => {
  it('are cached until shortly before they expire, then fetched again; a wrong secret is refused without being quoted', async () => {
    const transport = new Transport({ trustedCaFile: world.tls.caFile });
    let now = 1_000_000;
    const credentials = {
      tokenEndpoint: world.oauth.tokenEndpoint,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      scope: FHIR_SCOPE,
      allowInsecureHttp: false,
    };
    const tokens = new TokenSource(credentials, transport, () => now);
    try {
      const before = world.oauth.tokensIssued();
      const first = await tokens.token();
      await world.oauth.verify(first);
      expect(await tokens.token()).toBe(first);
      // The server's tokens live 300 s: renewed 30 s before that.
      now += 269_000;
      expect(await tokens.token()).toBe(first);
      now += 2_000;
      const second = await tokens.token();
      expect(second).not.toBe(first);
      tokens.invalidate();
      await tokens.token();
      expect(world.oauth.tokensIssued() - before).toBe(3);
      const wrong = new TokenSource({ ...credentials, clientSecret: 'PLANTED-wrong-secret' }, transport);
      const refusal = await wrong.token().catch((error: unknown) => error as Error);
      expect(refusal).toMatchObject({
        kind: 'remote_http',
        message: expect.stringMatching(/refused the client credentials: 40[01] \(invalid_client\)/) as unknown,
      });
      expect((refusal as Error).message).not.toContain('PLANTED');
    } finally {
      await transport.close();
    }
  });
});
