/**
 * The registry on PostgreSQL beside SQLite, in the same run (`npm run bench -- --only postgres`), on a throwaway
 * PostgreSQL cluster on loopback (test/helpers/postgres/cluster.ts: fsync off, as a test cluster):
 * - ingest with matching of the same synthetic records into each store (records/s), each beside the raw insert of
 *   the same rows into that store;
 * - job GET through two `serve` replicas on one PostgreSQL registry (autocannon on both at once), beside one
 *   `serve` on a SQLite sandbox under the same total load;
 * - a registry-only reconciliation (reversed source trust) of the same synthetic identities with one and with two
 *   replicas (`worker --once` processes started together), beside one worker on SQLite;
 * - a first evaluation of 10,000 labelled pairs on a PostgreSQL sandbox (its statistics current, as on a live
 *   registry), beside the same evaluation on a SQLite sandbox of the same people (the reports must agree).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { BenchRow } from './rows.ts';
import { LocalEngine } from '../../engine/local-engine.ts';
import { PgStore } from '../../engine/store/pg/pg-store.ts';
import { devSigningKey, devToken } from '../../main/api/auth/dev-auth.ts';
import { startCluster, type Cluster } from '../helpers/postgres/cluster.ts';
import { withTenant } from '../../engine/store/tenant-scope.ts';
import { scratchDir } from '../helpers/temp.ts';
import { listening, stop } from './api.bench.ts';
import { firstCall } from './assurance.bench.ts';

const BIN = fileURLToPath(new URL('../../main/cli/bin.js', import.meta.url));
const INGEST_WORKER = fileURLToPath(new URL('./ingest-worker.ts', import.meta.url));
const JOBS_WORKER = fileURLToPath(new URL('./jobs-worker.ts', import.meta.url));
const INGEST_RECORDS = 10_000;
/** People (about one identity each) in the reconciliation's registry; MPI_BENCH_PG_PEOPLE=100000 for the large run. */
const RECONCILE_PEOPLE = Number(process.env.MPI_BENCH_PG_PEOPLE ?? 20_000);
const LOAD = { connections: 10, duration: 10 };
/** People of the evaluation's sandboxes (as in the assurance bench: about 11,000 records, 10,000 labelled pairs). */
const EVALUATE_PEOPLE = 5000;

let databases = 0;
/** A new database owned by the registry's role (its URL), optionally a copy of another. */
function database(cluster: Cluster, template?: string): string {
  databases += 1;
  const name = `bench_${String(process.pid)}_${String(databases)}`;
  const admin = PgStore.open(cluster.url, { administration: true });
  try {
    const from = template === undefined ? '' : ` TEMPLATE ${new URL(template).pathname.slice(1)}`;
    admin.exec(`CREATE DATABASE ${name}${from} OWNER ${cluster.appRole}`);
  } finally {
    admin.close();
  }
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  url.username = cluster.appRole;
  return url.toString();
}

function worker(script: string, args: readonly string[], env: Record<string, string> = {}): Record<string, number> {
  const out = execFileSync(process.execPath, ['--import', 'tsx', script, ...args], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, ...env },
  });
  const last = out.trim().split('\n').at(-1) ?? '';
  return (last === '' ? {} : JSON.parse(last)) as Record<string, number>;
}

function ingestRows(cluster: Cluster, dir: string): BenchRow[] {
  const data = join(dir, 'ingest');
  execFileSync('mkdir', ['-p', data]);
  worker(INGEST_WORKER, ['generate', data, String(INGEST_RECORDS)]);
  const sqlite = worker(INGEST_WORKER, ['ingest', data]);
  const url = database(cluster);
  const pg = worker(INGEST_WORKER, ['ingest', data], {
    MPI_BENCH_DATABASE: url,
    MPI_BENCH_CONFIG: join(dir, 'ingest.config.json'),
  });
  const n = INGEST_RECORDS.toLocaleString('en-US');
  return [
    {
      name: `ingest with matching into PostgreSQL, ${n} records`,
      value: pg.recordsPerSecond ?? 0,
      unit: 'records/s',
      ceiling: pg.rawInsertsPerSecond ?? 0,
      ceilingName: 'raw insert of the same rows into the same PostgreSQL, one transaction',
      note: `the same records into SQLite in this run: ${Math.round(sqlite.recordsPerSecond ?? 0).toLocaleString('en-US')} records/s (its raw insert ${Math.round(sqlite.rawInsertsPerSecond ?? 0).toLocaleString('en-US')}/s); review cases ${String(pg.reviewCases)} on PostgreSQL, ${String(sqlite.reviewCases)} on SQLite`,
    },
  ];
}

