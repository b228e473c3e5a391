/**
 * The real processes: `mpi-console token`, `mpi-console serve --dev-auth --worker`, the CLI against it with
 * --remote (token file or MPI_TOKEN), and SIGTERM: an in-flight request still gets its answer, the running
 * job's lease is released, and another worker finishes the job.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { settingsPathFor } from '../../../engine/config/settings.ts';
import { parseLabelsTsv } from '../../../engine/assurance/labels.ts';
import { BIN, cli, exited, makeSandbox, readJob, setMaintenance, waitFor } from '../../engine/jobs/helpers.ts';
import { scratchDir } from '../../helpers/temp.ts';

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

function remote(
  url: string,
  args: readonly string[],
  options: { tokenFile?: string; env?: Record<string, string> } = {},
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(
    process.execPath,
    [BIN, '--remote', url, ...(options.tokenFile === undefined ? [] : ['--token-file', options.tokenFile]), ...args],
    {
      encoding: 'utf8',
      env: { ...process.env, MPI_TENANT: '', MPI_TOKEN: '', ...options.env },
      timeout: 120_000,
    },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('mpi-console serve, token and --remote as real processes', () => {
  const { dir, cleanup } = scratchDir('mpi-serve-');
  let dbPath: string;
  let tokenFile: string;
  let server: ReturnType<typeof spawn>;
  let output = '';
  let url: string;

  beforeAll(async () => {
    // Large enough that a batch-size-1 reconciliation is still running when the server is stopped: 1,500 people
    // once finished first on a fast run (reconciliation batches got cheaper), so several times the time it needs.
    dbPath = await makeSandbox(dir, 'registry', 5000, 4);
    setMaintenance(dbPath, { PollIntervalSeconds: 1, LeaseSeconds: 30 });
  });
  afterAll(async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGKILL');
      await exited(server);
    }
    cleanup();
  });

  it('token prints a token for --tenant; the signing key lives only in the 0600 configuration file', () => {
    const result = cli(dbPath, ['token', '--scope', 'mpi.admin mpi.operations', '--ttl', '2h']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toMatch(JWT);
    const payload = JSON.parse(Buffer.from(result.stdout.trim().split('.')[1] ?? '', 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(payload).toMatchObject({
      mpi_tenant: 'jobs-test',
      scope: 'mpi.admin mpi.operations',
      iss: 'urn:mpi-console:dev-auth',
    });
    expect(Number(payload.exp) - Number(payload.iat)).toBe(7200);
    const config = settingsPathFor(dbPath);
    expect(statSync(config).mode & 0o777).toBe(0o600);
    const key = (JSON.parse(readFileSync(config, 'utf8')) as { Api: { DevAuth: { PrivateKey: { d: string } } } }).Api
      .DevAuth.PrivateKey.d;
    expect(key.length).toBeGreaterThan(20);
    expect(result.stdout).not.toContain(key);
    tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, result.stdout, { mode: 0o600 });
    expect(cli(dbPath, ['token', '--scope', 'mpi.everything']).status).toBe(2);
    expect(cli(dbPath, ['token', '--scope', 'mpi.admin', '--ttl', '30d']).status).toBe(2);
  });

  it('refuses --dev-auth and plain http on an address that is not loopback', () => {
    const dev = cli(dbPath, ['serve', '--dev-auth', '--host', '0.0.0.0', '--port', '0']);
    expect(dev.status).toBe(1);
    expect(dev.stderr).toMatch(/--dev-auth is refused unless the server is bound to a loopback address/);
    const plain = cli(dbPath, ['serve', '--host', '0.0.0.0', '--port', '0']);
    expect(plain.status).toBe(1);
    expect(plain.stderr).toMatch(/plain http is refused/);
  });

  it('serve --dev-auth --worker answers the CLI with --remote, and its worker runs the jobs', async () => {
    server = spawn(process.execPath, [BIN, 'serve', '--db', dbPath, '--dev-auth', '--worker', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    url = await waitFor('the server to listen', () => {
      for (const line of output.split('\n')) {
        if (line.includes('"listening"')) return (JSON.parse(line) as { url: string }).url;
      }
      return undefined;
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const started = remote(url, ['reindex', '--reason', 'over the API', '--batch-size', '25', '--json'], { tokenFile });
    expect(started.status, started.stderr).toBe(0);
    const { jobId } = JSON.parse(started.stdout) as { jobId: string };
    await waitFor(
      'the server worker to finish the job',
      () => (readJob(dbPath, jobId).status === 'completed' ? true : undefined),
      120_000,
      50,
    );
    const shown = remote(url, ['job', 'show', jobId, '--json'], {
      env: { MPI_TOKEN: readFileSync(tokenFile, 'utf8').trim() },
    });
    expect(shown.status, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ jobId, status: 'completed', requestedBy: 'api:mpi-console-dev' });
    const listed = remote(url, ['jobs'], { tokenFile });
    expect(listed.stdout).toContain(jobId);
    expect(JSON.parse(remote(url, ['profile', 'show'], { tokenFile }).stdout)).toMatchObject({
      matchingProfileVersion: 1,
    });

    // Evaluation over the API equals the local one.
    const labels = join(dir, 'labels.tsv');
    expect(remote(url, ['labels', 'sample', '--max-pairs', '300', '--out', labels], { tokenFile }).status).toBe(0);
    const args = ['evaluate', '--labels', labels, '--dataset', 'remote-vs-local', '--thresholds', '0.5,0.9', '--json'];
    const overHttp = remote(url, args, { tokenFile });
    expect(overHttp.status, overHttp.stderr).toBe(0);
    expect(JSON.parse(overHttp.stdout)).toEqual(JSON.parse(cli(dbPath, args).stdout));

    // What the API does not cover, and what does not apply remotely.
    const local = remote(url, ['identities'], { tokenFile });
    expect(local.status).toBe(2);
    expect(local.stderr).toMatch(/local database only/);
    expect(remote(url, ['jobs', '--tenant', 'other'], { tokenFile }).status).toBe(2);
    expect(remote(url, ['jobs']).stderr).toMatch(/needs a token/);
    const refused = remote(url, ['jobs'], { env: { MPI_TOKEN: 'not.a.token' } });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/forbidden error: the registry refused the access token/);
  }, 240_000);

  it('on SIGTERM finishes an in-flight request, releases the running job and exits 0; another worker resumes and finishes the job', async () => {
    const token = readFileSync(tokenFile, 'utf8').trim();
    const started = remote(url, ['reconcile', '--reason', 'interrupted', '--batch-size', '1', '--json'], { tokenFile });
    const { jobId } = JSON.parse(started.stdout) as { jobId: string };
    await waitFor('the job to be running', () => {
      const job = readJob(dbPath, jobId);
      return job.status === 'running' && job.phases.some((p) => p.processed > 0) ? true : undefined;
    });

    // A request whose body is still arriving when the signal comes.
    const { pairs } = parseLabelsTsv(readFileSync(join(dir, 'labels.tsv'), 'utf8'));
    const payload = JSON.stringify({ datasetId: 'in-flight', pairs, thresholds: [0.5] });
    const body = new PassThrough();
    const inFlight = request(`${url}/api/v1/matching/evaluation`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(payload)),
      },
      body,
    });
    body.write(payload.slice(0, 1));
    await new Promise((resolve) => setTimeout(resolve, 500));
    server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    body.end(payload.slice(1));
    const answer = await inFlight;
    expect(answer.statusCode).toBe(200);
    expect(await answer.body.json()).toMatchObject({ datasetId: 'in-flight', labels: { pairs: pairs.length } });
    expect(await exited(server)).toBe(0);
    expect(output).toMatch(/"msg":"stopped"/);

    // The worker stopped after its batch and released the lease: the job waits, resumable, for another worker.
    const job = readJob(dbPath, jobId);
    expect(job.status).toBe('running');
    expect(Date.parse(job.leaseExpiresAt ?? '')).toBeLessThanOrEqual(Date.now());
    const resumed = cli(dbPath, ['worker', '--once']);
    expect(resumed.status, resumed.stderr).toBe(0);
    const finished = readJob(dbPath, jobId);
    expect(finished.status).toBe('completed');
    expect(finished.counters.scanned).toBe(2 * (finished.populationTotal ?? -1));
  });
});
