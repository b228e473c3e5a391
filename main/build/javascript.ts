/**
 * The CLI, `serve` and the browser host run from JavaScript, not through a TypeScript loader: tsx costs most of a
 * second at every start, and again in every engine thread. This transpiles engine/, console-protocol/ and main/
 * file by file with TypeScript's own transpiler (no type check: `npm test` does that) into
 * dist/js/<digest of the sources>/, copies the files they read at run time, and bundles the browser host's and each
 * worker thread's code into one file (bundles.ts). Electron's main process has a build of its own (desktop.ts).
 *
 * A build is never changed once made. It is written beside and renamed into place whole, so a process started from
 * one never loads half of another, and two processes that build at once end with the same complete build. A file
 * unchanged since the last build is a hard link to its output there, so the build after an edit transpiles only
 * what changed. dist/js/latest names the last build: the bin.js entries load this module's built copy from it, to
 * check the sources without loading TypeScript.
 */
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { digestOf, fileDigests, filesUnder, relativePath } from './inputs-digest.ts';
import { PROJECT_ROOT } from './renderer.ts';
import { bundleEntries, HOST_ENTRIES, THREAD_ENTRIES } from './bundles.ts';

export const BUILDS_DIR = join(PROJECT_ROOT, 'dist', 'js');
const LATEST = join(BUILDS_DIR, 'latest');
const MANIFEST = '.build-inputs.json';
const SOURCE_DIRS = ['engine', 'console-protocol', 'main'];
const LEFT_OUT = ['main/electron/', 'main/build/desktop.ts'];
// JavaScript that runs as it is (a worker thread's bootstrap.js; PostgreSQL's io-thread.js) is copied, not transpiled.
const RUNTIME = /\.(sql|json)$|^(bootstrap|io-thread)\.js$/;
// The build code itself: a built copy older than these sources may check them, but not build them.
const BUILDER = [
  'main/build/javascript.ts',
  'main/build/inputs-digest.ts',
  'main/build/renderer.ts',
  'main/build/bundles.ts',
];
// The bundled entries: the threads' and the browser host's (bundles.ts).
const ENTRIES = { ...THREAD_ENTRIES, ...HOST_ENTRIES };
// An entry is always transpiled afresh: in a build its file is a line loading its bundle.
const ENTRY_FILES: ReadonlySet<string> = new Set(Object.values(ENTRIES).map((entry) => `${entry}.ts`));
// Builds other than the newest few are removed once an hour old (a process may still be running from one).
const KEEP = 3;
const KEEP_MS = 60 * 60 * 1000;

interface Sources {
  readonly ts: readonly string[];
  readonly runtime: readonly string[];
  readonly files: ReadonlyMap<string, string>;
  readonly digest: string;
}

interface Manifest {
  readonly files: Readonly<Record<string, string>>;
}

function sources(): Sources {
  const ts: string[] = [];
  const runtime: string[] = [];
  for (const dir of SOURCE_DIRS) {
    for (const file of filesUnder(join(PROJECT_ROOT, dir))) {
      const path = relativePath(PROJECT_ROOT, file);
      if (LEFT_OUT.some((prefix) => path.startsWith(prefix))) continue;
      if (file.endsWith('.ts')) ts.push(file);
      else if (RUNTIME.test(basename(file))) runtime.push(file);
    }
  }
  const files = fileDigests(PROJECT_ROOT, [...ts, ...runtime, join(PROJECT_ROOT, 'package.json')]);
  return { ts, runtime, files, digest: digestOf(files) };
}

