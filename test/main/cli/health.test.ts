/** `health` on the command line: a source that stops sending birth dates is flagged, each flag with what to do. */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';
import { heldByCounts } from '../../helpers/held-by.ts';
import { resentPatients } from '../../helpers/resent-patients.ts';
import type { HealthSample } from '../../../engine/contract/health.ts';

/** A sandbox of 300 synthetic people (seed 7) in a new directory: the directory and the options that name it. */
async function sandbox(): Promise<{ dir: string; db: string[] }> {
  const dir = tempDir();
  const db = ['--db', join(dir, 's.db'), '--tenant', 'demo'];
  expect((await runCli([...db, 'sandbox', 'init', '--synthetic', '300', '--seed', '7'])).code).toBe(0);
  return { dir, db };
}

/** One source's records of a synthetic population of 300 people, as NDJSON lines. */
async function sourceLines(dir: string, seed: number, source: string): Promise<string[]> {
  const out = join(dir, `synthetic-${String(seed)}`);
  expect((await runCli(['synthetic', 'generate', '--people', '300', '--seed', String(seed), '--out', out])).code).toBe(
    0,
  );
  return readFileSync(join(out, `${source}.ndjson`), 'utf8')
    .trim()
    .split('\n');
}

/** Lines written as an NDJSON file in dir: its path. */
function ndjsonFile(dir: string, name: string, lines: readonly string[]): string {
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('mpi-console health', () => {
  it('flags a shift on the latest ingest in percent, says what to do about it, and exits 1', async () => {
    const { dir, db } = await sandbox();
    const steady = await runCli([...db, 'health']);
    expect(steady.code, steady.stderr).toBe(0);
    expect(steady.stdout).toContain('No drift flagged on the latest figures.');

    // New patients of one source, written without their birth dates.
    const lines = await sourceLines(dir, 9, 'community-pharmacy');
    const file = ndjsonFile(
      dir,
      'no-birth-dates.ndjson',
      resentPatients(lines, { prefix: 'new-', without: ['birthDate'] }),
    );
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

  it('says what held the review cases an ingest opened, on the ingest and in the health figures', async () => {
    const { dir, db } = await sandbox();
    // The sandbox's own people again (the GP's records), sent by the pharmacy without birth dates: only the names,
    // the addresses and the numbers tell them apart from their namesakes.
    const lines = await sourceLines(dir, 7, 'northside-gp');
    const file = ndjsonFile(
      dir,
      'walk-in.ndjson',
      resentPatients(lines, { prefix: 'walk-in-', without: ['birthDate'] }),
    );
    const ingest = await runCli([...db, 'ingest', '--source', 'community-pharmacy', '--ndjson', file]);
    expect(ingest.code, ingest.stderr).toBe(0);
    const opened = Number(/\nreview cases created +(\d+)\n/.exec(ingest.stdout)?.[1]);
    expect(opened).toBeGreaterThan(0);
    // Each count after its hold's name, most first, adding up to the cases opened.
    const heldBy = /\n {2}held by +(.+)\n/.exec(ingest.stdout)?.[1] ?? '';
    expect(heldBy).toMatch(/names only \d+/);
    const counts = heldByCounts(heldBy);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(opened);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    // The health figures' row of that ingest says the same.
    const health = await runCli([...db, 'health']);
    const row = health.stdout.split('\n').findLast((line) => line.includes('ingest community-pharmacy')) ?? '';
    expect(row).toContain(heldBy);
    // Its cases, and only its, are those of its source opened after the source's ingest before it ended.
    const samples = (JSON.parse((await runCli([...db, 'health', '--json'])).stdout) as { samples: HealthSample[] })
      .samples;
    const before = samples.filter((s) => s.origin === 'ingest' && s.sourceSystem === 'community-pharmacy').at(-2);
    if (before === undefined) throw new Error('no ingest of the pharmacy before the walk-in records');
    const source = ['reviews', '--status', 'all', '--source', 'community-pharmacy'];
    const listed = await runCli([...db, ...source, '--opened-after', before.at]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.trim().split('\n').slice(1)).toHaveLength(opened);
    const every = await runCli([...db, ...source]);
    expect(every.stdout.trim().split('\n').length - 1).toBeGreaterThan(opened);
    // A time that is not one is refused, by its option, with the form it takes.
    const wrong = await runCli([...db, ...source, '--opened-after', 'last tuesday']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('--opened-after takes a date and time in ISO 8601, such as 2026-12-07T14:02:05Z');
  });

  it("gives, under a flag on a source's review rate, the command that lists the cases its latest ingest opened", async () => {
    const { dir, db } = await sandbox();
    // Twelve of the hospital's patients sent again by the GP with their names and sex only: each held as names only.
    const lines = (await sourceLines(dir, 7, 'st-marys-hospital')).slice(0, 12);
    const file = ndjsonFile(
      dir,
      'names-only.ndjson',
      resentPatients(lines, {
        prefix: 'resent-',
        without: ['birthDate', 'telecom', 'address'],
        system: 'urn:mpi-demo:northside-gp:mrn',
      }),
    );
    const ingest = await runCli([...db, 'ingest', '--source', 'northside-gp', '--ndjson', file, '--json']);
    expect(ingest.code, ingest.stderr).toBe(0);
    const opened = (JSON.parse(ingest.stdout) as { reviewCasesCreated: number }).reviewCasesCreated;
    expect(opened).toBeGreaterThan(0);
    const health = await runCli([...db, 'health']);
    const command =
      /\n {2}northside-gp: the review cases per 1,000 records created rose .+\n {4}what to do: .+\n {4}its cases: mpi-console (.+)\n/.exec(
        health.stdout,
      )?.[1];
    expect(command).toMatch(
      /^reviews --kind IngestionMatch --source northside-gp --opened-after \d{4}-\d\d-\d\dT[\d:.]+Z --sort newest$/,
    );
    const listed = await runCli([...db, ...(command ?? '').split(' ')]);
    expect(listed.code, listed.stderr).toBe(0);
    const rows = listed.stdout.trim().split('\n').slice(1);
    expect(rows).toHaveLength(opened);
    // Newest first, each the GP's and held as names only, where the source's every case is more.
    const every = await runCli([...db, 'reviews', '--kind', 'IngestionMatch', '--source', 'northside-gp']);
    expect(every.stdout.trim().split('\n').length - 1).toBeGreaterThan(opened);
    for (const row of rows) expect(row).toMatch(/\tNamesOnly\t.*\tnorthside-gp\b/);
  });
});
