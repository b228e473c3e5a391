/**
 * Paths and messages on the command line (issue 7, item 21): read commands never create a database; an
 * in-memory database leaves no file behind; a missing directory, a file that is not a database and a
 * directory given as a database or as an input file are named in the message; `--out` never follows a
 * symbolic link, says when it replaces a file, and never replaces a file the command uses (its database, its
 * configuration, an input) nor a label file a person has started filling; a bad `--status` is a usage error; label errors name the
 * line of the TSV file.
 */
import { existsSync, linkSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.ts';
import { runCli } from '../helpers/cli.ts';
import { runProcess } from '../helpers/processes.ts';

function expectNamed(run: { code: number; stderr: string }, path: string, code: number): void {
  expect(run.code, run.stderr).toBe(code);
  expect(run.stderr).toContain(path);
  expect(run.stderr).not.toMatch(/unexpected failure|internal error|TypeError|SqliteError/);
}

describe('read commands on a database that does not exist', () => {
  it('say there is no sandbox there and create nothing', async () => {
    const dir = tempDir();
    const db = join(dir, 'typo.db');
    const file = join(dir, 'doc.json');
    writeFileSync(file, '{}');
    const commands = [
      ['identities'],
      ['reviews'],
      ['jobs'],
      ['job', 'show', 'job-00000000'],
      ['job', 'cancel', 'job-00000000'],
      ['profile', 'show'],
      ['profile', 'validate', file],
      ['profile', 'apply', file],
      ['profile', 'rollback'],
      ['explain', '--left', 'a/1', '--right', 'b/2'],
      ['compare', '--comparator', 'Exact', 'a', 'b'],
      ['labels', 'sample'],
      ['blocking-key', 'list'],
      ['blocking-key', 'add', 'k2'],
      ['reindex', '--reason', 'r'],
      ['worker', '--once'],
    ];
    for (const args of commands) {
      const run = await runCli(['--db', db, ...args]);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr, args.join(' ')).toContain(
        `no sandbox at ${db}; create one with \`mpi-console sandbox init --db ${db}\``,
      );
    }
    expect(readdirSync(dir)).toEqual(['doc.json']);
  });
});

