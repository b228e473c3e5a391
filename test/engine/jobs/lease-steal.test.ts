/**
 * A batch that takes longer than the lease (issue 7, item 6). Two real worker processes serve one job:
 * while a batch waits, its worker renews the lease, so the other worker never takes the job and it completes
 * after one claim; when a batch blocks its worker for longer than the lease (no renewal can run), the
 * workers take the job from each other only a bounded number of times, and the job ends `failed` with the
 * reason and what to change.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cliJson, exited, jobClaims, makeSandbox, readJob, setMaintenance, waitFor } from './helpers.ts';
import { scratchDir } from '../../helpers/temp.ts';

const SCRIPT = fileURLToPath(new URL('./slow-worker.ts', import.meta.url));

function slowWorker(
  db: string,
  mode: 'pause' | 'spin-until-taken',
  arg: string,
): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, db, mode, arg], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  onTestFinished(async () => {
    child.kill('SIGKILL');
    await exited(child);
  });
  return Object.assign(child, { output: () => output });
}

describe('a batch slower than the lease', () => {
  it(
    'keeps its lease while the batch waits, so a second worker never takes the job',
    { timeout: 120_000 },
    async () => {
      const { dir, cleanup } = scratchDir();
      onTestFinished(cleanup);
      const db = await makeSandbox(dir, 'renew', 30, 3);
      setMaintenance(db, { LeaseSeconds: 1, PollIntervalSeconds: 1 });
      const { jobId } = cliJson<{ jobId: string }>(db, ['reindex', '--reason', 'slow batches', '--batch-size', '25']);
      const first = slowWorker(db, 'pause', '1200');
      await waitFor(
        'the first worker to claim the job',
        () => (jobClaims(db, jobId) >= 1 ? true : undefined),
        60_000,
        50,
      );
      const second = slowWorker(db, 'pause', '1200');
      const end = await waitFor(
        'the job to end, or to be taken over',
        () => {
          const job = readJob(db, jobId);
          return job.status !== 'running' || jobClaims(db, jobId) > 1 ? job : undefined;
        },
        90_000,
        50,
      );
      expect(jobClaims(db, jobId), first.output() + second.output()).toBe(1);
      expect(end.status).toBe('completed');
      expect(end.counters.validated).toBe(end.populationTotal);
      expect(end.counters.scanned).toBe(end.populationTotal);
    },
  );

  it(
    'ends a job whose batches never finish within the lease as failed, after a bounded number of takeovers',
    { timeout: 120_000 },
    async () => {
      const { dir, cleanup } = scratchDir();
      onTestFinished(cleanup);
      const db = await makeSandbox(dir, 'steal', 30, 3);
      setMaintenance(db, { LeaseSeconds: 1, PollIntervalSeconds: 1 });
      const { jobId } = cliJson<{ jobId: string }>(db, [
        'reindex',
        '--reason',
        'blocked batches',
        '--batch-size',
        '25',
      ]);
      // Each batch blocks its worker (no lease renewal runs) until the other worker has taken the job over: ordered by
      // events, so no batch commits however slowly a worker starts on a loaded machine (a 2.5 s block once did).
      const workers = [slowWorker(db, 'spin-until-taken', jobId), slowWorker(db, 'spin-until-taken', jobId)];
      const end = await waitFor(
        'the job to end',
        () => {
          const job = readJob(db, jobId);
          return job.status === 'running' || job.status === 'queued' ? undefined : job;
        },
        90_000,
        100,
      );
      expect(end.status, workers.map((w) => w.output()).join('\n')).toBe('failed');
      expect(end.error).toMatch(/taken over \d+ times without a batch committing/);
      expect(end.error).toMatch(/Maintenance\.LeaseSeconds \(1\)/);
      expect(jobClaims(db, jobId)).toBeLessThanOrEqual(6);
      expect(end.counters.validated).toBe(0);
      expect(readJob(db, jobId).phases[0]?.status).toBe('failed');
      expect(cliJson<{ rows: { status: string }[] }>(db, ['jobs']).rows.map((r) => r.status)).toEqual(['failed']);
    },
  );
});
