/**
 * Crash injection (issue 7, "keep it that way"): real processes killed with SIGKILL at named points
 * (engine/fault-injection.ts) inside configuration changes — a blocking key added, a tenant created, a
 * profile applied — and inside re-index and reconciliation batches. After each kill the configuration file is
 * valid JSON; after the command is run again (or the job resumed by another worker) the end state equals
 * that of an uninterrupted run, and nothing of the half-done change is left behind.
 */
import { copyFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../engine/local-engine.ts';
import { Store } from '../../engine/store/store.ts';
import { settingsPathFor } from '../../engine/config/settings.ts';
import { addBlockingKey } from '../../engine/operations/blocking-keys.ts';
import {
  CTX,
  TENANT,
  copyDatabase,
  dumpTables,
  jobOutcome,
  makeSandbox,
  readJob,
  setMaintenance,
  waitFor,
} from '../engine/jobs/helpers.ts';
import { runProcess, type ProcessResult } from '../helpers/processes.ts';
import { runCli } from '../helpers/cli.ts';
import { scratchDir } from '../helpers/temp.ts';

const CONFIG_POINTS = [
  'config:temporary-written',
  'config:marker-written',
  'config:previous-kept',
  'config:renamed',
  'config:before-commit',
  'config:committed',
];

let dir: string;
let base: string;

beforeAll(async () => {
  const temp = scratchDir('mpi-crash-');
  dir = temp.dir;
  base = await makeSandbox(dir, 'base', 120, 8);
  const engine = LocalEngine.open({ dbPath: base });
  try {
    // A staged key change and a survivorship change, so both jobs rewrite much of the registry.
    addBlockingKey(engine.env, CTX, 'k2');
    const current = await engine.call('profile/get', {}, CTX);
    const { Blocking, SourceTrust } = current.profile;
    await engine.call(
      'profile/apply',
      {
        document: {
          Blocking: { ...Blocking, Version: 2, ActiveKeyVersion: 'k2', InactiveKeyVersion: 'k1' },
          SourceTrust: [...SourceTrust].reverse(),
        },
        reason: 'crash test',
      },
      CTX,
    );
    engine.env.store.checkpoint();
  } finally {
    engine.close();
  }
  setMaintenance(base, { LeaseSeconds: 1, PollIntervalSeconds: 1 });
  return temp.cleanup;
}, 120_000);

let copies = 0;
function copy(): string {
  return copyDatabase(base, join(dir, `copy-${String(++copies)}.db`));
}

function run(db: string, args: readonly string[], faultPoint?: string): Promise<ProcessResult> {
  return runProcess(
    ['--db', db, '--tenant', TENANT, ...args],
    faultPoint === undefined ? {} : { env: { MPI_FAULT_POINT: faultPoint } },
  );
}

function expectKilled(result: ProcessResult, point: string): void {
  expect(result.signal, `${point} was never reached: ${result.stdout}${result.stderr}`).toBe('SIGKILL');
}

/** What a configuration change leaves: key versions per tenant, tenants, profile versions, audit rows. */
function configState(db: string): unknown {
  const file = JSON.parse(readFileSync(settingsPathFor(db), 'utf8')) as {
    BlockingKeys: Record<string, Record<string, string>>;
  };
  const store = Store.open(db, { readonly: true });
  try {
    return {
      keys: Object.fromEntries(
        Object.entries(file.BlockingKeys).map(([tenant, versions]) => [tenant, Object.keys(versions).sort()]),
      ),
      tenants: store.statement('SELECT tenant_id FROM tenant ORDER BY tenant_id').pluck().all(),
      profiles: store
        .statement(
          'SELECT tenant_id, profile_version, is_active FROM matching_profile ORDER BY tenant_id, profile_version',
        )
        .all(),
      audit: (
        store.statement('SELECT tenant_id, action, subject FROM audit_record').all() as {
          tenant_id: string;
          action: string;
          subject: string;
        }[]
      )
        .map((r) => `${r.tenant_id} ${r.action} ${r.subject}`)
        .sort(),
    };
  } finally {
    store.close();
  }
}

function leftovers(db: string): string[] {
  const config = settingsPathFor(db).split('/').at(-1) ?? '';
  return readdirSync(dir).filter((name) => name.startsWith(config) && name !== config && !name.endsWith('.lock'));
}

describe('kill -9 during a configuration change', () => {
  const changes: { name: string; args: string[]; points: string[]; tenant?: string }[] = [
    { name: 'blocking-key add', args: ['blocking-key', 'add', 'k3'], points: CONFIG_POINTS },
    {
      name: 'tenant creation',
      args: ['sandbox', 'init'],
      points: ['config:marker-written', 'config:renamed', 'config:before-commit', 'config:committed'],
      tenant: 'second',
    },
    {
      name: 'profile apply',
      args: ['profile', 'apply', 'THRESHOLDS', '--reason', 'crash test'],
      points: ['profile:before-commit'],
    },
  ];

  it.each(changes)(
    '$name: the file stays valid and a rerun ends as an uninterrupted run',
    { timeout: 240_000 },
    async ({ args, points, tenant }) => {
      const thresholds = join(dir, 'thresholds.json');
      copyFileSync(new URL('./fixtures/thresholds.json', import.meta.url), thresholds);
      const argv = args.map((a) => (a === 'THRESHOLDS' ? thresholds : a));
      const argsFor = (db: string): string[] => ['--db', db, '--tenant', tenant ?? TENANT, ...argv];
      // Only the run that is killed needs its own process; the others run the same code in this one.
      const uninterrupted = copy();
      const clean = await runCli(argsFor(uninterrupted));
      expect(clean.code, clean.stderr).toBe(0);
      const expected = configState(uninterrupted);

      for (const point of points) {
        const db = copy();
        expectKilled(await runProcess(argsFor(db), { env: { MPI_FAULT_POINT: point } }), point);
        expect(
          () => JSON.parse(readFileSync(settingsPathFor(db), 'utf8')) as unknown,
          `${point}: the configuration file is not valid JSON`,
        ).not.toThrow();
        const rerun = await runCli(argsFor(db));
        // Killed after its commit, the change is already done: the rerun says so, and changes nothing.
        if (rerun.code !== 0) expect(rerun.stderr, point).toMatch(/already exists/);
        expect(configState(db), point).toEqual(expected);
        expect(leftovers(db), point).toEqual([]);
      }
    },
  );
});

describe('kill -9 during a job', () => {
  const cases: { kind: 'reindex' | 'reconcile'; points: string[] }[] = [
    { kind: 'reindex', points: ['job:batch-written@3', 'job:batch-committed@20'] },
    { kind: 'reconcile', points: ['job:batch-committed@6', 'job:batch-written@27'] },
  ];

  it.each(cases)(
    '$kind: resumed by another worker, it ends exactly as an uninterrupted run',
    { timeout: 240_000 },
    async ({ kind, points }) => {
      const start = async (db: string): Promise<string> => {
        const started = await runCli([
          '--db',
          db,
          '--tenant',
          TENANT,
          kind,
          '--reason',
          'crash test',
          '--batch-size',
          '5',
          '--json',
        ]);
        expect(started.code, started.stderr).toBe(0);
        return (JSON.parse(started.stdout) as { jobId: string }).jobId;
      };
      const worker = async (db: string): Promise<void> => {
        const run = await runCli(['--db', db, '--tenant', TENANT, 'worker', '--once']);
        expect(run.code, run.stderr).toBe(0);
      };
      const uninterrupted = copy();
      const cleanJob = await start(uninterrupted);
      await worker(uninterrupted);
      const expectedJob = jobOutcome(readJob(uninterrupted, cleanJob));
      expect(readJob(uninterrupted, cleanJob).status).toBe('completed');
      const expectedTables = dumpTables(uninterrupted);

      for (const point of points) {
        const db = copy();
        const jobId = await start(db);
        expectKilled(await run(db, ['worker'], point), point);
        const killed = readJob(db, jobId);
        expect(killed.status, point).toBe('running');
        await waitFor(
          "the dead worker's lease to expire",
          () => (Date.parse(readJob(db, jobId).leaseExpiresAt ?? '') < Date.now() ? true : undefined),
          10_000,
          100,
        );
        await worker(db);
        expect(jobOutcome(readJob(db, jobId)), point).toEqual(expectedJob);
        expect(dumpTables(db), point).toEqual(expectedTables);
        expect(existsSync(settingsPathFor(db))).toBe(true);
      }
    },
  );
});
