/** `health` on the command line: a source that stops sending birth dates is flagged, each flag with what to do. */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';

describe('mpi-console health', () => {
  it('flags a shift on the latest ingest in percent, says what to do about it, and exits 1', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 'demo'];
    expect((await runCli([...db, 'sandbox', 'init', '--synthetic', '300', '--seed', '7'])).code).toBe(0);
    const steady = await runCli([...db, 'health']);
    expect(steady.code, steady.stderr).toBe(0);
    expect(steady.stdout).toContain('No drift flagged on the latest figures.');

    // New patients of one source, written without their birth dates.
    const out = join(dir, 'synthetic');
    expect((await runCli(['synthetic', 'generate', '--people', '300', '--seed', '9', '--out', out])).code).toBe(0);
    const lines = readFileSync(join(out, 'community-pharmacy.ndjson'), 'utf8').trim().split('\n');
    const withoutBirthDates = lines.map((line) => {
      const patient = JSON.parse(line) as {
        id: string;
        birthDate?: string;
        identifier: { value: string }[];
      };
      delete patient.birthDate;
      patient.id = `new-${patient.id}`;
      for (const identifier of patient.identifier) identifier.value = `NEW${identifier.value}`;
      return JSON.stringify(patient);
    });
    const file = join(dir, 'no-birth-dates.ndjson');
    writeFileSync(file, `${withoutBirthDates.join('\n')}\n`);
    expect((await runCli([...db, 'ingest', '--source', 'community-pharmacy', '--ndjson', file])).code).toBe(0);

    const health = await runCli([...db, 'health']);
    expect(health.code).toBe(1);
    expect(health.stdout).toMatch(
      /\n {2}community-pharmacy: the share of records with birth date filled in fell from \d+\.\d% to 0\.0% \(z -\d+\.\d\)\n {4}what to do: The source sends birth date on fewer records: ask it whether its extract or mapping changed/,
    );
    // Every flag carries its advice on the line after it.
    const flagged =
      health.stdout.slice(health.stdout.indexOf('Flagged:\n') + 'Flagged:\n'.length).split('\n\n')[0] ?? '';
    const flagLines = flagged.split('\n').filter((line) => /^ {2}\S/.test(line));
    const adviceLines = flagged.split('\n').filter((line) => /^ {4}what to do: \S/.test(line));
    expect(flagLines.length).toBeGreaterThan(0);
    expect(adviceLines).toHaveLength(flagLines.length);
  });
});
