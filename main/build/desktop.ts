/**
 * Builds what the Electron app runs, into dist/: the renderer (dist/renderer, via renderer.ts), the main
 * process and the engine as JavaScript (dist/app, tsc emit with .ts imports rewritten to .js), the files they
 * read at run time (migrations, the demo dictionary, the thread bootstrap), each worker thread's code bundled into
 * one file (bundles.ts) and the preload generated from the contract. `npm run desktop` and
 * `npm run package` run it first.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { preloadSource } from '../electron/preload-source.ts';
import { buildRenderer, PROJECT_ROOT } from './renderer.ts';
import { bundleEntries, THREAD_ENTRIES } from './bundles.ts';

export const APP_OUT = join(PROJECT_ROOT, 'dist', 'app');

/** Files the built code reads beside itself (source folder → the same folder under dist/app). */
const RUNTIME_FILES: readonly { readonly dir: string; readonly pattern: RegExp }[] = [
  { dir: 'engine/store/migrations', pattern: /^\d{4}-[a-z0-9-]+\.sql$/ },
  { dir: 'engine/comparators/dictionaries', pattern: /\.json$/ },
  { dir: 'engine/threads', pattern: /\.js$/ },
  { dir: 'engine/store/pg', pattern: /\.js$/ },
];

export async function buildDesktop(log: (line: string) => void = () => undefined): Promise<void> {
  await buildRenderer({ log });
  log('Compiling the main process and the engine…');
  rmSync(APP_OUT, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(PROJECT_ROOT, 'tsconfig.build.json')], {
    stdio: 'inherit',
    cwd: PROJECT_ROOT,
  });
  for (const { dir, pattern } of RUNTIME_FILES) {
    for (const name of readdirSync(join(PROJECT_ROOT, dir)).filter((file) => pattern.test(file))) {
      const target = join(APP_OUT, dir, name);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(join(PROJECT_ROOT, dir, name), target);
    }
  }
  writeFileSync(join(APP_OUT, 'main', 'electron', 'preload.cjs'), preloadSource());
  log("Bundling the worker threads' code…");
  await bundleEntries(APP_OUT, THREAD_ENTRIES);
  log(`Built ${APP_OUT} and ${join(PROJECT_ROOT, 'dist', 'renderer')}.`);
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  await buildDesktop((line) => process.stderr.write(`${line}\n`));
}
