/**
 * Two `mpi-console serve --dev-auth --worker` processes on one PostgreSQL registry, as two API replicas: a job
 * started through one is watched and cancelled through the other (whichever replica's worker holds it stops), and
 * both answer the same job list. The CLI drives them with --remote, as an analyst would.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BIN,
  cli,
  exited,
  makeSandbox,
  readJob,
  registryArgs,
  setMaintenance,
  waitFor,
} from '../../engine/jobs/helpers.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';
import { scratchDir } from '../../helpers/temp.ts';

function remote(
  url: string,
  tokenFile: string,
  args: readonly string[],
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BIN, '--remote', url, '--token-file', tokenFile, ...args], {
    encoding: 'utf8',
    env: { ...process.env, MPI_TENANT: '', MPI_TOKEN: '' },
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function replica(location: string): ChildProcess & { output: () => string } {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', ...registryArgs(location), '--dev-auth', '--worker', '--port', '0'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return Object.assign(child, { output: () => output });
}

function listening(child: ChildProcess & { output: () => string }): Promise<string> {
  return waitFor('the replica to listen', () => {
    for (const line of child.output().split('\n'))
      if (line.includes('"listening"')) return (JSON.parse(line) as { url: string }).url;
    return undefined;
  });
}

const token0 = (file: string): string => readFileSync(file, 'utf8').trim();

describe('two serve replicas on one PostgreSQL registry', () => {
  const { dir, cleanup } = scratchDir('mpi-replicas-');
  const replicas: (ChildProcess & { output: () => string })[] = [];
  afterAll(async () => {
    for (const child of replicas) {
      child.kill('SIGTERM');
      await exited(child);
    }
    cleanup();
  });

  let urls: string[] = [];
  let bearer = '';
  let watchedJob = '';

  it('lets a job started through one be watched and cancelled through the other', { timeout: 300_000 }, async () => {
    const location = await makeSandbox(dir, 'registry', 600, 9, await freshDatabase());
    setMaintenance(location, { PollIntervalSeconds: 1, LeaseSeconds: 30 });
    const token = cli(location, ['token', '--scope', 'mpi.admin mpi.operations', '--ttl', '1h']);
    expect(token.status, token.stderr).toBe(0);
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, token.stdout, { mode: 0o600 });
    replicas.push(replica(location), replica(location));
    const [first, second] = await Promise.all(replicas.map(listening));
    if (first === undefined || second === undefined) throw new Error('a replica did not start');

    // Batch size 1: hundreds of batches, so the job is still running when the cancel arrives.
    const started = remote(first, tokenFile, [
      'reconcile',
      '--reason',
      'through replica one',
      '--batch-size',
      '1',
      '--json',
    ]);
    expect(started.status, started.stderr).toBe(0);
    const { jobId } = JSON.parse(started.stdout) as { jobId: string };
    await waitFor(
      'a replica to run the job',
      () => (readJob(location, jobId).status === 'running' ? true : undefined),
      60_000,
      20,
    );
    const watched = remote(second, tokenFile, ['job', 'show', jobId, '--json']);
    expect(watched.status, watched.stderr).toBe(0);
    expect(JSON.parse(watched.stdout)).toMatchObject({ jobId, status: 'running', requestedBy: 'api:mpi-console-dev' });

    const cancelled = remote(second, tokenFile, ['job', 'cancel', jobId, '--json']);
    expect(cancelled.status, cancelled.stderr).toBe(0);
    const ended = await waitFor(
      'the replica holding the job to stop it',
      () => {
        const job = readJob(location, jobId);
        return job.status === 'running' ? undefined : job;
      },
      120_000,
      50,
    );
    expect(ended.status, replicas.map((r) => r.output()).join('\n')).toBe('cancelled');
    expect(ended.counters.scanned).toBeLessThan(2 * (ended.populationTotal ?? 0));
    urls = [first, second];
    bearer = token0(tokenFile);
    watchedJob = jobId;
    for (const url of [first, second]) {
      const shown = remote(url, tokenFile, ['job', 'show', jobId, '--json']);
      expect(JSON.parse(shown.stdout)).toMatchObject({ jobId, status: 'cancelled' });
      expect(remote(url, tokenFile, ['jobs']).stdout).toContain(jobId);
    }
  });

  it('answers thousands of concurrent requests through both replicas, every one', { timeout: 120_000 }, async () => {
    // Ten requests in flight at a time across the two replicas' engine threads and their database connections.
    let failed = 0;
    let next = 0;
    const total = 6000;
    await Promise.all(
      Array.from({ length: 10 }, async (_, lane) => {
        while (next < total) {
          next += 1;
          const base = urls[lane % urls.length] ?? '';
          const answer = await fetch(`${base}/api/v1/maintenance/jobs/${watchedJob}`, {
            headers: { authorization: `Bearer ${bearer}` },
          });
          await answer.arrayBuffer();
          if (answer.status !== 200) failed += 1;
        }
      }),
    );
    expect(failed).toBe(0);
  });
});
