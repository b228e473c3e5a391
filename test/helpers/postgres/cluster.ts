/**
 * A throwaway PostgreSQL cluster for the tests: initdb in a temporary folder, the server on a free loopback port
 * (Unix socket in the same folder), one database, trust authentication for loopback only, fsync off (nothing here
 * must survive a crash of the machine). PostgreSQL refuses to run as root, so as root the folder is given to the
 * `postgres` user and every server command runs through `runuser`. The server binaries are Debian's
 * (/usr/lib/postgresql/<version>/bin, the newest) unless PG_BIN names a folder; `.ci/run` installs them when missing.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { scratchDir } from '../temp.ts';

export interface Cluster {
  /** The superuser's connection (postgres://mpi@127.0.0.1:PORT/mpi): for creating databases only. */
  readonly url: string;
  /** The role the registry connects as: neither SUPERUSER nor BYPASSRLS, so row-level security applies to it. */
  readonly appRole: string;
  stop(): void;
}

function binFolder(): string {
  const named = process.env['PG_BIN'];
  if (named !== undefined && named !== '') return named;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (newest === undefined)
    throw new Error(
      'PostgreSQL server binaries not found: install them with `apt-get install -y postgresql` (.ci/run does) or set PG_BIN',
    );
  return join(root, newest, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

export async function startCluster(): Promise<Cluster> {
  const bin = binFolder();
  const { dir: root, cleanup } = scratchDir('mpi-pg-');
  const data = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: readonly string[]): void => {
    const file = join(bin, command);
    execFileSync(asRoot ? 'runuser' : file, asRoot ? ['-u', 'postgres', '--', file, ...args] : [...args], {
      stdio: 'pipe',
      timeout: 60_000,
    });
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(root, uid, gid);
  }
  chmodSync(root, 0o700);
  run('initdb', ['-D', data, '-U', 'mpi', '-A', 'trust', '-E', 'UTF8', '--no-locale', '-N']);
  const port = await freePort();
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(root, 'server.log'),
    '-w',
    '-t',
    '60',
    '-o',
    `-p ${String(port)} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
    'start',
  ]);
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'mpi', 'mpi']);
  run('psql', [
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    '-U',
    'mpi',
    '-d',
    'mpi',
    '-v',
    'ON_ERROR_STOP=1',
    '-c',
    'CREATE ROLE mpi_app LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE',
  ]);
  return {
    url: `postgres://mpi@127.0.0.1:${String(port)}/mpi`,
    appRole: 'mpi_app',
    stop: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        cleanup();
      }
    },
  };
}
