/**
 * The configuration file that holds the HMAC blocking secrets under parallel changes (issue 7, items 2 and 7):
 * many real `blocking-key add` and `sandbox init` processes at once, two databases sharing one --config, and
 * a database whose write lock another process holds. Every change reported as done persisted, the file is
 * always valid JSON, no tenant exists without its key, and the audit rows match the file exactly.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../engine/store/store.ts';
import { tempDir } from '../helpers/temp.ts';
import { holdWriteLock, runProcess, startProcess, type ProcessResult } from '../helpers/processes.ts';
import { waitFor } from '../engine/jobs/helpers.ts';
import { runCli } from '../helpers/cli.ts';

interface FileKeys {
  readonly BlockingKeys: Record<string, Record<string, string>>;
}

function readConfig(path: string): FileKeys {
  return JSON.parse(readFileSync(path, 'utf8')) as FileKeys;
}

function auditRows(db: string, action: string): { tenant: string; subject: string }[] {
  const store = Store.open(db, { readonly: true });
  try {
    return store
      .statement('SELECT tenant_id AS tenant, subject FROM audit_record WHERE action = ? ORDER BY audit_id')
      .all(action) as { tenant: string; subject: string }[];
  } finally {
    store.close();
  }
}

function tenants(db: string): string[] {
  const store = Store.open(db, { readonly: true });
  try {
    return store.statement('SELECT tenant_id FROM tenant ORDER BY tenant_id').pluck().all() as string[];
  } finally {
    store.close();
  }
}

/** Reads the file as often as it can while the processes run: every read must be complete, valid JSON. */
function watchValidity(path: string): { stop: () => number } {
  let reads = 0;
  let invalid = 0;
  const timer = setInterval(() => {
    if (!existsSync(path)) return;
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return;
    }
    reads++;
    try {
      JSON.parse(text);
    } catch {
      invalid++;
    }
  }, 1);
  return {
    stop: () => {
      clearInterval(timer);
      expect(reads).toBeGreaterThan(0);
      return invalid;
    },
  };
}

function expectNoInternalError(result: ProcessResult): void {
  expect(result.stderr).not.toMatch(/unexpected failure|internal error|SqliteError|TypeError/);
}

describe('parallel configuration changes', () => {
  it(
    'keeps every key that `blocking-key add` reported as added, with one audit row each',
    { timeout: 180_000 },
    async () => {
      const dir = tempDir();
      const db = join(dir, 'keys.db');
      const config = join(dir, 'keys.config.json');
      const init = await runCli(['--db', db, '--tenant', 'acme', 'sandbox', 'init']);
      expect(init.code, init.stderr).toBe(0);

      const watcher = watchValidity(config);
      const versions = Array.from({ length: 10 }, (_, i) => `k${String(i + 2)}`);
      const results = await Promise.all(
        versions.map((v) => runProcess(['--db', db, '--tenant', 'acme', 'blocking-key', 'add', v])),
      );
      expect(watcher.stop(), 'a reader saw a partly written configuration file').toBe(0);

      const keys = readConfig(config).BlockingKeys.acme ?? {};
      results.forEach((result, i) => {
        expectNoInternalError(result);
        expect(result.status, result.stderr).toBe(0);
        expect(Object.keys(keys), `k${String(i + 2)} was reported added but is not in the file`).toContain(versions[i]);
      });
      expect(Object.keys(keys).sort()).toEqual(['k1', ...versions].sort());
      expect(
        auditRows(db, 'blocking-key.add')
          .map((r) => r.subject)
          .sort(),
      ).toEqual(versions.map((v) => `blocking-key/${v}`).sort());
      // No temporary file with a secret is left behind.
      expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
    },
  );

  it(
    'creates several tenants at once, in two databases sharing one --config, each with its key',
    { timeout: 180_000 },
    async () => {
      const dir = tempDir();
      const config = join(dir, 'shared.config.json');
      const dbs = [join(dir, 'a.db'), join(dir, 'b.db')];
      const runs = dbs.flatMap((db, d) => ['north', 'south', 'east'].map((t) => ({ db, tenant: `${t}-${String(d)}` })));
      const watcher = watchValidity(config);
      const results = await Promise.all(
        runs.map((r) => runProcess(['--db', r.db, '--config', config, '--tenant', r.tenant, 'sandbox', 'init'])),
      );
      expect(watcher.stop(), 'a reader saw a partly written configuration file').toBe(0);
      results.forEach((result) => {
        expectNoInternalError(result);
        expect(result.status, result.stderr).toBe(0);
      });
      const file = readConfig(config);
      for (const db of dbs) {
        const registered = tenants(db);
        expect(registered).toHaveLength(3);
        for (const tenant of registered)
          expect(Object.keys(file.BlockingKeys[tenant] ?? {}), `tenant ${tenant} has no key`).toEqual(['k1']);
        expect(
          auditRows(db, 'tenant.create')
            .map((r) => r.tenant)
            .sort(),
        ).toEqual(registered);
      }
      expect(Object.keys(file.BlockingKeys).sort()).toEqual(runs.map((r) => r.tenant).sort());
    },
  );
});

