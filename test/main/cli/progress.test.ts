/**
 * A long CLI command's progress (main/cli/progress.ts): the pace text, and the real `mpi-console` on a real terminal
 * (a pseudo-terminal from util-linux's `script`) against the same command with its output piped.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';
import { paceText, TerminalProgress } from '../../../main/cli/progress.ts';
import { SYNTHETIC_SOURCES } from '../../../engine/synthetic/generate.ts';

const BIN = fileURLToPath(new URL('../../../main/cli/bin.js', import.meta.url));
const SOURCE = SYNTHETIC_SOURCES[0]?.sourceSystem ?? '';
const CLEAR = '\r\u001b[2K';

/** The command on a pseudo-terminal: everything it wrote there, standard output and error as one stream. */
function onTerminal(args: readonly string[]): { code: number | null; screen: string } {
  const command = [process.execPath, BIN, ...args].map((arg) => `'${arg}'`).join(' ');
  const run = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', timeout: 120_000 });
  return { code: run.status, screen: run.stdout };
}

describe('paceText', () => {
  it('counts, then gives the pace after a second and the time left after three', () => {
    expect(paceText({ done: 1024, total: 6585, unit: 'records', elapsedMs: 400 })).toBe('1,024 of 6,585 records');
    expect(paceText({ done: 3072, total: 6585, unit: 'records', elapsedMs: 1500 })).toBe(
      '3,072 of 6,585 records, 2,048 a second',
    );
    // 45,000 of 220,000 in 20 s: 175,000 left at 2,250 a second.
    expect(paceText({ done: 45_000, total: 220_000, unit: 'records', elapsedMs: 20_000 })).toBe(
      '45,000 of 220,000 records, 2,250 a second, about 1 min 18 s left',
    );
  });

  it('takes the share of a file read when the lines in all are not known', () => {
    expect(paceText({ done: 123_456, unit: 'lines', share: { of: 'the file', value: 0.25 }, elapsedMs: 60_000 })).toBe(
      '123,456 lines (25.0% of the file), 2,058 a second, about 3 min 0 s left',
    );
    expect(paceText({ done: 10, unit: 'lines', elapsedMs: 60_000 })).toBe('10 lines, 0 a second');
  });

  it('says no time left at the start or the end', () => {
    expect(paceText({ done: 0, total: 100, unit: 'records', elapsedMs: 5000 })).toBe('0 of 100 records');
    expect(paceText({ done: 100, total: 100, unit: 'records', elapsedMs: 5000 })).toBe(
      '100 of 100 records, 20 a second',
    );
  });
});

describe('TerminalProgress', () => {
  it('rewrites one line at most every tenth of a second but for a new phase, clears it at the end, and writes nothing off a terminal', () => {
    const written: string[] = [];
    const line = new TerminalProgress({ isTTY: true, write: (text: string) => written.push(text) });
    line.show('scoring 1 of 9');
    line.show('scoring 2 of 9'); // within a tenth of a second of the first: skipped
    line.show('fitting', true); // a new phase: written at once
    line.end();
    expect(written).toEqual([`${CLEAR}scoring 1 of 9`, `${CLEAR}fitting`, CLEAR]);
    const piped: string[] = [];
    const off = new TerminalProgress({ isTTY: false, write: (text: string) => piped.push(text) });
    off.show('scoring 1 of 9', true);
    off.end();
    expect(piped).toEqual([]);
  });
});

describe('progress of a long command', () => {
  it('shows on a terminal how far an ingest and a sandbox load are, clears it before the report, and stays out of a pipe', async () => {
    const dir = tempDir();
    const out = join(dir, 'synthetic');
    expect((await runCli(['synthetic', 'generate', '--people', '4000', '--seed', '3', '--out', out])).code).toBe(0);
    const db = ['--db', join(dir, 'registry.db'), '--tenant', 't'];
    expect((await runCli([...db, 'sandbox', 'init'])).code).toBe(0);
    const file = join(out, `${SOURCE}.ndjson`);

    const ingest = onTerminal([...db, 'ingest', '--source', SOURCE, '--ndjson', file]);
    expect(ingest.code).toBe(0);
    // Chunk after chunk of 1,024 lines, each rewriting the one line with the share of the file read.
    const shown = [...ingest.screen.matchAll(/Ingesting from [a-z-]+: ([\d,]+) lines \((\d+\.\d)% of the file\)/g)];
    expect(shown.length).toBeGreaterThanOrEqual(2);
    expect(Number(shown[0]?.[1]?.replace(',', ''))).toBeLessThan(Number(shown.at(-1)?.[1]?.replace(',', '')));
    expect(Number(shown[0]?.[2])).toBeLessThan(100);
    expect(shown.at(-1)?.[2]).toBe('100.0');
    // The line is cleared, and the report follows on a clean line.
    expect(ingest.screen.slice(ingest.screen.lastIndexOf(CLEAR) + CLEAR.length)).toMatch(
      new RegExp(`^source system +${SOURCE}\r?\n`),
    );

    // The same command piped: the report alone (these lines are replays now), no progress on standard error.
    const piped = spawnSync(process.execPath, [BIN, ...db, 'ingest', '--source', SOURCE, '--ndjson', file], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(piped.status).toBe(0);
    expect(piped.stdout).toMatch(/\nunchanged \(replays\) +2\d{3}\n/);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).not.toContain('\u001b');

    const load = onTerminal([
      '--db',
      join(dir, 'sandbox.db'),
      '--tenant',
      's',
      'sandbox',
      'init',
      '--synthetic',
      '1500',
    ]);
    expect(load.code).toBe(0);
    expect(load.screen).toContain(`${CLEAR}Generating 1,500 synthetic people${CLEAR}Ingesting them: 0 of `);
    expect(load.screen).toMatch(/Ingesting them: 1,024 of 3,\d{3} records/);
    expect(load.screen.slice(load.screen.lastIndexOf(CLEAR) + CLEAR.length)).toMatch(/^Sandbox tenant "s" created in /);
  });
});