describe('an in-memory database', () => {
  it('runs and leaves no file in the working directory', async () => {
    const dir = tempDir();
    const run = await runProcess(['--db', ':memory:', '--tenant', 'mem', 'sandbox', 'init', '--synthetic', '10'], {
      cwd: dir,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('bad paths', () => {
  it('name the path: a missing directory, a non-database file, a directory, an empty path', async () => {
    const dir = tempDir();
    const missing = join(dir, 'no', 'such', 'dir', 'x.db');
    expectNamed(await runCli(['--db', missing, 'sandbox', 'init']), join(dir, 'no', 'such', 'dir'), 1);
    const text = join(dir, 'notes.db');
    writeFileSync(
      text,
      'these are not database pages, just some text that is long enough to have a header\n'.repeat(20),
    );
    for (const args of [['sandbox', 'init'], ['identities']]) {
      const run = await runCli(['--db', text, ...args]);
      expectNamed(run, text, 1);
      expect(run.stderr).toMatch(/is not a SQLite database/);
    }
    expect(readFileSync(text, 'utf8')).toMatch(/^these are not database pages/);
    const folder = join(dir, 'folder.db');
    mkdirSync(folder);
    expectNamed(await runCli(['--db', folder, 'sandbox', 'init']), folder, 1);
    expect((await runCli(['--db', '', 'identities'])).code).toBe(2);
    const config = join(dir, 'no-config-dir', 'x.config.json');
    expectNamed(
      await runCli(['--db', join(dir, 'ok.db'), '--config', config, 'sandbox', 'init']),
      join(dir, 'no-config-dir'),
      1,
    );
    expect(existsSync(join(dir, 'ok.db'))).toBe(false);
  });

  it('name the path of an input file that is a directory or missing', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 'paths'];
    expect((await runCli([...db, 'sandbox', 'init', '--synthetic', '30'])).code).toBe(0);
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    for (const args of [
      ['ingest', '--source', 'st-marys-hospital', '--ndjson', folder],
      ['profile', 'validate', folder],
      ['evaluate', '--labels', folder, '--dataset', 'd', '--thresholds', '0.5'],
    ]) {
      const run = await runCli([...db, ...args]);
      expectNamed(run, folder, 2);
      expect(run.stderr).toMatch(/is a directory/);
    }
    expectNamed(
      await runCli([...db, 'ingest', '--source', 'st-marys-hospital', '--ndjson', join(folder, 'none.ndjson')]),
      join(folder, 'none.ndjson'),
      2,
    );
  });
});

describe('--out', () => {
  it('refuses to follow a symbolic link, and says when it replaces a file', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 'out'];
    expect((await runCli([...db, 'sandbox', 'init', '--synthetic', '60'])).code).toBe(0);
    const target = join(dir, 'precious.txt');
    writeFileSync(target, 'keep me\n');
    const link = join(dir, 'labels.tsv');
    symlinkSync(target, link);
    const refused = await runCli([...db, 'labels', 'sample', '--out', link]);
    expectNamed(refused, link, 2);
    expect(refused.stderr).toMatch(/symbolic link/);
    expect(readFileSync(target, 'utf8')).toBe('keep me\n');

    const plain = join(dir, 'plain.tsv');
    writeFileSync(plain, 'old\n');
    const replaced = await runCli([...db, 'labels', 'sample', '--out', plain]);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stdout).toMatch(/replacing the file that was there/);
    expect(readFileSync(plain, 'utf8')).not.toBe('old\n');
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
    expect(existsSync(target)).toBe(true);
    const nowhere = join(dir, 'missing', 'labels.tsv');
    expectNamed(await runCli([...db, 'labels', 'sample', '--out', nowhere]), join(dir, 'missing'), 2);
  });

  it('never replaces the database, its configuration or an input the command uses, however the path is spelled', async () => {
    const dir = tempDir();
    const dbPath = join(dir, 's.db');
    const db = ['--db', dbPath, '--tenant', 'out'];
    expect((await runCli([...db, 'sandbox', 'init', '--synthetic', '60'])).code).toBe(0);
    const labels = join(dir, 'labels.tsv');
    expect((await runCli([...db, 'labels', 'sample', '--out', labels])).code).toBe(0);
    const kept = (): string[] =>
      [dbPath, join(dir, 's.config.json'), labels].map((path) => readFileSync(path).toString('base64'));
    const before = kept();
    // The same file under another name: a hard link.
    const alias = join(dir, 'alias.db');
    linkSync(dbPath, alias);
    const calibrate = [
      ...['calibrate', '--labels', labels, '--dataset', 'd', '--model-version', 'v', '--prior', '0.3'],
      ...['--smoothing', '1', '--validation-fraction', '0.3', '--target-precision', '0.9'],
    ];
    for (const [args, out, what] of [
      [calibrate, dbPath, 'the database this command uses'],
      [calibrate, relative(process.cwd(), dbPath), 'the database this command uses'],
      [calibrate, alias, 'the database this command uses'],
      [calibrate, join(dir, 's.config.json'), 'the configuration this command uses'],
      [calibrate, labels, 'the --labels file this command reads'],
      [['estimate', '--model-version', 'v'], dbPath, 'the database this command uses'],
      [['labels', 'sample'], join(dir, 's.config.json'), 'the configuration this command uses'],
      [['reviews', 'labels'], dbPath, 'the database this command uses'],
      [['audit', 'sample'], join(dir, 's.config.json'), 'the configuration this command uses'],
    ] as const) {
      const run = await runCli([...db, ...args, '--out', out]);
      expectNamed(run, out, 2);
      expect(run.stderr).toContain(what);
    }
    expect(kept()).toEqual(before);
    expect((await runCli([...db, 'identities'])).code).toBe(0);
  });

  it('synthetic generate names each file it replaces in the folder', async () => {
    const dir = join(tempDir(), 'synthetic');
    const generate = ['synthetic', 'generate', '--people', '20', '--seed', '2', '--out', dir];
    const first = await runCli(generate);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).not.toMatch(/replacing/);
    writeFileSync(join(dir, 'labels.tsv'), "a person's edits\n");
    const second = await runCli([...generate, '--json']);
    const answer = JSON.parse(second.stdout) as { files: string[]; replaced: string[] };
    expect(answer.replaced).toEqual(answer.files);
    const text = await runCli(generate);
    expect(text.stdout).toContain(`${join(dir, 'labels.tsv')} (replacing the file that was there)`);
  });

  it('audit sample keeps a label file a person has started filling, and writes neither file', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 'out'];
    expect((await runCli([...db, 'sandbox', 'init', '--synthetic', '300'])).code).toBe(0);
    const sample = join(dir, 'audit.json');
    const first = await runCli([...db, 'audit', 'sample', '--out', sample, '--labels', '40']);
    expect(first.code, first.stderr).toBe(0);
    // Unlabelled, the files are replaced by a new sample.
    expect((await runCli([...db, 'audit', 'sample', '--out', sample, '--labels', '40', '--seed', '2'])).code).toBe(0);
    const tsv = join(dir, 'audit.tsv');
    const lines = readFileSync(tsv, 'utf8').split('\n');
    lines[1] = `${lines[1] ?? ''}match`;
    lines[2] = `${lines[2] ?? ''}non-match`;
    writeFileSync(tsv, lines.join('\n'));
    const files = (): string[] => [sample, tsv].map((path) => readFileSync(path, 'utf8'));
    const before = files();
    const again = await runCli([...db, 'audit', 'sample', '--out', sample, '--labels', '40', '--seed', '3']);
    expectNamed(again, tsv, 2);
    expect(again.stderr).toContain('already holds 2 labels; a new sample would replace them');
    expect(files()).toEqual(before);
  });
});

describe('usage and label messages', () => {
  it('reviews --status bogus is a usage error', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db')];
    expect((await runCli([...db, 'sandbox', 'init'])).code).toBe(0);
    const run = await runCli([...db, 'reviews', '--status', 'bogus']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--status is one of open, resolved, dismissed, all/);
  });

  it('label errors from the command line name the TSV line, never pairs[i]', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 'lines'];
    expect((await runCli([...db, 'sandbox', 'init', '--synthetic', '60'])).code).toBe(0);
    const labels = join(dir, 'labels.tsv');
    expect((await runCli([...db, 'labels', 'sample', '--out', labels])).code).toBe(0);
    const lines = readFileSync(labels, 'utf8').trimEnd().split('\n');
    const cells = (lines[3] ?? '').split('\t');
    cells[1] = 'X'.repeat(300);
    lines[3] = cells.join('\t');
    writeFileSync(labels, ['leftSource\tleftLocalId\trightSource\trightLocalId\tisMatch', ...lines].join('\n') + '\n');
    const run = await runCli([...db, 'evaluate', '--labels', labels, '--dataset', 'd', '--thresholds', '0.5']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/line 5: column leftLocalId: /);
    expect(run.stderr).not.toMatch(/pairs\[/);
    expect(run.stderr).not.toContain('XXXXXXXX');
  });
});
