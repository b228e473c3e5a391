/**
 * `ingest --expected-records N`: an analyst loading a new registry from several sources' files says the size the
 * registry will reach, and every file's pairs are judged at it (engine/ingest/load-size.ts), as the file's last
 * records will be. The pair is registry-prior.test.ts's namesakes of one given name and birth date, linked in a
 * registry of a few hundred records and sent to review in one of a million.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type IngestReport } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/temp.ts';
import { namesakes } from '../../helpers/load-size.ts';

const SOURCE = 'st-marys-hospital';
const MRN = `urn:mpi-demo:${SOURCE}:mrn`;

const PAIR = namesakes((index) => ({
  id: `X${String(index)}`,
  identifier: [{ system: MRN, value: `X${String(index)}` }],
}));

async function ingestPair(
  expected: readonly string[],
  through: 'file' | 'pipe' = 'file',
): Promise<{ report: IngestReport; identities: number }> {
  const dir = tempDir();
  const args = ['--db', join(dir, 'registry.db'), '--tenant', 't'];
  expect((await runCli([...args, 'sandbox', 'init', '--synthetic', '300', '--seed', '4'])).code).toBe(0);
  const file = join(dir, 'pair.ndjson');
  const text = PAIR.map((p) => JSON.stringify(p)).join('\n');
  if (through === 'file') writeFileSync(file, text);
  else expect(spawnSync('mkfifo', [file]).status).toBe(0);
  const running = runCli([...args, 'ingest', '--source', SOURCE, '--ndjson', file, ...expected, '--json']);
  // A named pipe is read once, as it is written: the CLI must not read it for its lines first.
  if (through === 'pipe') await writeFile(file, text);
  const run = await running;
  expect(run.code, run.stderr).toBe(0);
  const rows = (await runCli([...args, 'identities'])).stdout.split('\n').filter((line) => /\tX[12]\t/.test(line));
  return {
    report: JSON.parse(run.stdout) as IngestReport,
    identities: new Set(rows.map((r) => r.split('\t')[2])).size,
  };
}

describe('ingest --expected-records', () => {
  it('judges the file at the size the registry will reach: a review case where the sandbox as it stands links', async () => {
    const now = await ingestPair([]);
    expect(now.identities).toBe(1);
    expect(now.report).toMatchObject({ created: 2, autoLinked: 1, reviewCasesCreated: 0 });

    const million = await ingestPair(['--expected-records', '1000000']);
    expect(million.identities).toBe(2);
    expect(million.report).toMatchObject({ created: 2, autoLinked: 0, reviewCasesCreated: 1 });
  });

  it('reads a named pipe once: its records ingested, judged at --expected-records or at the registry as counted', async () => {
    const now = await ingestPair([], 'pipe');
    expect(now.identities).toBe(1);
    expect(now.report).toMatchObject({ created: 2, autoLinked: 1, reviewCasesCreated: 0 });
    const million = await ingestPair(['--expected-records', '1000000'], 'pipe');
    expect(million.identities).toBe(2);
    expect(million.report).toMatchObject({ created: 2, autoLinked: 0, reviewCasesCreated: 1 });
  });

  it('refuses a size that is not a whole number of records, naming the option', async () => {
    const dir = tempDir();
    const file = join(dir, 'pair.ndjson');
    writeFileSync(file, JSON.stringify(PAIR[0]));
    for (const value of ['0', '1.5', 'many', '-3']) {
      const run = await runCli([
        '--db',
        join(dir, 'registry.db'),
        'ingest',
        '--source',
        SOURCE,
        '--ndjson',
        file,
        `--expected-records=${value}`,
      ]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /^mpi-console: --expected-records must be a (whole number of records, 1 or more|number)\n/,
      );
    }
  });
});
