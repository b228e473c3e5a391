/**
 * An entry's code bundled into one file (main/build/bundles.ts) must behave as the files it was made from:
 * a module that finds files beside itself through `import.meta.url` still finds them, a part loaded later still
 * loads, and the entry file is replaced, never written through a hard link into another build. Checked on a small
 * tree of its own, then on the project's real JavaScript build.
 */
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildJavaScript } from '../../../main/build/javascript.ts';
import { BUNDLES_DIR, bundleEntries, HOST_ENTRIES, THREAD_ENTRIES } from '../../../main/build/bundles.ts';
import { tempDir } from '../../helpers/temp.ts';

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** The relative modules a file imports statically. */
function relativeImports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^import\s[^;]*?['"](\.[^'"]+)['"]/gm)].map((m) => m[1] ?? '');
}

describe('a bundled entry', () => {
  it('keeps each module at its own place: files beside it, parts loaded later, and the entry replaced', async () => {
    const root = tempDir();
    write(
      root,
      'lib/place.js',
      [
        "import { readFileSync } from 'node:fs';",
        'export const place = import.meta.url;',
        "export const data = readFileSync(new URL('./data.txt', import.meta.url), 'utf8');",
        "export const later = async () => (await import('./later.js')).place;",
        '',
      ].join('\n'),
    );
    write(root, 'lib/later.js', 'export const place = import.meta.url;\n');
    write(root, 'lib/data.txt', 'beside place.js');
    // The entry is a hard link to another build's file, as an unchanged file is: that file must stay as it was.
    const other = tempDir();
    const before =
      "import { place, data, later } from '../lib/place.js';\nexport const found = { place, data, later: await later() };\n";
    write(other, 'worker-entry.js', before);
    const entry = join(root, 'host/worker-entry.js');
    mkdirSync(dirname(entry), { recursive: true });
    linkSync(join(other, 'worker-entry.js'), entry);

    await bundleEntries(root, { 'worker-entry': 'host/worker-entry' });

    expect(readFileSync(join(other, 'worker-entry.js'), 'utf8')).toBe(before);
    expect(readFileSync(entry, 'utf8')).toMatch(/^\/\/ .+\nexport \* from '\.\.\/bundles\/worker-entry\.js';\n$/);
    const bundles = readdirSync(join(root, BUNDLES_DIR));
    expect(bundles).toContain('worker-entry.js');
    expect(bundles.some((name) => /^later-[\w-]+\.js$/.test(name))).toBe(true);
    // One file: the bundle imports nothing of the tree it was made from (only its own parts, loaded later).
    expect(relativeImports(join(root, BUNDLES_DIR, 'worker-entry.js'))).toEqual([]);

    // The entry, loaded as a thread or a host loads it, is its bundle.
    const { found } = (await import(pathToFileURL(entry).href)) as {
      found: { place: string; data: string; later: string };
    };
    expect(found).toEqual({
      place: pathToFileURL(join(root, 'lib/place.js')).href,
      data: 'beside place.js',
      later: pathToFileURL(join(root, 'lib/later.js')).href,
    });
  });

  it("is made for the browser host and each of the console's threads in its JavaScript build", async () => {
    const { dir } = await buildJavaScript();
    for (const [name, path] of Object.entries({ ...THREAD_ENTRIES, ...HOST_ENTRIES })) {
      const bundle = join(dir, BUNDLES_DIR, `${name}.js`);
      expect(existsSync(bundle), bundle).toBe(true);
      expect(readFileSync(join(dir, `${path}.js`), 'utf8')).toContain(`export * from '`);
      // Shared parts only: the engine's modules are inside, not imported one by one.
      for (const imported of relativeImports(bundle)) expect(imported).toMatch(/^\.\/shared-[\w-]+\.js$/);
    }
  });

  it("keeps the browser host's thread free of the engine, as its sources are (request-thread-imports.test.ts)", async () => {
    const bundles = join((await buildJavaScript()).dir, BUNDLES_DIR);
    // What the host loads at start: its bundle, the backend and the server it imports then, and their shared parts.
    const pending = [
      'browser-host.js',
      ...readdirSync(bundles).filter((name) => /^(console-backend|server)-[\w-]+\.js$/.test(name)),
    ];
    const loaded = new Set<string>();
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      if (loaded.has(name)) continue;
      loaded.add(name);
      pending.push(...relativeImports(join(bundles, name)).map((path) => path.slice(2)));
    }
    expect(loaded.size).toBeGreaterThan(3);
    const engineAt = [...loaded].filter((name) =>
      /\bclass LocalEngine\b/.test(readFileSync(join(bundles, name), 'utf8')),
    );
    expect(engineAt).toEqual([]);
    // The engine is in the bundles, where the engine threads load it.
    expect(
      readdirSync(bundles).some((name) => /\bclass LocalEngine\b/.test(readFileSync(join(bundles, name), 'utf8'))),
    ).toBe(true);
  });
});
