/**
 * The console's request thread never loads the engine: its engine threads do (about half a second of a core each,
 * which the host's own thread would otherwise spend before it could answer the window). Checked on the modules as
 * they run: each is transpiled by the JavaScript build's own transpile (type-only imports gone), and its static
 * imports are followed; a dynamic import() loads later and is not followed.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import typescript from 'typescript';
import { describe, expect, it } from 'vitest';
import { transpile } from '../../../main/build/javascript.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const STATIC_IMPORT = /^(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]|^import\s*['"]([^'"]+)['"]/gm;

/**
 * What a module's built JavaScript imports statically: source files (the build rewrote `.ts` to `.js`) and
 * packages, as written (`node:fs`, `jose/jwt/decode`).
 */
function staticImports(file: string): { files: string[]; packages: string[] } {
  const specifiers = [...transpile(typescript, file).matchAll(STATIC_IMPORT)].map(
    (match) => match[1] ?? match[2] ?? '',
  );
  return {
    files: specifiers
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => {
        const built = resolve(dirname(file), specifier);
        const source = built.replace(/\.js$/, '.ts');
        return existsSync(source) ? source : built;
      }),
    packages: specifiers.filter((specifier) => !specifier.startsWith('.')),
  };
}

/**
 * Every module of this code base that loading `roots` loads (relative to the project root), and the packages
 * they import.
 */
function walk(roots: readonly string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = roots.map((root) => join(ROOT, root));
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    const name = relative(ROOT, file);
    if (files.has(name) || !existsSync(file) || !file.endsWith('.ts')) continue;
    files.add(name);
    const imports = staticImports(file);
    pending.push(...imports.files);
    for (const specifier of imports.packages) packages.add(specifier);
  }
  return { files, packages };
}

const ENGINE_ITSELF =
  /^engine\/(index\.ts|local-engine\.ts|operations\/|scoring\/|ingest\/|assurance\/(?!dataset-digest))/;

describe("the console's request thread", () => {
  it('loads the backend and the browser host without the engine', () => {
    const loaded = walk([
      'main/browser-host/main.ts',
      'main/backend/console-backend.ts',
      'main/browser-host/server.ts',
    ]).files;
    // The walk itself reaches what it should: the backend, the pool, the store it checks a file with.
    expect(loaded).toContain('main/engine-host/pool.ts');
    expect(loaded).toContain('engine/host-side.ts');
    expect(loaded).toContain('engine/store/store.ts');
    expect([...loaded].filter((name) => ENGINE_ITSELF.test(name))).toEqual([]);
  });

  it('loads the sign-in libraries only when someone signs in', () => {
    const { files, packages } = walk(['main/browser-host/main.ts', 'main/backend/console-backend.ts']);
    // The walk reaches the sign-in and the token's claims, and what the claims are read with.
    expect(files).toContain('main/backend/sign-in.ts');
    expect(files).toContain('main/backend/token-claims.ts');
    expect(packages).toContain('jose/jwt/decode');
    // Not all of jose, nor openid-client (which loads jose): about 40 ms of the console's start.
    expect([...packages].filter((name) => name === 'jose' || name.startsWith('openid-client'))).toEqual([]);
  });

  it('is told apart from an engine thread, which loads the engine', () => {
    const loaded = walk(['main/engine-host/engine-thread.ts']).files;
    expect(loaded).toContain('engine/local-engine.ts');
    expect([...loaded].filter((name) => ENGINE_ITSELF.test(name)).length).toBeGreaterThan(20);
  });
});
