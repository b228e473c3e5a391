/**
 * The ingestion bench in child processes, so peak RSS belongs to the run measured:
 *   generate DIR N  writes N synthetic records as NDJSON files, one per source, and their ground truth
 *                   (truth.tsv: source, local ID, person) for the scale bench's label sample;
 *   ingest DIR      streams those files through the `mpi-console ingest` path (source by source, each told the
 *                   records the whole load brings the registry to, as `--expected-records` tells it), then
 *                   inserts the same rows with one raw prepared statement into a fresh database (the ceiling).
 *                   It reports the cost per record of the first and the last tenth of the records too, so
 *                   the scale bench can say whether matching gets dearer as the registry grows.
 * With MPI_BENCH_DATABASE (a PostgreSQL URL) and MPI_BENCH_CONFIG (its configuration file), `ingest` writes there
 * instead, and its ceiling inserts the rows into the same database under another tenant.
 */
import { createReadStream, readdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalEngine } from '../../engine/local-engine.ts';
import { createTenant, sandboxProfile } from '../../engine/operations/sandbox.ts';
import { ingestStream } from '../../engine/operations/ingest.ts';
import { generatePopulation } from '../../engine/synthetic/generate.ts';
import { toNdjsonBySource } from '../../engine/synthetic/write.ts';
import { Store } from '../../engine/store/store.ts';
import { payloadDigest } from '../../engine/ingest/payload-digest.ts';
import { peakRssMiB } from './measure.ts';
import { withTenant } from '../../engine/store/tenant-scope.ts';

const [mode, dir = '', count = '0'] = process.argv.slice(2);

if (mode === 'generate') {
  const size = Number(count);
  const full = generatePopulation({ people: Math.ceil(size / 2.1), seed: 5 });
  const records = full.records.slice(0, size);
  for (const [source, text] of toNdjsonBySource({ ...full, records }))
    writeFileSync(join(dir, `${source}.ndjson`), text);
  writeFileSync(
    join(dir, 'truth.tsv'),
    records.map((r) => `${r.sourceSystem}\t${r.localId}\t${r.personId}`).join('\n') + '\n',
  );
} else if (mode === 'ingest') {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ndjson'))
    .sort();
  const database = process.env.MPI_BENCH_DATABASE;
  const engine =
    database === undefined
      ? LocalEngine.open({ dbPath: join(dir, 'bench.db') })
      : LocalEngine.open({
          dbPath: database,
          settingsPath: process.env.MPI_BENCH_CONFIG ?? join(dir, 'bench.config.json'),
        });
  const ctx = { tenantId: 'bench', actor: 'bench' };
  withTenant('bench', () => {
    createTenant(engine.env, ctx, sandboxProfile());
  });
  let records = 0;
  let autoLinked = 0;
  let reviewCases = 0;
  // Records ingested and the time, at every chunk: the cost of the first and last tenth is read off them.
  const marks: [number, number][] = [];
  const total = files.reduce(
    (sum, file) =>
      sum +
      readFileSync(join(dir, file), 'utf8')
        .split('\n')
        .filter((l) => l !== '').length,
    0,
  );
  const start = performance.now();
  for (const file of files) {
    const before = records;
    const report = await withTenant('bench', () =>
      ingestStream(
        engine.env,
        ctx,
        file.replace(/\.ndjson$/, ''),
        createReadStream(join(dir, file)),
        (progress) => {
          marks.push([before + progress.created, performance.now()]);
        },
        // A new registry loaded from its sources' files, as `mpi-console ingest --expected-records` loads one.
        { expectedRecords: total },
      ),
    );
    records += report.created;
    autoLinked += report.autoLinked;
    reviewCases += report.reviewCasesCreated;
  }
  const wallMs = performance.now() - start;
  const at = (n: number): number => marks.find(([done]) => done >= n)?.[1] ?? start;
  const tenth = Math.max(1, Math.floor(total / 10));
  const firstTenthMicros = ((at(tenth) - start) * 1000) / tenth;
  const lastTenthMicros = ((at(total) - at(total - tenth)) * 1000) / tenth;
  engine.close();
  const peak = peakRssMiB();

  // Ceiling: the same rows inserted with one prepared statement in one transaction, nothing else.
  const raw = Store.open(database ?? join(dir, 'raw.db'));
  const now = new Date().toISOString();
  raw.statement('INSERT INTO tenant (tenant_id, created_at) VALUES (?, ?)').run('raw', now);
  const insert = raw
    .statement(
      `INSERT INTO source_record (tenant_id, source_system, local_id, fields_json, payload_digest, logical_version, source_last_updated, created_at, updated_at)
     VALUES ('raw', ?, ?, '{}', ?, 1, NULL, ?, ?) RETURNING record_id`,
    )
    .pluck();
  const insertResource = raw.statement(
    "INSERT INTO source_resource (record_id, tenant_id, resource_json) VALUES (?, 'raw', ?)",
  );
  const rows = files.flatMap((file) =>
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const patient = JSON.parse(line) as { id: string };
        return [file, patient.id, line, payloadDigest(patient)] as const;
      }),
  );
  const rawStart = performance.now();
  withTenant('raw', () => {
    raw.write(() => {
      for (const [source, localId, line, digest] of rows)
        insertResource.run(insert.get(source, localId, digest, now, now), line);
    });
  });
  const rawMs = performance.now() - rawStart;
  raw.close();
  process.stdout.write(
    JSON.stringify({
      records,
      wallMs,
      recordsPerSecond: (records * 1000) / wallMs,
      peakRssMiB: peak,
      rawInsertsPerSecond: (rows.length * 1000) / rawMs,
      autoLinked,
      reviewCases,
      firstTenthMicros,
      lastTenthMicros,
    }) + '\n',
  );
}
