/**
 * The packaging configuration, checked without downloading anything: `electron-builder --dir` with a local
 * stub Electron (a file carrying Electron's fuse wire, so the configured fuses are really flipped) must
 * produce an asar holding the built main process, the built renderer and the engine, no tests, sources or
 * source maps, with better-sqlite3 unpacked beside it. The built main code must run under plain Node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDesktop } from '../../main/build/desktop.ts';
import { preloadSource } from '../../main/electron/preload-source.ts';
import { scratchDir } from '../helpers/temp.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Electron's fuse order (wire version 1) and the values a stock binary ships with. */
const FUSES = [
  'RunAsNode',
  'EnableCookieEncryption',
  'EnableNodeOptionsEnvironmentVariable',
  'EnableNodeCliInspectArguments',
  'EnableEmbeddedAsarIntegrityValidation',
  'OnlyLoadAppFromAsar',
  'LoadBrowserProcessSpecificV8Snapshot',
  'GrantFileProtocolExtraPrivileges',
] as const;
const STOCK_WIRE = '10110001';

let work: string;
let unpacked: string;

/** A stand-in for the Electron distribution: a tiny executable with the fuse wire a real binary carries. */
function stubElectron(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const binary = Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stub Electron for packaging tests"\nexit 0\n# '),
    Buffer.from(FUSE_SENTINEL),
    Buffer.from([1, FUSES.length]),
    Buffer.from(STOCK_WIRE),
    Buffer.from('\n'),
  ]);
  writeFileSync(join(dir, 'electron'), binary);
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'version'), 'v45.4.1');
  writeFileSync(join(dir, 'LICENSE'), 'MIT (stub)');
}

function fuseWire(binaryPath: string): Record<string, string> {
  const binary = readFileSync(binaryPath);
  const at = binary.indexOf(FUSE_SENTINEL) + FUSE_SENTINEL.length;
  const length = binary[at + 1] ?? 0;
  const wire = binary.subarray(at + 2, at + 2 + length).toString('latin1');
  return Object.fromEntries(FUSES.map((name, i) => [name, wire[i] ?? '?']));
}

interface AsarEntry {
  files?: Record<string, AsarEntry>;
  unpacked?: boolean;
  size?: number;
  offset?: string;
}

/** The asar header (Chromium pickle: sizes, then a JSON tree) and the file list it describes. */
function readAsar(path: string): { files: Map<string, AsarEntry>; read: (name: string) => Buffer } {
  const archive = readFileSync(path);
  const headerSize = archive.readUInt32LE(4);
  const jsonLength = archive.readUInt32LE(12);
  const header = JSON.parse(archive.subarray(16, 16 + jsonLength).toString('utf8')) as AsarEntry;
  const files = new Map<string, AsarEntry>();
  const walk = (entry: AsarEntry, prefix: string): void => {
    for (const [name, child] of Object.entries(entry.files ?? {})) {
      const path = prefix === '' ? name : `${prefix}/${name}`;
      if (child.files === undefined) files.set(path, child);
      else walk(child, path);
    }
  };
  walk(header, '');
  return {
    files,
    read: (name) => {
      const entry = files.get(name);
      if (entry?.offset === undefined || entry.size === undefined) throw new Error(`${name} is not packed in the asar`);
      const start = 8 + headerSize + Number(entry.offset);
      return archive.subarray(start, start + entry.size);
    },
  };
}

