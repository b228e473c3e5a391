/**
 * The code a process or a thread starts with, bundled into one file, in the builds that run as JavaScript
 * (javascript.ts for the CLI, `serve` and the browser host; desktop.ts for Electron). Loading the engine module by
 * module reads about 420 files, and that reading, not running them, is most of a start: an engine thread took about
 * 390 ms here to open a registry and 180 ms bundled (Rolldown, Vite's bundler); the browser host's backend and
 * server load in about 115 ms instead of 240. Both are time a user waits at every launch of the console.
 *
 *   <build>/bundles/engine-thread.js     an entry's code, zod and double-metaphone (plain JavaScript)
 *   <build>/bundles/<module>-<hash>.js   what it loads later (import()), named after that module
 *   <build>/bundles/shared-<hash>.js     what the entries share
 *   <build>/main/engine-host/engine-thread.js   now one line: `export * from '../../bundles/engine-thread.js'`
 *
 * Only the entry files change, so everything starts as before (start-thread.ts, bin.js). Every other package stays
 * a package (better-sqlite3 and pg load native or optional parts; OpenTelemetry keeps one API per thread; undici,
 * faker, jose and openid-client load only when used). A module that finds files beside itself through
 * `import.meta.url` (the migrations, the PostgreSQL I/O thread, a thread's own entry) still finds them: in a bundle
 * that expression is rewritten to the module's own place in the build, where its transpiled file and data stay.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** The worker threads' entries (name → path in the build, without extension): both builds bundle these. */
export const THREAD_ENTRIES: Readonly<Record<string, string>> = {
  'engine-thread': 'main/engine-host/engine-thread',
  'job-thread': 'main/engine-host/job-thread',
  'sandbox-thread': 'main/engine-host/sandbox-thread',
  'intake-thread': 'main/engine-host/intake-thread',
  'prepare-thread': 'engine/ingest/prepare-thread',
};

/**
 * The browser host (`npm start`), which the JavaScript build bundles too. Not the CLI yet: bundled, it started in
 * 0.32 s instead of 0.52, but one fresh-clone CI run with it hung in the crash-injection test of ingestion
 * (test/main/cli/ingest-crash.test.ts), which passed in every other run here; until that is understood it loads
 * file by file (its threads are bundled).
 */
export const HOST_ENTRIES: Readonly<Record<string, string>> = { 'browser-host': 'main/browser-host/main' };

/** Where the bundles go, under the build's root. */
export const BUNDLES_DIR = 'bundles';

/** Packages bundled in: plain JavaScript that reads no file and holds no state shared with other copies. */
const BUNDLED_PACKAGES = ['zod', 'double-metaphone'];

const MODULE_URL = /\bimport\.meta\.url\b/g;

function posix(path: string): string {
  return path.split(sep).join('/');
}

function isPackage(id: string): boolean {
  return !id.startsWith('.') && !id.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(id) && !id.startsWith('\0');
}

function bundledPackage(id: string): boolean {
  return BUNDLED_PACKAGES.some((name) => id === name || id.startsWith(`${name}/`));
}

/**
 * Bundles the entries of the JavaScript build at `root` (ES modules, relative imports ending in `.js`) into
 * `root/bundles`, and makes each entry file load its bundle. Run on a build being made, before it is in place: an
 * entry file there must be the transpiled entry itself, not a link to another build's file.
 */
export async function bundleEntries(root: string, entries: Readonly<Record<string, string>>): Promise<void> {
  const { rolldown } = await import('rolldown');
  const out = join(root, BUNDLES_DIR);
  const bundle = await rolldown({
    input: Object.fromEntries(Object.entries(entries).map(([name, path]) => [name, join(root, `${path}.js`)])),
    platform: 'node',
    external: (id) => isPackage(id) && !bundledPackage(id),
    logLevel: 'warn',
    // A warning (an import that does not resolve, say) fails the bundle rather than making a wrong one.
    onLog: (level, log) => {
      throw new Error(`${level}: ${log.message}`);
    },
    plugins: [
      {
        name: 'module-urls',
        transform(code, id) {
          if (!id.startsWith(root) || !code.includes('import.meta.url')) return null;
          const place = JSON.stringify(posix(relative(out, id)));
          return { code: code.replace(MODULE_URL, `new URL(${place}, import.meta.url).href`), map: null };
        },
      },
    ],
  });
  try {
    await bundle.write({
      dir: out,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: (chunk) => (chunk.isDynamicEntry ? '[name]-[hash].js' : 'shared-[hash].js'),
      sourcemap: false,
    });
  } finally {
    await bundle.close();
  }
  for (const [name, path] of Object.entries(entries)) {
    const file = join(root, `${path}.js`);
    const target = posix(relative(dirname(file), join(out, `${name}.js`)));
    // Removed first: never written through a hard link into another build.
    rmSync(file, { force: true });
    writeFileSync(
      file,
      `// Built: this code is bundled into one file, which loads faster (main/build/bundles.ts).\nexport * from '${target}';\n`,
    );
  }
}
