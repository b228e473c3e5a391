/**
 * A CLI ingest of a file longer than a chunk uses the preparation thread; when the command is done, the process
 * must end then, not when the thread's idle stop comes (it once waited 30 s for it).
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

const CHECK = fileURLToPath(new URL('../../fixtures/cli-then-linger-check.ts', import.meta.url));
const SOURCE = 'st-marys-hospital';

describe('a CLI ingest ends with its work', () => {
  it('leaves nothing behind that keeps the process alive once the file is ingested', () => {
    const dir = tempDir();
    const db = join(dir, 'registry.db');
    const engine = LocalEngine.open({ dbPath: db });
    createTenant(engine.env, { tenantId: 'exit', actor: 'test' });
    engine.close();
    const text = toNdjsonBySource(generatePopulation({ people: 4_000, seed: 5 })).get(SOURCE) ?? '';
    const lines = text.split('\n').filter((line) => line !== '').length;
    // Long enough for the next chunk to be prepared in the thread.
    expect(lines).toBeGreaterThan(2 * CHUNK_LINES);
    const file = join(dir, `${SOURCE}.ndjson`);
    writeFileSync(file, text);
    const args = ['--db', db, '--tenant', 'exit', 'ingest', '--source', SOURCE, '--ndjson', file, '--json'];
    const run = spawnSync(process.execPath, ['--import', 'tsx', CHECK, ...args], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.stderr).not.toContain('still running');
    expect(run.status).toBe(0);
    expect((JSON.parse(run.stdout) as { created: number }).created).toBe(lines);
  });
});
