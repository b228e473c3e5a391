import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';
import { runProcessWithPeakRss } from '../../helpers/processes.ts';
import { patient } from '../../helpers/registry.ts';
import { MAX_LINE_BYTES } from '../../../engine/ingest/ndjson-lines.ts';

const LONG_LINE_MIB = 300;

describe('a very long NDJSON line', () => {
  it(`is reported by line and skipped without being held: ${String(LONG_LINE_MIB)} MiB through a pipe, peak memory below the line's size, the next line ingested`, async () => {
    const dir = tempDir();
    const db = join(dir, 's.db');
    expect((await runCli(['--db', db, '--tenant', 't', 'sandbox', 'init'])).code).toBe(0);
    // A named pipe: the line is never on disk, and the CLI reads it as it reads any file.
    const fifo = join(dir, 'in.ndjson');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // Started now, awaited once the pipe is written: the CLI reads the line as it is written.
    const run = runProcessWithPeakRss([
      '--db',
      db,
      '--tenant',
      't',
      'ingest',
      '--source',
      'st-marys-hospital',
      '--ndjson',
      fifo,
      '--json',
    ]);

    const pipe = createWriteStream(fifo);
    const write = async (data: string | Buffer): Promise<void> => {
      if (!pipe.write(data)) await once(pipe, 'drain');
    };
    await write(JSON.stringify(patient({ id: 'first' })) + '\n');
    const mib = Buffer.alloc(1024 * 1024, 'x');
    for (let i = 0; i < LONG_LINE_MIB; i++) await write(mib);
    await write(
      '\n' +
        JSON.stringify(
          patient({
            id: 'after',
            family: 'Okonkwo',
            given: ['Chidi'],
            birthDate: '1970-11-02',
            phone: '0113 496 0000',
          }),
        ) +
        '\n',
    );
    pipe.end();
    const { status, stdout, stderr, peakRssMiB } = await run;

    expect(status, stderr).toBe(1);
    const report = JSON.parse(stdout) as {
      lines: number;
      created: number;
      rejected: { line: number; issues: { path: string; message: string }[] }[];
    };
    expect(report.lines).toBe(3);
    expect(report.created).toBe(2);
    expect(report.rejected).toEqual([
      { line: 2, issues: [{ path: 'line', message: `the line exceeds ${String(MAX_LINE_BYTES)} bytes` }] },
    ]);
    // Holding the line would take more than its own size (776 MiB before the reader was bounded); the whole
    // process, with Node, tsx and SQLite loaded, stays below the size of the line alone (about 175 MiB here).
    expect(peakRssMiB).toBeLessThan(LONG_LINE_MIB);
  }, 600_000);
});
