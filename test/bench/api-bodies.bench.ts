/**
 * job GET while another client sends large request bodies (`npm run bench -- --only api-bodies`): `mpi-console serve`
 * on a sandbox of 5,000 people, one client evaluating 10,000 labelled pairs back to back through the remote client
 * (POST /runs, then the run followed to its end; body-sender.ts, in a process of its own so that its work never
 * delays autocannon's clock) while autocannon loads the job GET (api.bench.ts's load: 10 connections, 10 s after a
 * 2 s warm-up), beside the same server idle just before. Two bodies: the sampled labels as they are (1.4 MiB), and
 * the same pairs with references at their maximum lengths (100 + 200 characters a side, 6.7 MiB, near the body limit;
 * references no record has, so the engine reads every row and then refuses the dataset). Then the other way round:
 * the same load while the client samples 10,000 labels back to back (a small request, a large answer). Every answer
 * must be a 200.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './rows.ts';
import { LocalEngine } from '../../engine/local-engine.ts';
import type { OperationInput } from '../../engine/contract/operations.ts';
import type { RecordRef } from '../../engine/contract/matching.ts';
import { scratchDir } from '../helpers/temp.ts';
import { benchToken, labelledSandbox, listening, load, serveProcess, stop, type Load } from './api.bench.ts';

const SENDER = fileURLToPath(new URL('./body-sender.ts', import.meta.url));

/** The load on the job GET while another process calls `operation` with the input in `file` again and again. */
async function loadWhileSending(
  server: ChildProcess,
  url: string,
  jobUrl: string,
  token: string,
  operation: string,
  file: string,
): Promise<{ result: Load['result']; sent: number }> {
  const sender = spawn(process.execPath, ['--import', 'tsx', SENDER, url, token, operation, file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const started = new Promise<void>((resolve, reject) => {
    sender.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('"sending"')) resolve();
    });
    sender.once('exit', (code) => {
      reject(new Error(`the body sender exited ${String(code)} before sending`));
    });
  });
  const exited = new Promise((resolve) => sender.once('exit', resolve));
  try {
    await started;
    const { result } = await load(jobUrl, token, server, 'serve, while evaluations are sent');
    sender.kill('SIGTERM');
    await exited;
    const sent = /"sent":(\d+)/.exec(out)?.[1];
    if (sent === undefined) throw new Error('the body sender did not say how many it sent');
    return { result, sent: Number(sent) };
  } finally {
    if (sender.exitCode === null) sender.kill('SIGKILL');
  }
}

const widened = (ref: RecordRef): RecordRef => ({
  sourceSystem: ref.sourceSystem.padEnd(100, 'x'),
  localId: ref.localId.padEnd(200, 'y'),
});

export async function benchApiDuringLargeBodies(): Promise<BenchRow[]> {
  const dir = scratchDir('mpi-bench-api-bodies-').dir;
  const dbPath = join(dir, 'api.db');
  const ctx = { tenantId: 'bench', actor: 'api:bench' };
  const engine = LocalEngine.open({ dbPath });
  let server: ChildProcess | undefined;
  try {
    const { pairs, jobId } = await labelledSandbox(engine, ctx);
    const token = await benchToken(engine, ctx.tenantId);
    engine.close();
    server = serveProcess(dbPath);
    const url = await listening(server, '"msg":"listening"', 'serve');
    const jobUrl = `${url}/api/v1/maintenance/jobs/${jobId}`;
    const { result: idle } = await load(jobUrl, token, server, 'serve, idle');

    const rows: BenchRow[] = [];
    const bodies: [string, OperationInput<'matching/evaluate'>][] = [
      ['as sampled', { datasetId: 'bench', pairs, thresholds: [0.5, 0.75, 0.92] }],
      [
        'references at their maximum lengths',
        {
          datasetId: 'bench',
          pairs: pairs.map((p) => ({ ...p, left: widened(p.left), right: widened(p.right) })),
          thresholds: [0.5, 0.75, 0.92],
        },
      ],
    ];
    for (const [what, input] of bodies) {
      const file = join(dir, 'input.json');
      writeFileSync(file, JSON.stringify(input));
      const { result, sent } = await loadWhileSending(server, url, jobUrl, token, 'matching/evaluate', file);
      const mib = Buffer.byteLength(JSON.stringify({ operation: 'matching/evaluate', input })) / 1024 / 1024;
      rows.push({
        name: `job GET p99 while one client sends 10,000-pair evaluations back to back (${what}, ${mib.toFixed(1)} MiB a body)`,
        value: result.latency.p99,
        unit: 'ms',
        ceiling: idle.latency.p99,
        ceilingName: 'p99 of the same server idle just before',
        note: `target ≤ 50 ms; ${Math.round(result.requests.average).toLocaleString('en-US')} req/s (idle ${Math.round(idle.requests.average).toLocaleString('en-US')}), p50 ${String(result.latency.p50)} ms, max ${String(result.latency.max)} ms; ${String(sent)} evaluations sent through the remote client (POST /runs)`,
      });
    }
    // The other way round: a small request, a large answer (10,000 labelled pairs, built on an engine thread, copied
    // back to the serving thread and written there as JSON).
    const file = join(dir, 'sample.json');
    const sample = { maxPairs: 10_000, seed: 1 };
    writeFileSync(file, JSON.stringify(sample));
    const { result, sent } = await loadWhileSending(server, url, jobUrl, token, 'labels/sample', file);
    const answerMib = Buffer.byteLength(JSON.stringify({ pairs })) / 1024 / 1024;
    rows.push({
      name: `job GET p99 while one client samples 10,000 labels back to back (answers of about ${answerMib.toFixed(1)} MiB)`,
      value: result.latency.p99,
      unit: 'ms',
      ceiling: idle.latency.p99,
      ceilingName: 'p99 of the same server idle just before',
      note: `target ≤ 50 ms; ${Math.round(result.requests.average).toLocaleString('en-US')} req/s (idle ${Math.round(idle.requests.average).toLocaleString('en-US')}), p50 ${String(result.latency.p50)} ms, max ${String(result.latency.max)} ms; ${String(sent)} samples read through the remote client (POST /runs)`,
    });
    return rows;
  } finally {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}
