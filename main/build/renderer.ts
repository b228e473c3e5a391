/**
 * Builds the renderer with Vite's JavaScript API into dist/renderer, only when it is missing or stale: the
 * build records a digest of its inputs (renderer/, the contract it imports, this file and package.json)
 * and is redone when that digest changes. The built index.html carries the CSP as a meta element too.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { metaContentSecurityPolicy } from '../backend/content-security-policy.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RENDERER_SOURCE = join(PROJECT_ROOT, 'renderer');
export const RENDERER_OUT = join(PROJECT_ROOT, 'dist', 'renderer');
const STAMP = '.build-inputs.sha256';

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/** A digest of everything the build reads from the project (file names and contents). */
export function rendererInputsDigest(root = PROJECT_ROOT): string {
  const files = [
    ...filesUnder(join(root, 'renderer')),
    ...filesUnder(join(root, 'engine', 'contract')),
    fileURLToPath(import.meta.url),
    join(root, 'main', 'backend', 'content-security-policy.ts'),
    join(root, 'package.json'),
  ].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

export function rendererIsCurrent(outDir = RENDERER_OUT): boolean {
  const stamp = join(outDir, STAMP);
  return existsSync(join(outDir, 'index.html')) && existsSync(stamp) && statSync(stamp).isFile() && readFileSync(stamp, 'utf8') === rendererInputsDigest();
}

export interface RendererBuildResult {
  readonly built: boolean;
  readonly outDir: string;
}

/** Builds the renderer unless the built files match the sources; `force` rebuilds regardless. */
export async function buildRenderer(options: { readonly force?: boolean; readonly outDir?: string; readonly log?: (line: string) => void } = {}): Promise<RendererBuildResult> {
  const outDir = options.outDir ?? RENDERER_OUT;
  if (options.force !== true && rendererIsCurrent(outDir)) return { built: false, outDir };
  options.log?.('Building the console (first run, or its sources changed)…');
  const digest = rendererInputsDigest();
  // Loaded only when a build is needed: Vite and the React plugin are development tools, absent from the packaged app.
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
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
        transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: metaContentSecurityPolicy() }, injectTo: 'head-prepend' }],
      },
    ],
    build: { outDir, emptyOutDir: true, sourcemap: false, target: 'es2022', reportCompressedSize: false, chunkSizeWarningLimit: 1500 },
  });
  writeFileSync(join(outDir, STAMP), digest);
  return { built: true, outDir };
}
