/**
 * `mpi-console sandbox init --synthetic N` stopped by Ctrl-C (SIGINT) while it loads: the real command in its own
 * process, interrupted once its write-ahead log shows the load under way. A new database file is removed with its
 * configuration, so no half-loaded sandbox is left to be taken for a whole one; in an existing database the command
 * says that the tenant holds only part of the population (and says so again when asked to create it later), and the
 * other tenants are untouched.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { tempDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';

const BIN = fileURLToPath(new URL('../../../main/cli/bin.js', import.meta.url));
/** A write-ahead log this large means records are being ingested (the tenant and its profile take a few pages). */
const UNDER_WAY_BYTES = 4 * 1024 * 1024;

/** Starts the load, interrupts it once under way, and gives its exit code and standard error. */
async function interruptedLoad(args: readonly string[], db: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 90_000;
  while (!(existsSync(`${db}-wal`) && statSync(`${db}-wal`).size > UNDER_WAY_BYTES)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the load never got under way: ${stderr}`);
    await sleep(50);
  }
  child.kill('SIGINT');
  return { code: await exited, stderr };
}

describe('sandbox init interrupted', () => {
  it('removes the new database and its configuration, keeping nothing partial', async () => {
    const dir = tempDir();
    const db = join(dir, 'new.db');
    const run = await interruptedLoad(['--db', db, '--tenant', 't', 'sandbox', 'init', '--synthetic', '30000'], db);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^mpi-console: conflict error: interrupted: the sandbox was not finished, and the files this command had made \(.+new\.db and its configuration\) were removed, so nothing was kept; run the command again to create it\n$/,
    );
    for (const file of [db, `${db}-wal`, `${db}-shm`, join(dir, 'new.config.json'), join(dir, 'new.config.json.lock')])
      expect(existsSync(file), file).toBe(false);
    // The same command again creates the sandbox afresh (not "tenant already exists").
    const again = await runCli(['--db', db, '--tenant', 't', 'sandbox', 'init', '--synthetic', '50']);
    expect(again.code, again.stderr).toBe(0);
  });

  it('in an existing database, says the tenant holds only part of the population and leaves the others alone', async () => {
    const dir = tempDir();
    const db = join(dir, 'shared.db');
    expect((await runCli(['--db', db, '--tenant', 'first', 'sandbox', 'init', '--synthetic', '50'])).code).toBe(0);
    const before = (await runCli(['--db', db, '--tenant', 'first', 'identities'])).stdout;
    const run = await interruptedLoad(
      ['--db', db, '--tenant', 'second', 'sandbox', 'init', '--synthetic', '30000'],
      db,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /interrupted: tenant "second" in .+shared\.db holds only part of the synthetic population; use another --tenant, or start a new --db file\n$/,
    );
    expect(existsSync(db)).toBe(true);
    expect((await runCli(['--db', db, '--tenant', 'first', 'identities'])).stdout).toBe(before);
    // Asked again later, the command still says the partial tenant is partial, not to use it as it is.
    const again = await runCli(['--db', db, '--tenant', 'second', 'sandbox', 'init', '--synthetic', '50']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /tenant "second" already exists in this database, and its synthetic load did not finish/,
    );
    const whole = await runCli(['--db', db, '--tenant', 'first', 'sandbox', 'init', '--synthetic', '50']);
    expect(whole.stderr).toMatch(/tenant "first" already exists in this database; use it as it is/);
  });
});
