import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';
import { table } from '../../../main/cli/format.ts';

describe('the text report of rejected lines', () => {
  it('aligns a table of any length (no argument spreading)', () => {
    const rows = Array.from({ length: 300_000 }, (_, i) => [
      String(i + 1),
      'line',
      i === 123_456 ? 'the widest problem of all' : 'not valid JSON',
    ]);
    const out = table(['line', 'field', 'problem'], rows).split('\n');
    expect(out).toHaveLength(300_003);
    expect(out[1]).toBe(`${'-'.repeat(6)}  -----  ${'-'.repeat(25)}`);
    expect(out[2]).toBe('1       line   not valid JSON');
  });

  it('lists all 200,001 rejected lines of a file in the text report', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 't'];
    expect((await runCli([...db, 'sandbox', 'init'])).code).toBe(0);
    const file = join(dir, 'bad.ndjson');
    writeFileSync(file, 'x\n'.repeat(200_001));
    const run = await runCli([...db, 'ingest', '--source', 'st-marys-hospital', '--ndjson', file]);
    expect(run.code, run.stderr).toBe(1);
    const rows = run.stdout.split('\n').filter((l) => /^\d+\s+line\s+not valid JSON$/.test(l));
    expect(rows).toHaveLength(200_001);
    expect(rows.at(-1)).toMatch(/^200001\s/);
  });
});
