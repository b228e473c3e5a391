/**
 * `mpi-console serve` buffers its standard-output log lines (one write per few KiB), yet a request's line must
 * reach the operator while the server keeps running, not only when it exits. The server here is a real process
 * and stays up: a single request writes far less than the buffer holds, so only the periodic flush can bring
 * its line out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { BIN, cli, exited, makeSandbox, TENANT, waitFor } from '../../engine/jobs/helpers.ts';
import { scratchDir } from '../../helpers/temp.ts';

interface LogLine {
  readonly msg?: string;
  readonly reqId?: string;
  readonly [key: string]: unknown;
}

function lines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);
}

describe('serve logs reach standard output while the server runs', () => {
  const { dir, cleanup } = scratchDir('mpi-serve-log-');
  let server: ChildProcess | undefined;
  let output = '';
  let url = '';
  let token = '';

  beforeAll(async () => {
    const dbPath = await makeSandbox(dir, 'registry', 20, 3);
    const minted = cli(dbPath, ['token', '--scope', 'mpi.operations']);
    expect(minted.status, minted.stderr).toBe(0);
    token = minted.stdout.trim();
    const child = spawn(process.execPath, [BIN, 'serve', '--db', dbPath, '--dev-auth', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server = child;
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    url = await waitFor(
      'the server to listen',
      () => lines(output).find((l) => l.msg === 'listening')?.url as string | undefined,
      120_000,
    );
  }, 180_000);

  afterAll(async () => {
    if (server !== undefined && server.exitCode === null && server.signalCode === null) {
      server.kill('SIGKILL');
      await exited(server);
    }
    cleanup();
  });

  it("a request's line appears without the server exiting, with its route template and no token", async () => {
    const answer = await request(`${url}/api/v1/maintenance/jobs/no-such-job-for-the-log`, {
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'log-probe-1' },
    });
    expect(answer.statusCode).toBe(404);
    await answer.body.dump();

    // Generous: the line is due within a second, but the machine may be loaded.
    const line = await waitFor(
      'the request log line',
      () => lines(output).find((l) => l.reqId === 'log-probe-1' && l.msg === 'request'),
      30_000,
      20,
    );
    expect(server?.exitCode).toBeNull();
    expect(server?.signalCode).toBeNull();
    expect(line).toMatchObject({
      route: '/api/v1/maintenance/jobs/:jobId',
      operation: 'jobs/get',
      status: 404,
      tenant: TENANT,
      method: 'GET',
    });
    expect(output).not.toContain(token);
    expect(output).not.toContain('no-such-job-for-the-log');
  });

  it('on SIGTERM the shutdown lines are written and the process exits 0', async () => {
    const child = server;
    if (child === undefined) throw new Error('no server');
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    const messages = lines(output).map((l) => l.msg);
    expect(messages).toContain('stopping');
    expect(messages.at(-1)).toBe('stopped');
  });
});
