/**
 * The whole record list (eachRecordIdentity, engine/operations/lists.ts), which `mpi-console identities` writes out:
 * page after page from one snapshot, on both stores, it gives every record once, in the order `identities/list`
 * gives, whatever the page size; another tenant's records never; and the CLI writes exactly what one `identities/list`
 * page of everything writes, as TSV and as JSON.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { join } from 'node:path';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { eachRecordIdentity } from '../../../engine/operations/lists.ts';
import type { IdentityListRow } from '../../../engine/store/identities.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';
import { scratchDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';
import { TENANT, configOf, makeSandbox, registryArgs } from '../jobs/helpers.ts';

async function sandbox(postgres: boolean): Promise<{ engine: LocalEngine; dbPath: string }> {
  const { dir, cleanup } = scratchDir();
  onTestFinished(cleanup);
  const dbPath = await makeSandbox(dir, 'list', 140, 3, postgres ? await freshDatabase() : undefined);
  const engine = LocalEngine.open({ dbPath, settingsPath: configOf(dbPath) });
  onTestFinished(() => {
    engine.close();
  });
  return { engine, dbPath };
}

function pages(engine: LocalEngine, tenantId: string, size: number): { total: number; pages: IdentityListRow[][] } {
  let total = -1;
  const seen: IdentityListRow[][] = [];
  eachRecordIdentity(
    engine.env,
    { tenantId, actor: 'test' },
    (n) => (total = n),
    (rows) => seen.push([...rows]),
    size,
  );
  return { total, pages: seen };
}

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('the whole record list on %s', (_, postgres) => {
  it('gives every record once, in the list order, page by page at any page size', async () => {
    const { engine, dbPath } = await sandbox(postgres);
    const ctx = { tenantId: TENANT, actor: 'test' };
    const whole = await engine.call('identities/list', { limit: 1_000_000 }, ctx);
    expect(whole.rows.length).toBeGreaterThan(250);
    for (const size of [1, 7, whole.rows.length, whole.rows.length + 1]) {
      const read = pages(engine, TENANT, size);
      expect(read.total).toBe(whole.total);
      expect(read.pages.flat()).toEqual(whole.rows);
      expect(read.pages.every((page) => page.length >= 1 && page.length <= size)).toBe(true);
      expect(read.pages).toHaveLength(Math.ceil(whole.rows.length / size));
    }
    // Another tenant (registered, with no records) reads none of them.
    expect((await runCli(['sandbox', 'init', '--tenant', 'other', ...registryArgs(dbPath)])).code).toBe(0);
    expect(pages(engine, 'other', 7)).toEqual({ total: 0, pages: [] });
  }, 240_000);
});

describe('mpi-console identities', () => {
  it('writes the whole registry as one identities/list page of everything would, as TSV and JSON', async () => {
    const { engine, dbPath } = await sandbox(false);
    const db = ['--db', dbPath, '--tenant', TENANT];
    for (const format of [[], ['--json']]) {
      const all = await runCli([...db, 'identities', ...format]);
      const page = await runCli([...db, 'identities', '--limit', '1000000', ...format]);
      expect(all.code).toBe(0);
      expect(all.stdout).toBe(page.stdout);
    }
    const tsv = (await runCli([...db, 'identities'])).stdout.trim().split('\n');
    expect(tsv[0]).toBe('sourceSystem\tlocalId\tenterpriseId');
    const total = (await engine.call('identities/list', { limit: 1 }, { tenantId: TENANT, actor: 'test' })).total;
    expect(tsv).toHaveLength(total + 1);
    // A page says on standard error how many there are; an empty tenant's JSON is an empty list.
    const five = await runCli([...db, 'identities', '--limit', '5']);
    expect(five.stdout.trim().split('\n')).toHaveLength(6);
    expect(five.stderr).toBe(
      `5 of ${total.toLocaleString('en-US')} records shown; without --limit and --offset, all of them\n`,
    );
    expect((await runCli(['--db', join(dbPath, '..', 'empty.db'), '--tenant', 'e', 'sandbox', 'init'])).code).toBe(0);
    expect(
      (await runCli(['--db', join(dbPath, '..', 'empty.db'), '--tenant', 'e', 'identities', '--json'])).stdout,
    ).toBe(`${JSON.stringify({ total: 0, rows: [] }, null, 2)}\n`);
  });
});
