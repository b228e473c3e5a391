/**
 * Crash injection for ingestion: a real `mpi-console ingest` process is killed with SIGKILL at several
 * points, the same file is ingested again each time, and the end state must equal an uninterrupted run of
 * the same file on a copy of the same registry: records, resources, identities, links, tags, receipts,
 * review cases and audit rows. The points: after 1, 2, 3 and 4 committed chunks (watched through another
 * connection), either between chunks (while the next one is parsed and validated, outside the lock) or
 * inside the next chunk's write transaction (seen as the write lock being held).
 */
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/temp.ts';
import { dumpRegistry } from '../../helpers/registry-dump.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { createTenant } from '../../../engine/operations/sandbox.ts';
import { ingestStream } from '../../../engine/operations/ingest.ts';
import { generatePopulation } from '../../../engine/synthetic/generate.ts';
import { toNdjsonBySource } from '../../../engine/synthetic/write.ts';
import { settingsPathFor } from '../../../engine/config/settings.ts';
import { Store } from '../../../engine/store/store.ts';
import { BusyError } from '../../../engine/contract/errors.ts';
import { CHUNK_LINES } from '../../../engine/ingest/ndjson.ts';

const BIN = fileURLToPath(new URL('../../../main/cli/bin.js', import.meta.url));
const TENANT = 'crash';
const FIRST = 'st-marys-hospital';
const SECOND = 'riverside-clinic';
type KillPoint = { readonly chunks: number; readonly inTransaction: boolean };
const KILL_POINTS: readonly KillPoint[] = [
  { chunks: 1, inTransaction: true },
  { chunks: 2, inTransaction: false },
  { chunks: 3, inTransaction: true },
  { chunks: 4, inTransaction: true },
];
const LAST_KILL = Math.max(...KILL_POINTS.map((k) => k.chunks));
/** An ingest that has not reached its kill point by then has stalled (a few seconds each, normally). */
const KILL_POINT_DEADLINE_MS = 150_000;

function copyRegistry(from: string, to: string): string {
  copyFileSync(from, to);
  for (const suffix of ['-wal', '-shm']) if (existsSync(from + suffix)) copyFileSync(from + suffix, to + suffix);
  copyFileSync(settingsPathFor(from), settingsPathFor(to));
  return to;
}

const ingestArgs = (db: string, file: string): string[] => [
  BIN,
  '--db',
  db,
  '--tenant',
  TENANT,
  'ingest',
  '--source',
  SECOND,
  '--ndjson',
  file,
  '--json',
];

function ingestToTheEnd(db: string, file: string): { created: number; unchanged: number; rejected: unknown[] } {
  const run = spawnSync(process.execPath, ingestArgs(db, file), { encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { created: number; unchanged: number; rejected: unknown[] };
}

/** True while another connection holds the write lock (the ingest is inside a chunk's transaction). */
function writeLockHeld(probe: Store): boolean {
  try {
    probe.write(() => undefined);
    return false;
  } catch (error) {
    if (error instanceof BusyError) return true;
    throw error;
  }
}

/** Starts an ingest and kills it with SIGKILL at the kill point. */
async function ingestKilledAt(db: string, file: string, point: KillPoint): Promise<number> {
  const watcher = Store.open(db, { busyTimeoutMs: 0 });
  const child = spawn(process.execPath, ingestArgs(db, file), { stdio: ['ignore', 'ignore', 'pipe'] });
  const exit = once(child, 'exit');
  // What goes wrong is said, never waited on for ever: a process that could not start, or that stalls.
  let started: Error | undefined;
  child.on('error', (error) => (started = error));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const deadline = Date.now() + KILL_POINT_DEADLINE_MS;
  try {
    const count = watcher
      .statement('SELECT COUNT(*) FROM source_record WHERE tenant_id = ? AND source_system = ?')
      .pluck();
    for (;;) {
      const committed = count.get(TENANT, SECOND) as number;
      if (committed >= point.chunks * CHUNK_LINES && (!point.inTransaction || writeLockHeld(watcher))) break;
      if (started !== undefined) throw started;
      if (child.exitCode !== null)
        throw new Error(`the ingest ended (exit ${String(child.exitCode)}) before its kill point: ${stderr}`);
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(
          `the ingest did not reach its kill point (${JSON.stringify(point)}) in ${String(KILL_POINT_DEADLINE_MS)} ms: ${String(committed)} records committed; its stderr: ${stderr}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    child.kill('SIGKILL');
    const [, signal] = (await exit) as [number | null, NodeJS.Signals | null];
    // It was killed, not finished: the crash happened with work left.
    expect(signal).toBe('SIGKILL');
    return count.get(TENANT, SECOND) as number;
  } finally {
    watcher.close();
  }
}

describe('kill -9 during ingestion', () => {
  it('commits whole chunks only, and a rerun of the same file ends where an uninterrupted run ends', async () => {
    const dir = tempDir();
    // One registry with a first source already ingested, so the second source links, reviews and rebuilds.
    const population = generatePopulation({ people: 8500, seed: 23 });
    const files = toNdjsonBySource(population);
    const second = join(dir, `${SECOND}.ndjson`);
    writeFileSync(second, files.get(SECOND) ?? '');
    const lines = (files.get(SECOND) ?? '').split('\n').filter((l) => l !== '').length;
    expect(lines).toBeGreaterThan((LAST_KILL + 0.5) * CHUNK_LINES);
    const base = join(dir, 'base.db');
    const engine = LocalEngine.open({ dbPath: base });
    createTenant(engine.env, { tenantId: TENANT, actor: 'test' });
    const first = await ingestStream(engine.env, { tenantId: TENANT, actor: 'test' }, FIRST, files.get(FIRST) ?? '');
    expect(first.rejected).toEqual([]);
    engine.close();

    const reference = copyRegistry(base, join(dir, 'reference.db'));
    expect(ingestToTheEnd(reference, second)).toMatchObject({ created: lines, rejected: [] });
    const expected = dumpRegistry(reference, TENANT);
    expect((expected.links ?? []).length).toBe(first.created + lines);
    expect((expected.reviews ?? []).length).toBeGreaterThan(0);

    const crashed = copyRegistry(base, join(dir, 'crashed.db'));
    for (const point of KILL_POINTS) {
      const committed = await ingestKilledAt(crashed, second, point);
      // Only whole chunks are ever committed: the one in flight left nothing behind.
      expect(committed % CHUNK_LINES).toBe(0);
      const store = Store.open(crashed, { readonly: true });
      const receipts = store
        .statement('SELECT COUNT(*) FROM ingestion_receipt WHERE tenant_id = ? AND source_system = ?')
        .pluck()
        .get(TENANT, SECOND);
      store.close();
      expect(receipts).toBe(committed);
    }
    const rerun = ingestToTheEnd(crashed, second);
    expect(rerun.created + rerun.unchanged).toBe(lines);
    expect(rerun.unchanged).toBeGreaterThanOrEqual(LAST_KILL * CHUNK_LINES);
    expect(dumpRegistry(crashed, TENANT)).toEqual(expected);
    // Spawns several real ingests of a few thousand lines: minutes on a loaded two-core machine.
  }, 600_000);
});
