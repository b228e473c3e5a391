/**
 * Registry API figures (`npm run bench -- --only api`), each beside its ceiling measured in the same run:
 *
 * - job GET on loopback with a valid token (autocannon, 10 connections, 10 s) against `mpi-console serve`
 *   in its own process — requests/s (target ≥ 5,000) and p99 latency (target ≤ 20 ms) — beside a bare
 *   node:http server in its own process answering the same bytes under the same autocannon settings (what
 *   this machine's loopback, kernel and client allow at this moment); the same handler called in-process
 *   (LocalEngine.call('jobs/get'), awaited) is shown too;
 * - a 10,000-pair evaluation through RemoteEngine → serve, beside the same evaluation in-process (target
 *   ≤ 1.2 × the in-process time); the two alternate run by run so that a change in the machine's load
 *   during the run weighs on both alike.
 *
 * - job GET while an estimate runs (`--only api-estimate`, part of the default run): a registry of 100,000 records
 *   served by `mpi-console serve`, an estimate started as a run (POST /runs, five million random pairs so that it
 *   outlasts the load), then the same autocannon load on the job GET (target ≥ 1,000 req/s, p99 ≤ 50 ms, no error)
 *   beside the same server idle just before; the run must still be running when the load ends.
 *
 * Every load answer must be a 200: a run with any other status, error or timeout fails rather than report
 * the speed of refusals.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { BenchRow } from './rows.ts';
import { LocalEngine } from '../../engine/local-engine.ts';
import type { CallContext } from '../../engine/contract/operations.ts';
import type { LabelPair } from '../../engine/assurance/labels.ts';
import { RemoteEngine } from '../../main/remote/remote-engine.ts';
import { StaticTokenProvider } from '../../main/remote/token-provider.ts';
import { devSigningKey, devToken } from '../../main/api/auth/dev-auth.ts';
import { scratchDir } from '../helpers/temp.ts';

const BIN = fileURLToPath(new URL('../../main/cli/bin.js', import.meta.url));
const BARE = fileURLToPath(new URL('./bare-http.ts', import.meta.url));
const RUNS = 9;
const LOAD = { connections: 10, duration: 10 };

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Median times of a and b, run alternately (after a warm-up each). */
async function alternateMedians(a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number, number]> {
  await a();
  await b();
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < RUNS; i++) {
    for (const [k, fn] of [a, b].entries()) {
      const start = performance.now();
      await fn();
      times[k]?.push(performance.now() - start);
    }
  }
  return [median(times[0]), median(times[1])];
}

/** Awaited calls per second for at least minMs, after a warm-up. */
async function callsPerSecond(fn: () => Promise<unknown>, minMs = 1000): Promise<number> {
  for (let i = 0; i < 500; i++) await fn();
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    for (let i = 0; i < 100; i++) await fn();
    calls += 100;
  }
  return (calls * 1000) / (performance.now() - start);
}

/** A process that prints a JSON line with its url (found by marker) once it listens. */
export function listening(child: ChildProcess, marker: string, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString();
      const line = text.split('\n').find((l) => l.includes(marker));
      if (line !== undefined) {
        // Keep draining its output (serve's one log line per request) as a log collector would.
        child.stdout?.removeListener('data', onData);
        child.stdout?.resume();
        resolve((JSON.parse(line) as { url: string }).url);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      reject(new Error(`${what} exited ${String(code)} before listening`));
    });
  });
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc (Linux), or undefined elsewhere. On a
 * machine shared with other work a server gets only part of a core, so its CPU time per request says what
 * it costs better than the rate it reached.
 */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const fields =
      readFileSync(`/proc/${String(pid)}/stat`, 'utf8')
        .split(') ')[1]
        ?.split(' ') ?? [];
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

export interface Load {
  readonly result: Awaited<ReturnType<typeof autocannon>>;
  /** The server's CPU time per answer, in µs (undefined without /proc). */
  readonly cpuMicros: number | undefined;
}

/** autocannon's LOAD on a GET after a 2 s warm-up; every answer must be a 200, or it throws. */
export async function load(url: string, token: string, server: ChildProcess, what: string): Promise<Load> {
  const options = { url, headers: { authorization: `Bearer ${token}` }, ...LOAD };
  await autocannon({ ...options, duration: 2 });
  const before = cpuSeconds(server.pid);
  const result = await autocannon(options);
  const after = cpuSeconds(server.pid);
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 || result['2xx'] !== result.requests.total) {
    throw new Error(
      `${what}: ${String(result.non2xx)} non-2xx, ${String(result.errors)} errors, ${String(result.timeouts)} timeouts of ${String(result.requests.total)} requests`,
    );
  }
  const cpuMicros =
    before === undefined || after === undefined ? undefined : ((after - before) * 1e6) / result.requests.total;
  return { result, cpuMicros };
}

