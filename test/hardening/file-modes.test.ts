/**
 * Files that hold patient data or secrets are created readable by their owner only, whatever the umask
 * (issue 7, item 11): the database and its WAL and shared-memory files, label files, model files and every
 * other `--out` output. A configuration file that group or others can read is used with one warning on
 * stderr that names the file and never shows its contents.
 */
import { chmodSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../engine/local-engine.ts';
import { tempDir } from '../helpers/temp.ts';
import { runCli } from '../helpers/cli.ts';
import { runProcess } from '../helpers/processes.ts';

const mode = (path: string): number => statSync(path).mode & 0o777;

let saved: number;
beforeEach(() => {
  // The commonest umask, under which files are created world-readable unless the program says otherwise.
  saved = process.umask(0o022);
});
afterEach(() => {
  process.umask(saved);
});

describe('patient-data files are created 0600', () => {
  it('the database, its -wal and -shm files and the configuration file', async () => {
    const dir = tempDir();
    const db = join(dir, 'registry.db');
    const engine = LocalEngine.open({ dbPath: db });
    try {
      await engine.call('sandbox/create', { syntheticPeople: 20 }, { tenantId: 'modes', actor: 'test' });
      for (const file of [db, `${db}-wal`, `${db}-shm`, join(dir, 'registry.config.json')])
        expect(mode(file), file).toBe(0o600);
    } finally {
      engine.close();
    }
  });

  it('labels, models and synthetic output written with --out, also under umask 000', async () => {
    process.umask(0);
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 'modes'];
    expect((await runCli([...db, 'sandbox', 'init', '--synthetic', '150', '--seed', '3'])).code).toBe(0);
    const labels = join(dir, 'labels.tsv');
    const sample = await runCli([...db, 'labels', 'sample', '--out', labels]);
    expect(sample.code, sample.stderr).toBe(0);
    expect(mode(labels)).toBe(0o600);
    const model = join(dir, 'model.json');
    const calibrate = await runCli([
      ...db,
      ...[
        'calibrate',
        '--labels',
        labels,
        '--dataset',
        'modes',
        '--model-version',
        'm1',
        '--prior',
        '0.2',
        '--smoothing',
        '1',
      ],
      ...['--validation-fraction', '0.3', '--target-precision', '0.9', '--out', model],
    ]);
    expect(calibrate.code, calibrate.stderr).toBe(0);
    expect(mode(model)).toBe(0o600);
    const out = join(dir, 'synthetic');
    expect((await runCli(['synthetic', 'generate', '--people', '20', '--seed', '2', '--out', out])).code).toBe(0);
    const files = readdirSync(out);
    expect(files.length).toBeGreaterThan(4);
    for (const file of files) expect(mode(join(out, file)), file).toBe(0o600);
  });
});

describe('an open configuration file', () => {
  it('is used with one warning naming the file, without its contents', async () => {
    const dir = tempDir();
    const db = join(dir, 'open.db');
    const config = join(dir, 'open.config.json');
    expect((await runProcess(['--db', db, '--tenant', 'acme', 'sandbox', 'init'])).status).toBe(0);
    chmodSync(config, 0o644);
    const secret = (JSON.parse(readFileSync(config, 'utf8')) as { BlockingKeys: { acme: { k1: string } } }).BlockingKeys
      .acme.k1;
    // explain reads the configuration file twice in one process (profile and keys): still one warning.
    const run = await runProcess(['--db', db, '--tenant', 'acme', 'blocking-key', 'list']);
    expect(run.status, run.stderr).toBe(0);
    const warnings = run.stderr.split('\n').filter((line) => line.includes('warning'));
    expect(warnings).toEqual([
      `mpi-console: warning: the configuration file ${config} can be read by group or others (mode 0644); it holds blocking secrets: chmod 600 it`,
    ]);
    expect(run.stderr).not.toContain(secret);
    chmodSync(config, 0o600);
    expect((await runProcess(['--db', db, '--tenant', 'acme', 'blocking-key', 'list'])).stderr).toBe('');
  });
});
