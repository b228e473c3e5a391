/**
 * One ingestion bench run in its own process (so peak RSS is its own): N synthetic records written as
 * NDJSON per source, then ingested source by source through the same path as `mpi-console ingest`, then
 * the raw better-sqlite3 rate of inserting the same rows into a fresh database, for comparison.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalEngine } from '../../engine/local-engine.ts';
import { createTenant, sandboxProfile } from '../../engine/operations/sandbox.ts';
import { ingestStream } from '../../engine/operations/ingest.ts';
import { generatePopulation } from '../../engine/synthetic/generate.ts';
import { toNdjsonBySource } from '../../engine/synthetic/write.ts';
import { Store } from '../../engine/store/db.ts';
import { payloadDigest } from '../../engine/ingest/payload-digest.ts';
import { peakRssMiB } from './measure.ts';

const size = Number(process.argv[2] ?? '10000');
const dir = mkdtempSync(join(tmpdir(), 'mpi-bench-'));
try {
  const full = generatePopulation({ people: Math.ceil(size / 2.1), seed: 5 });
  const population = { ...full, records: full.records.slice(0, size) };
  const bySource = toNdjsonBySource(population);
  const engine = LocalEngine.open({ dbPath: join(dir, 'bench.db') });
  const ctx = { tenantId: 'bench', actor: 'bench' };
  createTenant(engine.env, ctx, sandboxProfile());
  let autoLinked = 0;
  let reviewCases = 0;
  const start = performance.now();
  for (const [source, text] of bySource) {
    const report = await ingestStream(engine.env, ctx, source, text.split('\n'));
    autoLinked += report.autoLinked;
    reviewCases += report.reviewCasesCreated;
  }
  const wallMs = performance.now() - start;
  engine.close();

  // Ceiling: the same rows inserted with one prepared statement in one transaction, nothing else.
  const raw = Store.open(join(dir, 'raw.db'));
  raw.exec("INSERT INTO tenant (tenant_id, created_at) VALUES ('bench', 'now')");
  const insert = raw.statement(
    `INSERT INTO source_record (tenant_id, source_system, local_id, resource_json, fields_json, payload_digest, logical_version, source_last_updated, created_at, updated_at)
     VALUES ('bench', ?, ?, ?, '{}', ?, 1, NULL, 'now', 'now')`,
  );
  const rows = population.records.map((r) => [r.sourceSystem, r.localId, JSON.stringify(r.patient), payloadDigest(r.patient)] as const);
  const rawStart = performance.now();
  raw.write(() => {
    for (const row of rows) insert.run(...row);
  });
  const rawMs = performance.now() - rawStart;
  raw.close();
  process.stdout.write(
    JSON.stringify({
      records: size,
      wallMs,
      recordsPerSecond: (size * 1000) / wallMs,
      peakRssMiB: peakRssMiB(),
      rawInsertsPerSecond: (size * 1000) / rawMs,
      autoLinked,
      reviewCases,
    }) + '\n',
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