function serve(args: readonly string[]): ChildProcess {
  return spawn(process.execPath, [BIN, 'serve', ...args, '--dev-auth', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

async function jobGetRows(cluster: Cluster, dir: string): Promise<BenchRow[]> {
  const ctx = { tenantId: 'bench', actor: 'api:bench' };
  const url = database(cluster);
  const config = join(dir, 'api.config.json');
  const dbPath = join(dir, 'api.db');
  const started: ChildProcess[] = [];
  try {
    const jobs: string[] = [];
    let token = '';
    for (const location of [url, dbPath]) {
      const engine = LocalEngine.open({ dbPath: location, ...(location === url ? { settingsPath: config } : {}) });
      try {
        await engine.call('sandbox/create', { syntheticPeople: 2000, seed: 1 }, ctx);
        jobs.push((await engine.call('maintenance/reindex', { reason: 'bench', batchSize: 25 }, ctx)).jobId);
        if (location === url)
          token = await devToken(await devSigningKey(engine.env), {
            tenantId: ctx.tenantId,
            scopes: ['mpi.admin', 'mpi.operations'],
            ttlSeconds: 3600,
            clientId: 'bench',
          });
      } finally {
        engine.close();
      }
    }
    // The SQLite sandbox signs with its own key: its token comes from its own configuration file.
    const sqliteEngine = LocalEngine.open({ dbPath, create: false });
    const sqliteToken = await devToken(await devSigningKey(sqliteEngine.env), {
      tenantId: ctx.tenantId,
      scopes: ['mpi.admin', 'mpi.operations'],
      ttlSeconds: 3600,
      clientId: 'bench',
    });
    sqliteEngine.close();
    const replicas = [serve(['--database', url, '--config', config]), serve(['--database', url, '--config', config])];
    started.push(...replicas);
    const urls = await Promise.all(replicas.map((r) => listening(r, '"msg":"listening"', 'serve on PostgreSQL')));
    const single = serve(['--db', dbPath]);
    started.push(single);
    const singleUrl = await listening(single, '"msg":"listening"', 'serve on SQLite');
    const run = (base: string, jobId: string, auth: string, connections: number, duration: number) =>
      autocannon({
        url: `${base}/api/v1/maintenance/jobs/${jobId}`,
        headers: { authorization: `Bearer ${auth}` },
        connections,
        duration,
      });
    const half = LOAD.connections / 2;
    await Promise.all(urls.map((u) => run(u, jobs[0] ?? '', token, half, 2)));
    const both = await Promise.all(urls.map((u) => run(u, jobs[0] ?? '', token, half, LOAD.duration)));
    await run(singleUrl, jobs[1] ?? '', sqliteToken, LOAD.connections, 2);
    const sqlite = await run(singleUrl, jobs[1] ?? '', sqliteToken, LOAD.connections, LOAD.duration);
    const failed = [...both, sqlite].map((r) => r.non2xx + r.errors + r.timeouts);
    if (failed.some((n) => n > 0)) {
      const probe = await fetch(`${singleUrl}/api/v1/maintenance/jobs/${jobs[1] ?? ''}`, {
        headers: { authorization: `Bearer ${sqliteToken}` },
      });
      throw new Error(
        `job GET: failed answers per server (two replicas, then SQLite) ${failed.join(', ')}; SQLite probe ${String(probe.status)}`,
      );
    }
    const reqs = both.reduce((n, r) => n + r.requests.average, 0);
    const p99 = Math.max(...both.map((r) => r.latency.p99));
    const settings = `autocannon ${String(half)} connections on each replica, ${String(LOAD.duration)} s after 2 s warm-up`;
    return [
      {
        name: `job GET across two serve replicas on one PostgreSQL registry (${settings})`,
        value: reqs,
        unit: 'req/s',
        ceiling: sqlite.requests.average,
        ceilingName: `one serve on a SQLite sandbox of the same people, ${String(LOAD.connections)} connections`,
        note: `per replica ${both.map((r) => Math.round(r.requests.average).toLocaleString('en-US')).join(' and ')} req/s; all answers 200`,
      },
      {
        name: 'job GET across two replicas on PostgreSQL: p99 latency',
        value: p99,
        unit: 'ms',
        ceiling: sqlite.latency.p99,
        ceilingName: 'p99 of one serve on SQLite under the same total load',
        note: `the higher replica's p99; p50 ${both.map((r) => String(r.latency.p50)).join(' and ')} ms`,
      },
    ];
  } finally {
    for (const child of started) await stop(child);
  }
}

function reconcileRows(cluster: Cluster, dir: string): BenchRow[] {
  const sqliteBuilt = join(dir, 'built.db');
  worker(JOBS_WORKER, ['build', sqliteBuilt, String(RECONCILE_PEOPLE)]);
  const sqliteRun = join(dir, 'replicas.db');
  copyFileSync(sqliteBuilt, sqliteRun);
  copyFileSync(sqliteBuilt.replace(/\.db$/, '.config.json'), sqliteRun.replace(/\.db$/, '.config.json'));
  const sqlite = worker(JOBS_WORKER, ['replicas', sqliteRun, '1']);

  const config = join(dir, 'jobs.config.json');
  const env = { MPI_BENCH_CONFIG: config };
  const built = database(cluster);
  const buildStart = performance.now();
  worker(JOBS_WORKER, ['build', built, String(RECONCILE_PEOPLE)], env);
  const buildSeconds = (performance.now() - buildStart) / 1000;
  const one = worker(JOBS_WORKER, ['replicas', database(cluster, built), '1'], env);
  const two = worker(JOBS_WORKER, ['replicas', database(cluster, built), '2'], env);
  const identities = (one.identities ?? 0).toLocaleString('en-US');
  const seconds = (ms: number | undefined): number => (ms ?? 0) / 1000;
  const same = JSON.stringify(one.counters) === JSON.stringify(two.counters) ? 'equal' : 'DIFFERENT';
  return [
    {
      name: `reconciliation of ${identities} identities on PostgreSQL, one replica (worker --once)`,
      value: seconds(one.wallMs),
      unit: 's',
      ceiling: seconds(sqlite.wallMs),
      ceilingName: 'the same reconciliation on SQLite, one worker, same run',
      note: `registry built straight through the store in ${buildSeconds.toFixed(0)} s; batch size 25; ${Math.round(one.identitiesPerSecond ?? 0).toLocaleString('en-US')} identities/s`,
    },
    {
      name: `reconciliation of ${identities} identities on PostgreSQL, two replicas started together`,
      value: seconds(two.wallMs),
      unit: 's',
      ceiling: seconds(one.wallMs),
      ceilingName: 'one replica, same run',
      note: `one replica claims the job and the other finds none: a job runs on one replica at a time (leases); counters ${same} to one replica's`,
    },
  ];
}

async function evaluationRows(cluster: Cluster, dir: string): Promise<BenchRow[]> {
  const ctx = { tenantId: 'bench', actor: 'bench' };
  const sqlite = LocalEngine.open({ dbPath: join(dir, 'evaluate.db') });
  const pg = LocalEngine.open({ dbPath: database(cluster), settingsPath: join(dir, 'evaluate-pg.config.json') });
  try {
    for (const engine of [sqlite, pg])
      await engine.call('sandbox/create', { syntheticPeople: EVALUATE_PEOPLE, seed: 1 }, ctx);
    // A live registry's statistics are current (autovacuum analyzes a table within a minute of a bulk load); a
    // just-loaded one is planned from none, and its IN lists were scanned range by range (1,325 ms against 298 ms).
    withTenant(ctx.tenantId, () => {
      pg.env.store.exec('ANALYZE');
    });
    // The sandboxes hold the same records under the same references, so one sample serves both.
    const { pairs } = await sqlite.call('labels/sample', { maxPairs: 10_000, seed: 1 }, ctx);
    const input = { datasetId: 'bench', pairs, thresholds: [0.5, 0.75, 0.92], maximumErrorExamples: 20 };
    const onSqlite = await firstCall(sqlite, () => sqlite.call('matching/evaluate', input, ctx));
    const onPg = await firstCall(pg, () => pg.call('matching/evaluate', input, ctx));
    const [a, b] = await Promise.all([sqlite, pg].map((engine) => engine.call('matching/evaluate', input, ctx)));
    if (JSON.stringify(a?.thresholds) !== JSON.stringify(b?.thresholds))
      throw new Error('the evaluation on PostgreSQL differs from the same evaluation on SQLite');
    return [
      {
        name: `evaluate ${pairs.length.toLocaleString('en-US')} labelled pairs on PostgreSQL, first call`,
        value: onPg,
        unit: 'ms',
        ceiling: onSqlite,
        ceilingName: 'the same evaluation on a SQLite sandbox of the same people, same run',
        note: `median of 5 calls each with nothing remembered from earlier calls; per-threshold figures equal to SQLite's`,
      },
    ];
  } finally {
    sqlite.close();
    pg.close();
  }
}

/** MPI_BENCH_PG_PARTS=ingest,get,reconcile,evaluate chooses parts (default all); MPI_BENCH_PG_PEOPLE sizes the reconciliation. */
export async function benchPostgres(): Promise<BenchRow[]> {
  const parts = new Set((process.env.MPI_BENCH_PG_PARTS ?? 'ingest,get,reconcile,evaluate').split(','));
  const cluster = await startCluster();
  const { dir } = scratchDir('mpi-bench-pg-');
  try {
    return [
      ...(parts.has('ingest') ? ingestRows(cluster, dir) : []),
      ...(parts.has('get') ? await jobGetRows(cluster, dir) : []),
      ...(parts.has('reconcile') ? reconcileRows(cluster, dir) : []),
      ...(parts.has('evaluate') ? await evaluationRows(cluster, dir) : []),
    ];
  } finally {
    cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
