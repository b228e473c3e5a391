/**
 * Match assurance page figures (issue 10), each beside a floor measured in the same run, in Chromium against
 * the real browser host on a synthetic sandbox:
 *   - evaluation of 10,000 labelled pairs from the click on Evaluate to the rendered report (metrics table,
 *     explorer, charts painted), median of 3, beside the same request sent by fetch from the page (engine,
 *     transport and JSON: what no page can beat). Budget ≤ 1 s.
 *   - the threshold slider: from a key press to the next painted frame with the chart, matrix and metrics
 *     redrawn at the new threshold, median of 30 presses, beside a key press to the next frame doing nothing.
 *     Budget ≤ 50 ms.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { LocalEngine } from '../../engine/local-engine.ts';
import { labelsToTsv } from '../../engine/contract/label-tsv.ts';
import { buildRenderer } from '../../main/build/renderer.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium.ts';
import type { BenchRow } from './rows.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HOST_BIN = join(ROOT, 'main', 'browser-host', 'bin.js');
const PAIRS = 10_000;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

function startHost(args: readonly string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [HOST_BIN, '--no-open', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BROWSER: 'none' } });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => { resolve(); }));
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const url = /MPI Console: (\S+)/.exec(output)?.[1];
      if (url !== undefined) resolve({ url, stop: async () => { child.kill('SIGTERM'); await exited; } });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(() => { reject(new Error(`the host exited before printing its address:\n${output}`)); });
  });
}

/** In the page: the time from a click on Evaluate to the frame after the report for `datasetId` is in the DOM. */
const MEASURE_EVALUATION = `(datasetId) => new Promise((resolve) => {
  let t0;
  const button = [...document.querySelectorAll('button[type="submit"]')].find((b) => b.textContent.startsWith('Evaluate'));
  button.addEventListener('click', () => { t0 = performance.now(); }, { capture: true, once: true });
  const done = () => [...document.querySelectorAll('h2')].some((h) => h.textContent === 'Evaluation of ' + datasetId) && document.querySelector('[data-testid="evaluation-report"] [data-testid="confusion-matrix"]') !== null;
  const observer = new MutationObserver(() => {
    if (t0 === undefined || !done()) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  window.__armed = true;
})`;

/** In the page: the same request by fetch, to the parsed JSON. */
const FETCH_EVALUATION = `async (input) => {
  const t0 = performance.now();
  const response = await fetch('/api/op/matching/evaluate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input), credentials: 'same-origin' });
  const reply = await response.json();
  if (!reply.ok) throw new Error(reply.error.message);
  return performance.now() - t0;
}`;

/** In the page: a key press on the focused slider to the frame after the chart shows `t = expected`. */
const MEASURE_KEY = `(expected) => new Promise((resolve) => {
  let t0;
  document.addEventListener('keydown', () => { t0 = performance.now(); }, { capture: true, once: true });
  const explorer = document.querySelector('[data-testid="threshold-explorer"]');
  const observer = new MutationObserver(() => {
    if (t0 === undefined || !explorer.textContent.includes('t = ' + expected)) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
  });
  observer.observe(explorer, { subtree: true, childList: true, characterData: true, attributes: true });
})`;

/** In the page: a key press that changes nothing, to the next frame (the browser's own floor). */
const MEASURE_IDLE_KEY = `() => new Promise((resolve) => {
  document.addEventListener('keydown', () => { const t0 = performance.now(); requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0)); }, { capture: true, once: true });
})`;

async function evaluateOnce(page: Page, datasetId: string): Promise<number> {
  await page.getByLabel('Dataset ID').fill(datasetId);
  const measured = page.evaluate<number, string>(MEASURE_EVALUATION, datasetId);
  // waitForFunction would eval in the page, which its Content-Security-Policy forbids: poll instead.
  while (!(await page.evaluate<boolean>('window.__armed === true'))) await new Promise((resolve) => setTimeout(resolve, 5));
  await page.evaluate('window.__armed = false');
  await page.getByRole('button', { name: /^Evaluate/ }).click();
  return measured;
}

