/**
 * Console figures, each beside a ceiling measured in the same run:
 *   - cold start: `npm start`'s program (the browser host) from process spawn to an interactive Maintenance
 *     page in Chromium (median of 5), beside the same steps for a bare Node HTTP server serving a blank page;
 *   - initial renderer JavaScript (the entry script and what it preloads, gzip), beside React, ReactDOM and
 *     Mantine core alone (a provider and a button) built by the same Vite configuration.
 * Budgets (issue 9): cold start ≤ 1.5 s, initial JavaScript ≤ 500 kB gzip.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { LocalEngine } from '../../engine/local-engine.ts';
import { buildRenderer, RENDERER_OUT } from '../../main/build/renderer.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium.ts';
import type { BenchRow } from './rows.ts';
import { scratchDir } from '../helpers/temp.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HOST_BIN = join(ROOT, 'main', 'browser-host', 'bin.js');
const RUNS = 5;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Spawns a process, resolves with its URL (from the first line matching) and a stop function. */
function spawnServer(args: readonly string[], pattern: RegExp): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BROWSER: 'none' },
  });
  let output = '';
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const url = pattern.exec(output)?.[1];
      if (url !== undefined) {
        resolve({
          url,
          stop: async () => {
            child.kill('SIGTERM');
            await exited;
          },
        });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(() => {
      reject(new Error(`exited before printing its address:\n${output}`));
    });
  });
}

async function coldStart(
  browser: Browser,
  start: () => Promise<{ url: string; stop: () => Promise<void> }>,
  ready: string,
): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const t0 = performance.now();
  const server = await start();
  await page.goto(server.url);
  await page.locator(ready).waitFor({ state: 'visible', timeout: 30_000 });
  const elapsed = performance.now() - t0;
  await context.close();
  await server.stop();
  return elapsed;
}

const BLANK_SERVER = `
  const http = require('node:http');
  const server = http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<!doctype html><title>blank</title><main id="ready">ready</main>'); });
  server.listen(0, '127.0.0.1', () => console.log('URL http://127.0.0.1:' + server.address().port + '/'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

async function benchColdStart(): Promise<BenchRow> {
  const dir = scratchDir('mpi-bench-console-').dir;
  try {
    const sandbox = join(dir, 'sandbox.db');
    const engine = LocalEngine.open({ dbPath: sandbox });
    await engine.call('sandbox/create', { syntheticPeople: 1000, seed: 7 }, { tenantId: 'demo', actor: 'bench' });
    await engine.call(
      'maintenance/reconcile',
      { reason: 'history for the jobs list', batchSize: 25 },
      { tenantId: 'demo', actor: 'bench' },
    );
    engine.close();
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const host = (): Promise<{ url: string; stop: () => Promise<void> }> =>
        spawnServer(
          [HOST_BIN, '--no-open', '--data-dir', join(dir, 'data'), '--sandbox', sandbox],
          /MPI Console: (\S+)/,
        );
      const blank = (): Promise<{ url: string; stop: () => Promise<void> }> =>
        spawnServer(['-e', BLANK_SERVER], /URL (\S+)/);
      // The page is interactive when the jobs table is shown and its Start button can be used.
      const hostReady = '[data-testid="jobs-table"] >> nth=0';
      await coldStart(browser, host, hostReady); // warm the file-system cache, as a second launch would be
      await coldStart(browser, blank, '#ready');
      const hostTimes: number[] = [];
      const blankTimes: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        hostTimes.push(await coldStart(browser, host, hostReady));
        blankTimes.push(await coldStart(browser, blank, '#ready'));
      }
      return {
        name: `browser host cold start to an interactive Maintenance page (median of ${String(RUNS)})`,
        value: median(hostTimes),
        unit: 'ms',
        ceiling: median(blankTimes),
        ceilingName: 'bare Node HTTP server + Chromium loading a blank page',
        note: `budget ≤ 1500 ms; runs ${hostTimes.map((t) => t.toFixed(0)).join(', ')} ms`,
      };
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The gzip size of the JavaScript a browser loads before the first render: the entry and its preloads. */
function initialJsGzipBytes(outDir: string): { bytes: number; files: string[] } {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const files = [
    ...html.matchAll(/<script[^>]+src="\.\/([^"]+\.js)"|<link[^>]+rel="modulepreload"[^>]+href="\.\/([^"]+\.js)"/g),
  ].map((m) => m[1] ?? m[2] ?? '');
  const bytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(join(outDir, file))).length, 0);
  return { bytes, files };
}

async function benchBundle(): Promise<BenchRow> {
  await buildRenderer();
  const app = initialJsGzipBytes(RENDERER_OUT);
  // The floor: React, ReactDOM and Mantine core alone, with the same Vite build (inside dist/ to resolve node_modules).
  const baselineRoot = join(ROOT, 'dist', 'bench-baseline');
  rmSync(baselineRoot, { recursive: true, force: true });
  mkdirSync(baselineRoot, { recursive: true });
  writeFileSync(
    join(baselineRoot, 'index.html'),
    '<!doctype html><div id="root"></div><script type="module" src="./main.tsx"></script>',
  );
  writeFileSync(
    join(baselineRoot, 'main.tsx'),
    "import { MantineProvider, Button } from '@mantine/core';\nimport { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')!).render(<MantineProvider><Button>ok</Button></MantineProvider>);\n",
  );
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  await build({
    root: baselineRoot,
    base: './',
    configFile: false,
    envDir: false,
    logLevel: 'silent',
    plugins: [react()],
    build: {
      outDir: join(baselineRoot, 'out'),
      emptyOutDir: true,
      sourcemap: false,
      target: 'es2022',
      reportCompressedSize: false,
    },
  });
  const floor = initialJsGzipBytes(join(baselineRoot, 'out'));
  rmSync(baselineRoot, { recursive: true, force: true });
  return {
    name: 'initial renderer JavaScript, gzip',
    value: app.bytes / 1000,
    unit: 'kB',
    ceiling: floor.bytes / 1000,
    ceilingName: 'React + ReactDOM + Mantine core alone (provider and a button), same build',
    note: `budget ≤ 500 kB; ${app.files.join(', ')}; the throughput chart (recharts) loads as its own chunk`,
  };
}

export async function benchConsole(): Promise<BenchRow[]> {
  return [await benchBundle(), await benchColdStart()];
}
