/**
 * Builds the renderer with Vite's JavaScript API into dist/renderer, only when it is missing or stale: the
 * build records a digest of its inputs (renderer/, the contract and the console protocol it imports, this file and
 * package.json) and is redone when that digest changes. The built index.html carries the CSP as a meta element too.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { metaContentSecurityPolicy } from '../backend/content-security-policy.ts';
import { filesUnder, inputsDigest, isCurrent } from './inputs-digest.ts';

/** The folder holding package.json above this module: the same from main/build and from its built copy in dist/host. */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(dirname(fileURLToPath(import.meta.url)));
export const RENDERER_SOURCE = join(PROJECT_ROOT, 'renderer');
export const RENDERER_OUT = join(PROJECT_ROOT, 'dist', 'renderer');
const STAMP = '.build-inputs.sha256';

/** A digest of everything the build reads from the project (file names and contents). */
export function rendererInputsDigest(root = PROJECT_ROOT): string {
  return inputsDigest(root, [
    ...filesUnder(join(root, 'renderer')),
    ...filesUnder(join(root, 'engine', 'contract')),
    ...filesUnder(join(root, 'console-protocol')),
    join(root, 'main', 'build', 'renderer.ts'),
    join(root, 'main', 'backend', 'content-security-policy.ts'),
    join(root, 'package.json'),
  ]);
}

export function rendererIsCurrent(outDir = RENDERER_OUT): boolean {
  return existsSync(join(outDir, 'index.html')) && isCurrent(outDir, rendererInputsDigest(), STAMP);
}

export interface RendererBuildResult {
  readonly built: boolean;
  readonly outDir: string;
}

/** Builds the renderer unless the built files match the sources; `force` rebuilds regardless. */
export async function buildRenderer(
  options: { readonly force?: boolean; readonly outDir?: string; readonly log?: (line: string) => void } = {},
): Promise<RendererBuildResult> {
  const outDir = options.outDir ?? RENDERER_OUT;
  if (options.force !== true && rendererIsCurrent(outDir)) return { built: false, outDir };
  options.log?.('Building the console (first run, or its sources changed)…');
  const digest = rendererInputsDigest();
  const partial = `${outDir}.partial-${String(process.pid)}`;
  // Loaded only when a build is needed: Vite and the React plugin are development tools, absent from the packaged app.
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  // Vite takes the mode of the bundle from NODE_ENV when it is set: under vitest (NODE_ENV=test) it bundled React's
  // development build, several times slower, and the stamp below would then have kept serving it to `npm start`.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: RENDERER_SOURCE,
      base: './',
      configFile: false,
      envDir: false,
      logLevel: 'warn',
      plugins: [
        react(),
        {
          name: 'mpi-console-csp',
          transformIndexHtml: () => [
            {
              tag: 'meta',
              attrs: { 'http-equiv': 'Content-Security-Policy', content: metaContentSecurityPolicy() },
              injectTo: 'head-prepend',
            },
          ],
        },
      ],
      // Built beside and swapped in, so a host serving the previous build never serves half of this one.
      build: {
        outDir: partial,
        emptyOutDir: true,
        sourcemap: false,
        target: 'es2022',
        reportCompressedSize: false,
        chunkSizeWarningLimit: 1500,
      },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  writeFileSync(join(partial, STAMP), digest);
  rmSync(outDir, { recursive: true, force: true });
  renameSync(partial, outDir);
  return { built: true, outDir };
}