export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A dev token of this registry for the bench tenant, with both scopes, for an hour. */
export async function benchToken(engine: LocalEngine, tenantId: string): Promise<string> {
  return devToken(await devSigningKey(engine.env), {
    tenantId,
    scopes: ['mpi.admin', 'mpi.operations'],
    ttlSeconds: 3600,
    clientId: 'bench',
  });
}

/** `mpi-console serve --dev-auth` on this registry file, in its own process, on a free port (see listening). */
export function serveProcess(dbPath: string): ChildProcess {
  return spawn(process.execPath, [BIN, 'serve', '--db', dbPath, '--dev-auth', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** A sandbox of 5,000 synthetic people, 10,000 labelled pairs sampled from it, and a job to read. */
export async function labelledSandbox(
  engine: LocalEngine,
  ctx: CallContext,
): Promise<{ pairs: LabelPair[]; jobId: string }> {
  await engine.call('sandbox/create', { syntheticPeople: 5000, seed: 1 }, ctx);
  const { pairs } = await engine.call('labels/sample', { maxPairs: 10_000, seed: 1 }, ctx);
  const { jobId } = await engine.call('maintenance/reindex', { reason: 'bench', batchSize: 25 }, ctx);
  return { pairs, jobId };
}

export async function benchApi(): Promise<BenchRow[]> {
  const dir = scratchDir('mpi-bench-api-').dir;
  const dbPath = join(dir, 'api.db');
  const ctx = { tenantId: 'bench', actor: 'api:bench' };
  const engine = LocalEngine.open({ dbPath });
  let server: ChildProcess | undefined;
  let bare: ChildProcess | undefined;
  try {
    const { pairs, jobId } = await labelledSandbox(engine, ctx);
    const token = await benchToken(engine, ctx.tenantId);
    server = serveProcess(dbPath);
    const url = await listening(server, '"msg":"listening"', 'serve');
    const jobUrl = `${url}/api/v1/maintenance/jobs/${jobId}`;

    // The ceiling answers the very bytes serve answers.
    const served = await fetch(jobUrl, { headers: { authorization: `Bearer ${token}` } });
    if (served.status !== 200) throw new Error(`serve answered the job GET with ${String(served.status)}`);
    const bodyFile = join(dir, 'job.json');
    writeFileSync(bodyFile, await served.text());
    bare = spawn(process.execPath, ['--import', 'tsx', BARE, bodyFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    const bareUrl = await listening(bare, '"url"', 'the bare http server');

    const inProcess = await callsPerSecond(() => engine.call('jobs/get', { jobId }, ctx));
    const { result: api, cpuMicros: apiCpu } = await load(jobUrl, token, server, 'serve');
    const { result: ceiling, cpuMicros: bareCpu } = await load(
      `${bareUrl}/api/v1/maintenance/jobs/${jobId}`,
      token,
      bare,
      'the bare http server',
    );
    const cpu =
      apiCpu === undefined || bareCpu === undefined
        ? ''
        : `; server CPU ${apiCpu.toFixed(0)} µs per answer (${Math.round(1e6 / apiCpu).toLocaleString('en-US')} req/s on one free core), bare ${bareCpu.toFixed(0)} µs`;
    await stop(bare);

    // A 10,000-pair evaluation: in-process and through the remote client, alternately.
    const remote = new RemoteEngine({ baseUrl: url, tokens: new StaticTokenProvider(token) });
    const input = { datasetId: 'bench', pairs, thresholds: [0.5, 0.75, 0.92], maximumErrorExamples: 20 };
    const [local, overHttp] = await alternateMedians(
      () => engine.call('matching/evaluate', input, ctx),
      () => remote.call('matching/evaluate', input, ctx),
    );
    await remote.close();
    const bodyMiB = Buffer.byteLength(JSON.stringify(input)) / 1024 / 1024;
    const settings = `autocannon ${String(LOAD.connections)} connections, ${String(LOAD.duration)} s after 2 s warm-up`;

    return [
      {
        name: `job GET over loopback with a valid token (serve in its own process; ${settings})`,
        value: api.requests.average,
        unit: 'req/s',
        ceiling: ceiling.requests.average,
        ceilingName: 'bare node:http answering the same bytes, own process, same load',
        note: `target ≥ 5,000 req/s; ${String(api.requests.total)} answers, all 200; token verified once then remembered; one JSON log line per request; in-process handler (LocalEngine.call('jobs/get'), awaited): ${Math.round(inProcess).toLocaleString('en-US')} calls/s${cpu}`,
      },
      {
        name: 'job GET over loopback: p99 latency',
        value: api.latency.p99,
        unit: 'ms',
        ceiling: ceiling.latency.p99,
        ceilingName: 'p99 of the bare node:http server under the same load',
        note: `target ≤ 20 ms; p50 ${String(api.latency.p50)} ms, max ${String(api.latency.max)} ms (bare: p50 ${String(ceiling.latency.p50)} ms, max ${String(ceiling.latency.max)} ms)`,
      },
      {
        name: `evaluate ${pairs.length.toLocaleString('en-US')} labelled pairs over HTTP (RemoteEngine → serve)`,
        value: overHttp,
        unit: 'ms',
        ceiling: local,
        ceilingName: 'the same evaluation in-process (LocalEngine.call)',
        note: `target ≤ 1.2 × in-process (here ${(overHttp / local).toFixed(2)} ×); medians of ${String(RUNS)} alternating runs after a warm-up each; request body ${bodyMiB.toFixed(1)} MiB, validated by the server`,
      },
    ];
  } finally {
    await stop(bare);
    await stop(server);
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** job GET on a 100,000-record registry, idle and while an estimate computes in the server's engine pool. */
export async function benchApiDuringEstimate(records = 100_000): Promise<BenchRow[]> {
  const dir = scratchDir('mpi-bench-api-estimate-').dir;
  const dbPath = join(dir, 'api.db');
  const ctx = { tenantId: 'bench', actor: 'api:bench' };
  const engine = LocalEngine.open({ dbPath });
  let server: ChildProcess | undefined;
  try {
    // About 2.2 records a person in the synthetic population.
    await engine.call('sandbox/create', { syntheticPeople: Math.round(records / 2.2), seed: 1 }, ctx);
    const population = engine.env.store
      .statement('SELECT count(*) FROM source_record WHERE tenant_id = ?')
      .pluck()
      .get(ctx.tenantId) as number;
    const { jobId } = await engine.call('maintenance/reindex', { reason: 'bench', batchSize: 25 }, ctx);
    const token = await benchToken(engine, ctx.tenantId);
    engine.close();
    server = serveProcess(dbPath);
    const url = await listening(server, '"msg":"listening"', 'serve');
    const jobUrl = `${url}/api/v1/maintenance/jobs/${jobId}`;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const { result: idle } = await load(jobUrl, token, server, 'serve, idle');

    const started = await fetch(`${url}/api/v1/runs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        operation: 'matching/estimate',
        input: { modelVersion: 'bench', randomPairs: 5_000_000 },
      }),
    });
    if (started.status !== 202)
      throw new Error(`the estimate run was refused: ${String(started.status)} ${await started.text()}`);
    const { runId } = (await started.json()) as { runId: string };
    const runState = async (): Promise<string> =>
      ((await (await fetch(`${url}/api/v1/runs/${runId}`, { headers })).json()) as { status: string }).status;
    while ((await runState()) !== 'running') await new Promise((resolve) => setTimeout(resolve, 100));
    const { result: busy } = await load(jobUrl, token, server, 'serve, during the estimate');
    const stillRunning = (await runState()) === 'running';
    await fetch(`${url}/api/v1/runs/${runId}/cancel`, { method: 'POST', headers });
    const settings = `autocannon ${String(LOAD.connections)} connections, ${String(LOAD.duration)} s after 2 s warm-up`;
    return [
      {
        name: `job GET while an estimate runs on a ${population.toLocaleString('en-US')}-record registry (${settings})`,
        value: busy.requests.average,
        unit: 'req/s',
        ceiling: idle.requests.average,
        ceilingName: 'the same server and load, idle just before',
        note: `target ≥ 1,000 req/s; ${String(busy.requests.total)} answers, all 200; the estimate was ${stillRunning ? 'still running' : 'no longer running (the load outlasted it)'} when the load ended`,
      },
      {
        name: 'job GET while an estimate runs: p99 latency',
        value: busy.latency.p99,
        unit: 'ms',
        ceiling: idle.latency.p99,
        ceilingName: 'p99 of the same server idle',
        note: `target ≤ 50 ms; p50 ${String(busy.latency.p50)} ms, max ${String(busy.latency.max)} ms (idle: p50 ${String(idle.latency.p50)} ms)`,
      },
    ];
  } finally {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}