describe('a database whose write lock another process holds', () => {
  const busy = { MPI_BUSY_TIMEOUT_MS: '300' };

  it(
    'makes blocking-key add fail clearly as busy, with neither the secret nor an audit row written',
    { timeout: 120_000 },
    async () => {
      const dir = tempDir();
      const db = join(dir, 'busy.db');
      const config = join(dir, 'busy.config.json');
      expect((await runCli(['--db', db, '--tenant', 'acme', 'sandbox', 'init'])).code).toBe(0);
      const before = readFileSync(config, 'utf8');
      const holder = await holdWriteLock(db);
      let result: ProcessResult;
      try {
        result = await runProcess(['--db', db, '--tenant', 'acme', 'blocking-key', 'add', 'k2'], { env: busy });
      } finally {
        await holder.release();
      }
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/the database is busy \(another process holds the write lock\); try again/);
      expectNoInternalError(result);
      expect(readFileSync(config, 'utf8')).toBe(before);
      expect(auditRows(db, 'blocking-key.add')).toEqual([]);

      // Once the lock is free the same command succeeds.
      const again = await runCli(['--db', db, '--tenant', 'acme', 'blocking-key', 'add', 'k2']);
      expect(again.code, again.stderr).toBe(0);
      expect(Object.keys(readConfig(config).BlockingKeys.acme ?? {})).toEqual(['k1', 'k2']);
      expect(auditRows(db, 'blocking-key.add')).toHaveLength(1);
    },
  );

  it(
    'reports busy as a conflict in JSON, and a worker waits for the lock instead of exiting',
    { timeout: 120_000 },
    async () => {
      const dir = tempDir();
      const db = join(dir, 'worker.db');
      expect((await runCli(['--db', db, '--tenant', 'acme', 'sandbox', 'init', '--synthetic', '60'])).code).toBe(0);
      const queued = await runCli(['--db', db, '--tenant', 'acme', 'reconcile', '--reason', 'busy test', '--json']);
      const { jobId } = JSON.parse(queued.stdout) as { jobId: string };

      const holder = await holdWriteLock(db);
      const jsonError = await runProcess(['--db', db, '--tenant', 'acme', 'job', 'cancel', jobId, '--json'], {
        env: busy,
      });
      expect(jsonError.status).toBe(1);
      expect(JSON.parse(jsonError.stderr)).toMatchObject({
        type: 'EngineError',
        kind: 'conflict',
        message: expect.stringMatching(/database is busy/) as unknown,
      });

      const worker = startProcess(['--db', db, '--tenant', 'acme', 'worker', '--once'], { env: busy });
      await waitFor('the worker to find the database busy', () =>
        worker.output().includes('database is busy') ? true : undefined,
      );
      // A few more busy timeouts pass inside the worker before the lock is free again.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await holder.release();
      const done = await worker.done;
      expect(done.status, done.stdout + done.stderr).toBe(0);
      expectNoInternalError(done);
      expect(done.stdout).toMatch(/database is busy/);
      expect(done.stdout).toMatch(new RegExp(`job ${jobId} \\(tenant acme\\): completed`));
    },
  );
});
