/**
 * The command line on a PostgreSQL registry (a fresh database in the run's throwaway cluster): the same commands as
 * on a SQLite sandbox, with --database URL and --config FILE. The same work gives the same registry on both stores
 * (records, identities, links, tags, review cases, receipts, audit), a job queued through one command runs under
 * `worker --once` and reads back through `job show`, and a URL's password never appears in what is written.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../../helpers/cli.ts';
import { dumpRegistry } from '../../helpers/registry-dump.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';
import { tempDir } from '../../helpers/temp.ts';

const TENANT = 'demo';

describe('the command line on a PostgreSQL registry', () => {
  it('builds the same registry as on SQLite from the same synthetic people', async () => {
    const dir = tempDir();
    const url = await freshDatabase();
    const onPg = ['--database', url, '--config', join(dir, 'pg.config.json')];
    const onSqlite = ['--db', join(dir, 'sandbox.db')];
    for (const where of [onPg, onSqlite]) {
      const init = await runCli(['sandbox', 'init', '--synthetic', '120', '--seed', '5', ...where]);
      expect(init.stderr).toBe('');
      expect(init.code).toBe(0);
    }
    // A configuration change's ID is random (audit detail `changeId`); it is masked on both sides.
    const masked = (dump: Record<string, unknown[]>): Record<string, unknown[]> => ({
      ...dump,
      audit: (dump.audit ?? []).map((row) =>
        String(row).replace(/(changeId[^0-9a-f]*)[0-9a-f]{8}-[0-9a-f-]{27}/g, '$1…'),
      ),
    });
    const pg = masked(dumpRegistry(url, TENANT));
    expect(pg.records?.length).toBeGreaterThan(200);
    expect(pg.reviews?.length).toBeGreaterThan(0);
    // The blocking secrets were drawn per configuration file, so the tags differ; everything else is equal.
    const { tags: pgTags, ...pgRest } = pg;
    const { tags: sqliteTags, ...sqliteRest } = masked(dumpRegistry(join(dir, 'sandbox.db'), TENANT));
    expect(pgRest.audit?.some((row) => String(row).includes('changeId'))).toBe(true);
    expect(pgTags?.length).toBe(sqliteTags?.length);
    expect(pgRest).toEqual(sqliteRest);
    // The configuration stays a file beside, never in the database.
    expect(existsSync(join(dir, 'pg.config.json'))).toBe(true);
  });

  it('answers every kind of command as on SQLite', { timeout: 240_000 }, async () => {
    const dir = tempDir();
    const pg = ['--database', await freshDatabase(), '--config', join(dir, 'pg.config.json')];
    const sqlite = ['--db', join(dir, 'sandbox.db')];
    for (const where of [pg, sqlite])
      expect((await runCli(['sandbox', 'init', '--synthetic', '150', '--seed', '6', ...where])).code).toBe(0);
    const both = async (args: readonly string[]): Promise<[CliRun, CliRun]> => [
      await runCli([...args, ...pg]),
      await runCli([...args, ...sqlite]),
    ];
    /** Output with its times and random IDs masked. */
    const masked = (text: string): string =>
      text
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');
    /** The same exit code and output on both stores (times and random IDs masked); the exit code is `code`. */
    const same = async (args: readonly string[], code = 0): Promise<string> => {
      const [onPg, onSqlite] = await both(args);
      expect({ args, code: onPg.code, stderr: onPg.stderr }).toEqual({ args, code, stderr: onSqlite.stderr });
      expect(masked(onPg.stdout), args.join(' ')).toBe(masked(onSqlite.stdout));
      return onPg.stdout;
    };
    /** The same exit code and the same number of output lines (the output names random enterprise IDs). */
    const alike = async (args: readonly string[], code = 0): Promise<string> => {
      const [onPg, onSqlite] = await both(args);
      expect({ args, code: onPg.code, lines: onPg.stdout.split('\n').length }).toEqual({
        args,
        code,
        lines: onSqlite.stdout.split('\n').length,
      });
      return onPg.stdout;
    };
    const profile = JSON.parse(await same(['profile', 'show', '--json'])) as {
      profile: { SourceTrust: unknown[] };
    };
    const reversed = join(dir, 'reversed.json');
    writeFileSync(reversed, JSON.stringify({ SourceTrust: [...profile.profile.SourceTrust].reverse() }));
    await same(['profile', 'apply', reversed, '--preview', '--json']);
    await same(['profile', 'apply', reversed, '--reason', 'reverse trust', '--json']);
    await same(['profile', 'rollback', '--reason', 'back again', '--json']);
    const identities = await alike(['identities']);
    const [first, second] = identities
      .split('\n')
      .slice(1, 3)
      .map((line) => line.split('\t').slice(0, 2).join('/'));
    await same(['explain', '--left', first ?? '', '--right', second ?? '', '--json']);
    const enterpriseId = identities.split('\n')[1]?.split('\t')[2] ?? '';
    expect((await runCli(['identity', 'show', enterpriseId, '--history', ...pg])).code).toBe(0);
    // The canonical record is read from PostgreSQL's identity row as from SQLite's.
    expect((await runCli(['identity', 'show', enterpriseId, '--values', ...pg])).stdout).toMatch(
      /\nfamilyName +\S.* +\S+\/\S+\n/,
    );
    await alike(['reviews', '--status', 'all']);
    await alike(['link-quality', 'scan', '--json']);
    await alike(['audit', 'sample', '--out', join(dir, 'audit.json'), '--labels', '40', '--json']);
    await alike(['health', '--json'], (await runCli(['health', '--json', ...sqlite])).code);
    await same(['labels', 'sample', '--max-pairs', '200', '--json']);
    await alike(['sources', 'list']);
    await alike(['blocking-key', 'list']);
    await same(['estimate', '--model-version', 'cli-pg', '--json']);
    const more = join(dir, 'more');
    expect((await runCli(['synthetic', 'generate', '--people', '20', '--seed', '9', '--out', more])).code).toBe(0);
    await same(['ingest', '--source', 'riverside-clinic', '--ndjson', join(more, 'riverside-clinic.ndjson'), '--json']);
    await alike(['blocking-key', 'add', 'next-key', '--json']);
    await alike(['blocking-key', 'remove', 'next-key', '--json']);
  });

  it('queues a job, runs it with worker --once and shows it, with --database or with Api.Database in the file', async () => {
    const dir = tempDir();
    const url = await freshDatabase();
    const config = join(dir, 'registry.config.json');
    expect((await runCli(['sandbox', 'init', '--synthetic', '60', '--database', url, '--config', config])).code).toBe(
      0,
    );
    const queued = await runCli([
      'reconcile',
      '--reason',
      'nightly check',
      '--database',
      url,
      '--config',
      config,
      '--json',
    ]);
    expect(queued.code).toBe(0);
    const jobId = (JSON.parse(queued.stdout) as { jobId: string }).jobId;
    expect((await runCli(['worker', '--once', '--database', url, '--config', config])).code).toBe(0);
    // The configuration file names the registry: no --database needed.
    const { readFileSync } = await import('node:fs');
    const settings = JSON.parse(readFileSync(config, 'utf8')) as { Api?: Record<string, unknown> };
    writeFileSync(config, JSON.stringify({ ...settings, Api: { ...settings.Api, Database: url } }), { mode: 0o600 });
    const shown = await runCli(['job', 'show', jobId, '--config', config, '--json']);
    expect(shown.stderr).toBe('');
    const job = JSON.parse(shown.stdout) as { status: string; counters: { scanned: number } };
    expect(job.status).toBe('completed');
    expect(job.counters.scanned).toBeGreaterThan(0);
  });

  it('says what is missing, and never shows a password', async () => {
    const noConfig = await runCli(['reviews', '--database', 'postgres://mpi_app@127.0.0.1:1/none']);
    expect(noConfig.code).toBe(2);
    expect(noConfig.stderr).toMatch(/needs --config FILE/);
    const both = await runCli(['reviews', '--db', 'x.db', '--database', 'postgres://a@127.0.0.1:1/b']);
    expect(both.stderr).toMatch(/not both/);
    const notUrl = await runCli(['reviews', '--database', 'registry.db']);
    expect(notUrl.stderr).toMatch(/takes a PostgreSQL URL/);
    const dir = tempDir();
    const unreachable = await runCli([
      'reviews',
      '--database',
      'postgres://mpi_app:s3cret-word@127.0.0.1:1/none',
      '--config',
      join(dir, 'c.json'),
    ]);
    expect(unreachable.code).not.toBe(0);
    expect(unreachable.stderr).toMatch(/cannot connect to the PostgreSQL registry/);
    expect(unreachable.stderr + unreachable.stdout).not.toContain('s3cret-word');
  });
});
