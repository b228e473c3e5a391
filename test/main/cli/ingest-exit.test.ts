/**
 * An ingest of a file longer than a chunk uses the preparation thread. While the ingestion waits on it, the thread
 * must keep the process alive (else it ends with exit code 13, an unsettled await); once the ingestion is done,
 * the process must end then, not at the thread's idle stop (a CLI ingest once waited 30 s for it).
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/temp.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { createTenant } from '../../../engine/operations/sandbox.ts';
import { generatePopulation } from '../../../engine/synthetic/generate.ts';
import { toNdjsonBySource } from '../../../engine/synthetic/write.ts';
import { CHUNK_LINES } from '../../../engine/ingest/ndjson.ts';

const CHECK = fileURLToPath(new URL('../../fixtures/ingest-then-linger-check.ts', import.meta.url));
const SOURCE = 'st-marys-hospital';
const TENANT = 'exit';

function registryAndFile(): { db: string; file: string; lines: number } {
  const dir = tempDir();
  const db = join(dir, 'registry.db');
  const engine = LocalEngine.open({ dbPath: db });
  createTenant(engine.env, { tenantId: TENANT, actor: 'test' });
  engine.close();
  const text = toNdjsonBySource(generatePopulation({ people: 4_000, seed: 5 })).get(SOURCE) ?? '';
  const lines = text.split('\n').filter((line) => line !== '').length;
  // Long enough for the next chunk to be prepared in the thread.
  expect(lines).toBeGreaterThan(2 * CHUNK_LINES);
  const file = join(dir, `${SOURCE}.ndjson`);
  writeFileSync(file, text);
  return { db, file, lines };
}

function runChild(args: readonly string[]): unknown {
  const run = spawnSync(process.execPath, ['--import', 'tsx', CHECK, ...args], { encoding: 'utf8', timeout: 120_000 });
  expect(run.stderr).not.toContain('still running');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout);
}

describe('an ingestion with the preparation thread ends with its work', () => {
  it('runs to the end with nothing else keeping the process alive, and leaves nothing behind', () => {
    const { db, file, lines } = registryAndFile();
    const reports = runChild(['engine', db, TENANT, SOURCE, file]) as { created: number; unchanged: number }[];
    expect(reports.map((r) => [r.created, r.unchanged])).toEqual([
      [lines, 0],
      [0, lines],
    ]);
  });

  it('lets a CLI ingest end when the file is ingested', () => {
    const { db, file, lines } = registryAndFile();
    const args = ['--db', db, '--tenant', TENANT, 'ingest', '--source', SOURCE, '--ndjson', file, '--json'];
    expect((runChild(['cli', ...args]) as { created: number }).created).toBe(lines);
  });
});