export async function benchAssurancePage(): Promise<BenchRow[]> {
  await buildRenderer();
  const dir = mkdtempSync(join(tmpdir(), 'mpi-bench-assurance-page-'));
  try {
    const sandbox = join(dir, 'sandbox.db');
    const engine = LocalEngine.open({ dbPath: sandbox });
    const ctx = { tenantId: 'demo', actor: 'bench' };
    await engine.call('sandbox/create', { syntheticPeople: 8000, seed: 11 }, ctx);
    const { pairs } = await engine.call('labels/sample', { maxPairs: PAIRS, seed: 1 }, ctx);
    engine.close();
    if (pairs.length !== PAIRS) throw new Error(`the sandbox gave ${String(pairs.length)} labelled pairs, not ${String(PAIRS)}`);
    const host = await startHost(['--data-dir', join(dir, 'data'), '--sandbox', sandbox, '--tenant', 'demo']);
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
      await page.goto(host.url);
      await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor({ timeout: 60_000 });
      await page.getByRole('link', { name: /Match assurance/ }).click();
      await page.getByRole('heading', { name: 'Match assurance', level: 1 }).waitFor();
      // A label set of this size comes as a file (Open a TSV file), as an analyst would bring it.
      await page.locator('input[type="file"]').setInputFiles({ name: 'labels.tsv', mimeType: 'text/tab-separated-values', buffer: Buffer.from(labelsToTsv(pairs, { header: true })) });
      await page.getByText(`${PAIRS.toLocaleString('en-US')} rows`).first().waitFor({ timeout: 60_000 });
      await page.getByRole('tab', { name: 'Evaluation' }).click();
      const thresholds = [0.5, 0.75, 0.9, 0.92];

      await evaluateOnce(page, 'warm-up');
      const pageTimes: number[] = [];
      const fetchTimes: number[] = [];
      for (let i = 0; i < 3; i++) {
        pageTimes.push(await evaluateOnce(page, `bench-${String(i)}`));
        fetchTimes.push(await page.evaluate<number, unknown>(FETCH_EVALUATION, { datasetId: `fetch-${String(i)}`, pairs, thresholds, maximumErrorExamples: 20 }));
      }

      const slider = page.getByRole('slider', { name: 'Threshold' }).first();
      await slider.focus();
      const keyTimes: number[] = [];
      const idleTimes: number[] = [];
      let value = Number(await page.getByTestId('threshold-input').inputValue());
      for (let i = 0; i < 30; i++) {
        value = Math.round((value + 0.001) * 1000) / 1000;
        const measured = page.evaluate<number, string>(MEASURE_KEY, value.toFixed(3));
        await page.keyboard.press('ArrowRight');
        keyTimes.push(await measured);
        const idle = page.evaluate<number>(MEASURE_IDLE_KEY);
        await page.keyboard.press('Shift');
        idleTimes.push(await idle);
      }
      return [
        {
          name: `evaluation of ${PAIRS.toLocaleString('en-US')} pairs, click to rendered report (median of 3)`,
          value: median(pageTimes),
          unit: 'ms',
          ceiling: median(fetchTimes),
          ceilingName: 'the same request by fetch from the page (engine + transport + JSON)',
          note: `budget ≤ 1000 ms; runs ${pageTimes.map((t) => t.toFixed(0)).join(', ')} ms`,
        },
        {
          name: 'threshold slider key press to redrawn chart, matrix and metrics (median of 30)',
          value: median(keyTimes),
          unit: 'ms',
          ceiling: median(idleTimes),
          ceilingName: 'a key press doing nothing, to the next frame',
          note: `budget ≤ 50 ms; slowest ${Math.max(...keyTimes).toFixed(0)} ms`,
        },
      ];
    } finally {
      await browser.close();
      await host.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
