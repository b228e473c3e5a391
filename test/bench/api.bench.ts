/**
 * Registry API figures (`npm run bench -- --only api`), each beside its ceiling measured in the same run:
 *
 * - job GET on loopback with a valid token (autocannon, 10 connections, 10 s) against `mpi-console serve`
 *   in its own process — requests/s (target ≥ 5,000) and p99 latency (target ≤ 20 ms) — beside the same
 *   handler called in-process (LocalEngine.call('jobs/get'));
 * - a 10,000-pair evaluation through RemoteEngine → serve, beside the same evaluation in-process
 *   (target ≤ 1.2 × the in-process time).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { BenchRow } from './rows.ts';
import { opsPerSecond } from './measure.ts';
import { LocalEngine } from '../../engine/local-engine.ts';
import { RemoteEngine } from '../../main/remote/remote-engine.ts';
import { StaticTokenProvider } from '../../main/remote/token-provider.ts';
import { devSigningKey, devToken } from '../../main/api/auth/dev-auth.ts';

const BIN = fileURLToPath(new URL('../../main/cli/bin.js', import.meta.url));
const RUNS = 7;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function medianMs(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** `mpi-console serve --dev-auth` in its own process; resolves with its URL once it listens. */
function serve(dbPath: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--db', dbPath, '--dev-auth', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString();
      const line = text.split('\n').find((l) => l.includes('"listening"'));
      if (line !== undefined) {
        // Keep draining its log lines (one per request) as a log collector would.
        child.stdout.removeListener('data', onData);
        child.stdout.resume();
        resolve({ url: (JSON.parse(line) as { url: string }).url, child });
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => {
      reject(new Error(`serve exited ${String(code)} before listening`));
    });
  });
}

export async function benchApi(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mpi-bench-api-'));
  const dbPath = join(dir, 'api.db');
  const ctx = { tenantId: 'bench', actor: 'api:bench' };
  const engine = LocalEngine.open({ dbPath });
  let server: ChildProcess | undefined;
  try {
    await engine.call('sandbox/create', { syntheticPeople: 5000, seed: 1 }, ctx);
    const { pairs } = await engine.call('labels/sample', { maxPairs: 10_000, seed: 1 }, ctx);
    const { jobId } = await engine.call('maintenance/reindex', { reason: 'bench', batchSize: 25 }, ctx);
    const token = await devToken(await devSigningKey(engine.env), { tenantId: ctx.tenantId, scopes: ['mpi.admin', 'mpi.operations'], ttlSeconds: 3600, clientId: 'bench' });
    const started = await serve(dbPath);
    server = started.child;
    const { url } = started;

    // Job GET: the same handler in-process, then over HTTP.
    const inProcess = opsPerSecond(() => {
      let n = 0;
      const pending: Promise<unknown>[] = [];
      for (; n < 200; n++) pending.push(engine.call('jobs/get', { jobId }, ctx));
      return n;
    }, 1000);
    await autocannon({ url: `${url}/api/v1/maintenance/jobs/${jobId}`, headers: { authorization: `Bearer ${token}` }, connections: 10, duration: 2 });
    const load = await autocannon({ url: `${url}/api/v1/maintenance/jobs/${jobId}`, headers: { authorization: `Bearer ${token}` }, connections: 10, duration: 10 });
    const failures = `${String(load.non2xx)} non-2xx, ${String(load.errors)} errors, ${String(load.timeouts)} timeouts of ${String(load.requests.total)}`;

    // A 10,000-pair evaluation: in-process, then through the remote client.
    const remote = new RemoteEngine({ baseUrl: url, tokens: new StaticTokenProvider(token) });
    const input = { datasetId: 'bench', pairs, thresholds: [0.5, 0.75, 0.92], maximumErrorExamples: 20 };
    const local = await medianMs(() => engine.call('matching/evaluate', input, ctx));
    const overHttp = await medianMs(() => remote.call('matching/evaluate', input, ctx));
    await remote.close();
    const bodyMiB = Buffer.byteLength(JSON.stringify(input)) / 1024 / 1024;

    return [
      {
        name: 'job GET over loopback with a valid token (serve, own process; autocannon 10 connections, 10 s)',
        value: load.requests.average,
        unit: 'req/s',
        ceiling: inProcess,
        ceilingName: "the same handler in-process (LocalEngine.call('jobs/get'))",
        note: `target ≥ 5,000 req/s; ${failures}; token verified once then remembered; one JSON log line per request`,
      },
      { name: 'job GET over loopback: p99 latency', value: load.latency.p99, unit: 'ms', note: `target ≤ 20 ms; p50 ${String(load.latency.p50)} ms, max ${String(load.latency.max)} ms` },
      {
        name: `evaluate ${pairs.length.toLocaleString('en-US')} labelled pairs over HTTP (RemoteEngine → serve)`,
        value: overHttp,
        unit: 'ms',
        ceiling: local,
        ceilingName: 'the same evaluation in-process (LocalEngine.call)',
        note: `target ≤ 1.2 × in-process (here ${(overHttp / local).toFixed(2)} ×); median of ${String(RUNS)} after a warm-up each; request body ${bodyMiB.toFixed(1)} MiB, validated by the client and by the server`,
      },
    ];
  } finally {
    server?.kill('SIGTERM');
    if (server !== undefined && server.exitCode === null) await new Promise((resolve) => server?.once('exit', resolve));
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
