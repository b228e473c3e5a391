/**
 * `npm start` runs the browser host from JavaScript, not through a TypeScript loader at run time: loading the
 * backend through tsx costs most of a second on every start. This transpiles the host, the backend and the
 * engine file by file with TypeScript's own transpiler (no type check: `npm test` does that) into dist/host,
 * only when their sources changed, and copies the files they read at run time.
 */
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { filesUnder, inputsDigest, isCurrent } from './inputs-digest.ts';
import { PROJECT_ROOT } from './renderer.ts';

export const HOST_OUT = join(PROJECT_ROOT, 'dist', 'host');
export const HOST_ENTRY = join(HOST_OUT, 'main', 'browser-host', 'main.js');
// main/build comes along so that the next start checks staleness without loading TypeScript (bin.js).
const SOURCE_DIRS = [
  'engine',
  'console-protocol',
  'main/backend',
  'main/engine-host',
  'main/browser-host',
  'main/build',
  'main/remote',
  'main/net',
];
const BUILD_FILES = new Set(['inputs-digest.ts', 'renderer.ts', 'host.ts', 'prepare.ts']);
// JavaScript that a worker thread loads as it is (bootstrap.js; PostgreSQL's io-thread.js) is copied, not transpiled.
const RUNTIME = /\.(sql|json)$|^(bootstrap|io-thread)\.js$/;

function sources(): { ts: string[]; runtime: string[] } {
  const ts: string[] = [];
  const runtime: string[] = [];
  for (const dir of SOURCE_DIRS) {
    for (const file of filesUnder(join(PROJECT_ROOT, dir))) {
      if (file.includes(join('engine', 'benchmark'))) continue;
      if (file.includes(join('main', 'build')) && !BUILD_FILES.has(file.split(/[\\/]/).at(-1) ?? '')) continue;
      if (file.endsWith('.ts')) ts.push(file);
      else if (RUNTIME.test(file.split(/[\\/]/).at(-1) ?? '')) runtime.push(file);
    }
  }
  return { ts, runtime };
}

function digest(files: { ts: string[]; runtime: string[] }): string {
  return inputsDigest(PROJECT_ROOT, [...files.ts, ...files.runtime, join(PROJECT_ROOT, 'package.json')]);
}

export function hostIsCurrent(): boolean {
  return isCurrent(HOST_OUT, digest(sources()));
}

export async function buildHost(
  options: { readonly force?: boolean; readonly log?: (line: string) => void } = {},
): Promise<{ built: boolean }> {
  const files = sources();
  const current = digest(files);
  if (options.force !== true && isCurrent(HOST_OUT, current)) return { built: false };
  options.log?.('Preparing the console host (first run, or its sources changed)…');
  const { default: ts } = await import('typescript');
  // Built beside and swapped in, so a host starting meanwhile never loads half a build.
  const partial = `${HOST_OUT}.partial-${String(process.pid)}`;
  rmSync(partial, { recursive: true, force: true });
  const compilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    verbatimModuleSyntax: true,
    rewriteRelativeImportExtensions: true,
    sourceMap: false,
  };
  for (const file of files.ts) {
    const out = join(partial, relative(PROJECT_ROOT, file)).replace(/\.ts$/, '.js');
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions, fileName: file });
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, outputText);
  }
  for (const file of files.runtime) {
    const out = join(partial, relative(PROJECT_ROOT, file));
    mkdirSync(dirname(out), { recursive: true });
    copyFileSync(file, out);
  }
  writeFileSync(join(partial, '.build-inputs.sha256'), current);
  rmSync(HOST_OUT, { recursive: true, force: true });
  renameSync(partial, HOST_OUT);
  return { built: true };
}