beforeAll(async () => {
  work = scratchDir('mpi-package-').dir;
  await buildDesktop();
  stubElectron(join(work, 'electron'));
  const builder = createRequire(import.meta.url).resolve('electron-builder/cli.js');
  execFileSync(
    process.execPath,
    [
      builder,
      '--dir',
      '--linux',
      '--config',
      'electron-builder.yml',
      `-c.electronDist=${join(work, 'electron')}`,
      // Rebuilding better-sqlite3 for Electron downloads Electron's headers: not possible here.
      '-c.npmRebuild=false',
      `-c.directories.output=${join(work, 'out')}`,
    ],
    { cwd: ROOT, stdio: 'pipe', env: { ...process.env, ELECTRON_BUILDER_CACHE: join(work, 'cache') } },
  );
  unpacked = join(work, 'out', 'linux-unpacked');
}, 300_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('electron-builder --dir with a stub Electron', () => {
  it('packs the built main process, the engine and the built renderer into the asar', () => {
    const { files, read } = readAsar(join(unpacked, 'resources', 'app.asar'));
    for (const required of [
      'package.json',
      'dist/app/main/electron/main.js',
      'dist/app/main/electron/preload.cjs',
      'dist/app/main/backend/console-backend.js',
      'dist/app/engine/threads/bootstrap.js',
      'dist/app/engine/store/pg/io-thread.js',
      'dist/app/engine/ingest/prepare-thread.js',
      'dist/app/main/engine-host/job-thread.js',
      'dist/app/main/engine-host/engine-thread.js',
      'dist/app/main/engine-host/sandbox-thread.js',
      'dist/app/main/engine-host/intake-thread.js',
      'dist/app/bundles/engine-thread.js',
      'dist/app/bundles/job-thread.js',
      'dist/app/bundles/sandbox-thread.js',
      'dist/app/bundles/intake-thread.js',
      'dist/app/bundles/prepare-thread.js',
      'dist/app/engine/local-engine.js',
      'dist/app/engine/jobs/worker.js',
      'dist/app/engine/store/migrations/0001-registry.sql',
      'dist/app/engine/comparators/dictionaries/en-US.json',
      'dist/renderer/index.html',
    ]) {
      expect(files.has(required), required).toBe(true);
    }
    expect([...files.keys()].some((name) => /^dist\/renderer\/assets\/index-[\w-]+\.js$/.test(name))).toBe(true);
    expect(JSON.parse(read('package.json').toString('utf8'))).toMatchObject({ main: 'dist/app/main/electron/main.js' });
    // Each thread's entry loads its bundle (main/build/bundles.ts).
    expect(read('dist/app/main/engine-host/engine-thread.js').toString('utf8')).toContain(
      "export * from '../../bundles/engine-thread.js';",
    );
    // The preload in the package is the one generated from the contract.
    expect(read('dist/app/main/electron/preload.cjs').toString('utf8')).toBe(preloadSource());
  });

  it('leaves out tests, TypeScript sources, source maps, the CLI and the renderer sources', () => {
    const names = [...readAsar(join(unpacked, 'resources', 'app.asar')).files.keys()];
    const own = names.filter((name) => !name.startsWith('node_modules/'));
    expect(own.filter((name) => !name.startsWith('dist/') && name !== 'package.json')).toEqual([]);
    expect(
      names.filter((name) => /(^|\/)(test|tests|__tests__)\//.test(name) || /\.test\.[cm]?[jt]s$/.test(name)),
    ).toEqual([]);
    expect(names.filter((name) => name.endsWith('.map'))).toEqual([]);
    expect(names.filter((name) => /\.(ts|tsx|mts|cts)$/.test(name))).toEqual([]);
    expect(
      own.filter(
        (name) =>
          name.startsWith('dist/app/main/cli/') ||
          name.startsWith('dist/app/main/build/') ||
          name.startsWith('dist/app/main/browser-host/'),
      ),
    ).toEqual([]);
    expect(own.filter((name) => name.endsWith('.build-inputs.sha256'))).toEqual([]);
  });

  it('unpacks better-sqlite3 beside the asar (a native module cannot load from inside it)', () => {
    const { files } = readAsar(join(unpacked, 'resources', 'app.asar'));
    const native = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
    expect(files.get(native)?.unpacked).toBe(true);
    expect(existsSync(join(unpacked, 'resources', 'app.asar.unpacked', native))).toBe(true);
    // With a real node_modules (npm ci, as on CI) the production dependencies of better-sqlite3 come along;
    // a worktree whose node_modules is a symlink to another checkout hides them from npm's dependency tree.
    if (!lstatSync(join(ROOT, 'node_modules')).isSymbolicLink())
      expect(files.has('node_modules/bindings/package.json')).toBe(true);
  });

  it('flips the configured fuses in the packaged binary', () => {
    expect(fuseWire(join(work, 'electron', 'electron'))).toMatchObject({ RunAsNode: '1', OnlyLoadAppFromAsar: '0' }); // the stub starts stock
    expect(fuseWire(join(unpacked, 'mpi-console'))).toEqual({
      RunAsNode: '0',
      EnableCookieEncryption: '1',
      EnableNodeOptionsEnvironmentVariable: '0',
      EnableNodeCliInspectArguments: '0',
      EnableEmbeddedAsarIntegrityValidation: '1',
      OnlyLoadAppFromAsar: '1',
      LoadBrowserProcessSpecificV8Snapshot: '0',
      GrantFileProtocolExtraPrivileges: '0',
    });
  });
});

describe('the built main process', () => {
  it('runs under plain Node, without TypeScript tooling: creates a sandbox, runs a job in its worker thread and prepares ingestion in its thread', () => {
    const data = join(work, 'plain-node');
    const script = `
      const { ConsoleBackend } = await import(${JSON.stringify(join(ROOT, 'dist/app/main/backend/console-backend.js'))});
      const backend = new ConsoleBackend({ dataFolder: ${JSON.stringify(data)}, actor: 'console:packaging-test' });
      await backend.call('console/create-sandbox', { folder: ${JSON.stringify(data)}, syntheticPeople: 40, seed: 2 });
      const { jobId } = await backend.call('maintenance/reindex', { reason: 'packaging check', batchSize: 25 });
      let job;
      for (let i = 0; i < 600; i++) {
        job = await backend.call('jobs/get', { jobId });
        if (job.status !== 'queued' && job.status !== 'running') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await backend.close();
      const { ThreadPreparer } = await import(${JSON.stringify(join(ROOT, 'dist/app/engine/ingest/chunk-preparer.js'))});
      const { RecordPreparer } = await import(${JSON.stringify(join(ROOT, 'dist/app/engine/ingest/record-preparer.js'))});
      const setup = {
        source: { SourceSystem: 'clinic' },
        blocking: { Version: 1, ActiveKeyVersion: 'k1', Rules: [{ Name: 'birth-date', Parts: [{ Field: 'birthDate', Transform: 'Exact' }] }] },
        ring: { keys: [{ version: 'k1', secret: Buffer.alloc(32, 7) }] },
      };
      const preparer = new ThreadPreparer(new RecordPreparer(setup));
      const threadStarted = await preparer.started;
      const [prepared] = await preparer.prepare([{ line: 1, text: JSON.stringify({ resourceType: 'Patient', id: 'p1', birthDate: '1980-01-02' }) }]);
      preparer.close();
      process.stdout.write(JSON.stringify({
        status: job.status,
        phases: job.phases.map((p) => p.status),
        prepare: { threadStarted, chunksInThread: preparer.chunksInThread, kind: prepared.kind, tags: prepared.tags.length },
      }));
    `;
    const scriptPath = join(work, 'plain-node.mjs');
    writeFileSync(scriptPath, script);
    // No --import tsx: only the emitted JavaScript can load.
    const output = execFileSync(process.execPath, [scriptPath], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(JSON.parse(output)).toEqual({
      status: 'completed',
      phases: ['completed', 'completed'],
      prepare: { threadStarted: true, chunksInThread: 1, kind: 'ready', tags: 1 },
    });
  });
});