function readManifest(dir: string): Manifest | null {
  try {
    return JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

/** The folder of the build of the sources as they are now, or null when there is none yet. */
export function currentBuild(): string | null {
  const dir = join(BUILDS_DIR, sources().digest);
  return existsSync(join(dir, MANIFEST)) ? dir : null;
}

/** Whether this copy of the build code may build the sources: it is the sources' own, or built from the same. */
export function builderIsCurrent(): boolean {
  const ownRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  if (ownRoot === PROJECT_ROOT) return true;
  const own = readManifest(ownRoot);
  if (own === null) return false;
  try {
    const now = fileDigests(
      PROJECT_ROOT,
      BUILDER.map((path) => join(PROJECT_ROOT, path)),
    );
    return [...now].every(([path, digest]) => own.files[path] === digest);
  } catch {
    return false;
  }
}

/** Builds the sources as they are now, unless their build is there already; returns its folder. */
export async function buildJavaScript(
  options: { readonly log?: (line: string) => void } = {},
): Promise<{ dir: string; built: boolean }> {
  const source = sources();
  const dir = join(BUILDS_DIR, source.digest);
  if (existsSync(join(dir, MANIFEST))) {
    writeLatest(source.digest);
    return { dir, built: false };
  }
  options.log?.('Preparing the JavaScript of the console and the CLI (first run, or their sources changed)…');
  // A file's output is linked from the last build only when the same build code made it: how a file is transpiled,
  // and which files are bundle entries (whose output is a line loading a bundle), are the build code's choice.
  const last = latestBuild();
  const previous = last !== null && BUILDER.every((path) => last.files[path] === source.files.get(path)) ? last : null;
  const partial = join(BUILDS_DIR, `.partial-${randomBytes(8).toString('hex')}`);
  let typescript: typeof import('typescript') | undefined;
  for (const file of source.ts) {
    const path = relativePath(PROJECT_ROOT, file);
    const outPath = path.replace(/\.ts$/, '.js');
    const out = join(partial, outPath);
    mkdirSync(dirname(out), { recursive: true });
    if (
      previous !== null &&
      !ENTRY_FILES.has(path) &&
      previous.files[path] === source.files.get(path) &&
      linked(join(previous.dir, outPath), out)
    )
      continue;
    typescript ??= (await import('typescript')).default;
    writeFileSync(out, transpile(typescript, file));
  }
  for (const file of source.runtime) {
    const out = join(partial, relativePath(PROJECT_ROOT, file));
    mkdirSync(dirname(out), { recursive: true });
    copyFileSync(file, out);
  }
  try {
    await bundleEntries(partial, ENTRIES);
  } catch (error) {
    // Slower to start, not wrong: the entries then load their modules one by one.
    options.log?.(
      `The code could not be bundled (${error instanceof Error ? error.message : String(error)}); it loads file by file.`,
    );
  }
  const manifest: Manifest = { files: Object.fromEntries(source.files) };
  writeFileSync(join(partial, MANIFEST), JSON.stringify(manifest));
  try {
    renameSync(partial, dir);
  } catch (error) {
    // Another process built the same sources first: its build is the same.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(join(dir, MANIFEST))) throw error;
  }
  writeLatest(source.digest);
  removeOldBuilds(source.digest);
  return { dir, built: true };
}

/** One source file as the build writes it: types gone, relative imports of `.ts` rewritten to `.js`. */
export function transpile(typescript: typeof import('typescript'), file: string): string {
  const compilerOptions = {
    target: typescript.ScriptTarget.ES2022,
    module: typescript.ModuleKind.ESNext,
    verbatimModuleSyntax: true,
    rewriteRelativeImportExtensions: true,
    sourceMap: false,
  };
  return typescript.transpileModule(readFileSync(file, 'utf8'), { compilerOptions, fileName: file }).outputText;
}

function linked(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch {
    return false;
  }
}

function latestBuild(): { dir: string; files: Readonly<Record<string, string>> } | null {
  try {
    const dir = join(BUILDS_DIR, readFileSync(LATEST, 'utf8').trim());
    const manifest = readManifest(dir);
    return manifest === null ? null : { dir, files: manifest.files };
  } catch {
    return null;
  }
}

function writeLatest(digest: string): void {
  const temporary = `${LATEST}.${randomBytes(8).toString('hex')}`;
  writeFileSync(temporary, digest);
  renameSync(temporary, LATEST);
}

function removeOldBuilds(keep: string): void {
  const now = Date.now();
  const others = readdirSync(BUILDS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== keep)
    .map((entry) => ({ name: entry.name, mtime: statSync(join(BUILDS_DIR, entry.name)).mtimeMs }));
  // A partial build is one that a process abandoned, unless it is young (then it may still be writing it).
  const builds = others.filter((entry) => !entry.name.startsWith('.partial-')).sort((a, b) => b.mtime - a.mtime);
  const partials = others.filter((entry) => entry.name.startsWith('.partial-'));
  for (const entry of [...builds.slice(KEEP - 1), ...partials])
    if (now - entry.mtime > KEEP_MS) rmSync(join(BUILDS_DIR, entry.name), { recursive: true, force: true });
}
