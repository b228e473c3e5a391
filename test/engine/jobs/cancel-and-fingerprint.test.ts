/**
 * Cancellation (queued: at once; running: at the next batch boundary) and the configuration fingerprint
 * (a change of matching rules, source trust or blocking keys while a job runs stops it; a comparator-only
 * change does not). Final transitions are audited.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { settingsPathFor, newSecret } from '../../../engine/config/settings.ts';
import { listAudit } from '../../../engine/store/audit.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import type { RunHooks } from '../../../engine/jobs/runner.ts';
import { CTX, TENANT, cli, makeSandbox } from './helpers.ts';
import { scratchDir } from '../../helpers/temp.ts';

let dir: string;
let cleanup: () => void;
let db: string;
let engine: LocalEngine;

beforeEach(async () => {
  ({ dir, cleanup } = scratchDir());
  db = await makeSandbox(dir, 'registry', 250, 3);
  engine = LocalEngine.open({ dbPath: db });
});

afterEach(() => {
  engine.close();
  cleanup();
});

function drain(hooks: RunHooks = {}): Promise<{ jobsRun: number }> {
  return runWorker(engine.env, { tenants: [TENANT], once: true, hooks });
}

function auditActions(jobId: string): string[] {
  return listAudit(engine.env.store, TENANT)
    .filter((a) => a.subject === `maintenance-job/${jobId}`)
    .map((a) => a.action)
    .reverse();
}

describe('cancel', () => {
  it('cancels a queued job at once; no worker ever runs it', async () => {
    const { jobId } = await engine.call('maintenance/reconcile', { reason: 'to be cancelled', batchSize: 10 }, CTX);
    const outcome = await engine.call('jobs/cancel', { jobId }, CTX);
    expect(outcome).toEqual({ jobId, status: 'cancelled', cancelRequested: true });
    const job = await engine.call('jobs/get', { jobId }, CTX);
    expect(job.status).toBe('cancelled');
    expect(job.finishedAt).not.toBeNull();
    expect(job.phases.map((p) => p.status)).toEqual(['skipped', 'pending', 'pending']);
    expect(await drain()).toEqual({ jobsRun: 0 });
    expect(auditActions(jobId)).toEqual(['maintenance.job.request', 'maintenance.job.cancel']);
    // Cancelling again is acknowledged; a finished job cannot be cancelled.
    expect((await engine.call('jobs/cancel', { jobId }, CTX)).status).toBe('cancelled');
    const other = await engine.call('maintenance/reindex', { reason: 'runs to the end', batchSize: 25 }, CTX);
    await drain();
    await expect(engine.call('jobs/cancel', { jobId: other.jobId }, CTX)).rejects.toMatchObject({ kind: 'conflict' });
  });

  it('cancels a running job at its next batch boundary, keeping the work done', async () => {
    const { jobId } = await engine.call(
      'maintenance/reconcile',
      { reason: 'to be cancelled while running', batchSize: 5 },
      CTX,
    );
    let answer: unknown;
    await drain({
      afterCommit: async (info) => {
        if (info.phase === 'rebuilding' && info.cursor > 0 && answer === undefined)
          answer = await engine.call('jobs/cancel', { jobId }, CTX);
      },
    });
    expect(answer).toEqual({ jobId, status: 'running', cancelRequested: true });
    const job = await engine.call('jobs/get', { jobId }, CTX);
    expect(job.status).toBe('cancelled');
    expect(job.phases.map((p) => p.status)).toEqual(['skipped', 'cancelled', 'pending']);
    // Two batches of five were committed before the request was seen at the boundary after them.
    expect(job.counters.scanned).toBe(10);
    expect(job.phases[1]?.processed).toBe(10);
    expect(auditActions(jobId)).toEqual(['maintenance.job.request', 'maintenance.job.cancel']);
    const audit = listAudit(engine.env.store, TENANT).find((a) => a.action === 'maintenance.job.cancel');
    expect(audit?.actor).toBe('test');
    expect(audit?.detail).toMatchObject({ kind: 'reconciliation', status: 'cancelled', scanned: 10 });
  });

  it('works from the command line', async () => {
    const { jobId } = await engine.call('maintenance/reindex', { reason: 'cli cancel', batchSize: 25 }, CTX);
    const result = cli(db, ['job', 'cancel', jobId]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('is cancelled');
    expect(cli(db, ['job', 'cancel', 'job-does-not-exist']).status).toBe(1);
  });
});

describe('configuration fingerprint', () => {
  async function runChangingConfiguration(change: () => Promise<void> | void): Promise<string> {
    const { jobId } = await engine.call('maintenance/reconcile', { reason: 'fingerprint test', batchSize: 5 }, CTX);
    let changed = false;
    await drain({
      afterCommit: async (info) => {
        if (!changed && info.cursor > 0) {
          changed = true;
          await change();
        }
      },
    });
    return jobId;
  }

  it('stops a job when the matching rules change while it runs', async () => {
    const jobId = await runChangingConfiguration(async () => {
      const current = await engine.call('profile/get', {}, CTX);
      await engine.call(
        'profile/apply',
        {
          document: {
            MatchingRules: { ...current.profile.MatchingRules, Thresholds: { Certain: 0.95, Probable: 0.8 } },
          },
          reason: 'test',
        },
        CTX,
      );
    });
    const job = await engine.call('jobs/get', { jobId }, CTX);
    expect(job.status).toBe('stopped');
    expect(job.error).toMatch(/configuration changed while the job ran/);
    expect(job.phases.map((p) => p.status)).toEqual(['skipped', 'stopped', 'pending']);
    expect(job.counters.scanned).toBe(10);
    expect(auditActions(jobId)).toEqual(['maintenance.job.request', 'maintenance.job.stop']);
  });

  it('stops a job when a blocking secret is rotated in the configuration file (the job record shows no secret)', async () => {
    const path = settingsPathFor(db);
    const jobId = await runChangingConfiguration(() => {
      const settings = JSON.parse(readFileSync(path, 'utf8')) as {
        BlockingKeys: Record<string, Record<string, string>>;
      };
      const keys = settings.BlockingKeys[TENANT] ?? {};
      keys.k1 = newSecret();
      writeFileSync(path, JSON.stringify(settings), { mode: 0o600 });
    });
    const job = await engine.call('jobs/get', { jobId }, CTX);
    expect(job.status).toBe('stopped');
    const secret =
      (JSON.parse(readFileSync(path, 'utf8')) as { BlockingKeys: Record<string, Record<string, string>> }).BlockingKeys[
        TENANT
      ]?.k1 ?? '';
    const row = JSON.stringify(engine.env.store.statement('SELECT * FROM maintenance_job WHERE job_id = ?').get(jobId));
    expect(row).not.toContain(secret);
    expect(row).not.toContain(Buffer.from(secret, 'base64').toString('hex'));
  });

  it('stops a job when source trust changes, but not for a comparator-only change', async () => {
    const stopped = await runChangingConfiguration(async () => {
      const current = await engine.call('profile/get', {}, CTX);
      await engine.call(
        'profile/apply',
        { document: { SourceTrust: [...current.profile.SourceTrust].reverse() }, reason: 'test' },
        CTX,
      );
    });
    expect((await engine.call('jobs/get', { jobId: stopped }, CTX)).status).toBe('stopped');
    const continued = await runChangingConfiguration(async () => {
      const current = await engine.call('profile/get', {}, CTX);
      await engine.call(
        'profile/apply',
        { document: { Comparators: { ...current.profile.Comparators, PhoneticMatchFloor: 0.8 } }, reason: 'test' },
        CTX,
      );
    });
    const job = await engine.call('jobs/get', { jobId: continued }, CTX);
    expect(job.status).toBe('completed');
    // The job kept scoring under the profile version recorded when it started.
    expect(job.matchingProfileVersion).toBe(2);
  });
});
