/**
 * Match assurance page figures (issue 10), each beside a floor measured in the same run, in Chromium against
 * the real browser host on a synthetic sandbox:
 *   - evaluation of 10,000 labelled pairs from the click on Evaluate to the rendered report (metrics table,
 *     explorer, charts painted), median of 7, beside the page's own request replayed by fetch from the page
 *     (engine, transport and JSON: what no page can beat). Budget ≤ 1 s.
 *   - the threshold slider: from a key press to the next painted frame with the chart, matrix and metrics
 *     redrawn at the new threshold, median of 30 presses, beside a key press to the next frame doing nothing.
 *     Budget ≤ 50 ms.
 *   - a 10,000-row label file opened (the file input's change event) to its preview counts painted, beside
 *     reading the same text as a file in the page (what any preview costs at least).
 *
 * In-page measurements are plain-text functions called with their argument written into the expression:
 * Playwright calls a string with an argument only when it is a real function object, and a function object
 * compiled by tsx would carry its helpers into the page. Each is started (listeners armed) before the action
 * and awaited after it. Progress with the time of each set-up step goes to stderr.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page, type Request } from 'playwright-core';
import { LocalEngine } from '../../engine/local-engine.ts';
import { labelsToTsv } from '../../engine/contract/label-tsv.ts';
import { buildRenderer } from '../../main/build/renderer.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium.ts';
import type { BenchRow } from './rows.ts';
import { scratchDir } from '../helpers/temp.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HOST_BIN = join(ROOT, 'main', 'browser-host', 'bin.js');
const PAIRS = 10_000;
/** The smallest seeded sandbox whose ground truth gives 5,000 true pairs and 5,000 candidate non-matches. */
const PEOPLE = 5000;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

function progress(started: number): (what: string) => void {
  return (what) => {
    process.stderr.write(`  assurance-page ${((performance.now() - started) / 1000).toFixed(1)} s: ${what}\n`);
  };
}

function startHost(args: readonly string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [HOST_BIN, '--no-open', ...args], {
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
      const url = /MPI Console: (\S+)/.exec(output)?.[1];
      if (url !== undefined)
        resolve({
          url,
          stop: async () => {
            child.kill('SIGTERM');
            await exited;
          },
        });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(() => {
      reject(new Error(`the host exited before printing its address:\n${output}`));
    });
  });
}

/** Resolves, in the page, the time from `start` to the frame after `done()` first holds (checked on every DOM change). */
const UNTIL_PAINTED = `(start, done, root) => new Promise((resolve, reject) => {
  const timer = setTimeout(() => { observer.disconnect(); reject(new Error('the page did not get there within 120 s')); }, 120000);
  const observer = new MutationObserver(() => {
    const t0 = start();
    if (t0 === undefined || !done()) return;
    observer.disconnect();
    clearTimeout(timer);
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
  });
  observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
})`;

/** From the file input's change event to the preview counts showing `rowsText`. */
const MEASURE_PREVIEW = `(rowsText) => {
  let t0;
  document.addEventListener('change', (event) => { if (event.target.type === 'file') t0 = performance.now(); }, { capture: true, once: true });
  return (${UNTIL_PAINTED})(() => t0, () => (document.querySelector('[data-testid="label-counts"]')?.textContent ?? '').includes(rowsText), document.body);
}`;

/** Reading the same label text as a file in the page: the floor of any preview. */
const READ_AS_FILE = `async (text) => {
  const file = new File([text], 'labels.tsv', { type: 'text/tab-separated-values' });
  const t0 = performance.now();
  const read = await file.text();
  if (read.length !== text.length) throw new Error('the file did not read back');
  return await new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0)));
}`;

/** From a click on Evaluate to the frame after the report for `datasetId` is in the DOM. */
const MEASURE_EVALUATION = `(datasetId) => {
  let t0;
  const button = [...document.querySelectorAll('button[type="submit"]')].find((b) => b.textContent.startsWith('Evaluate'));
  if (button === undefined) throw new Error('no Evaluate button');
  button.addEventListener('click', () => { t0 = performance.now(); }, { capture: true, once: true });
  const done = () => [...document.querySelectorAll('h2')].some((h) => h.textContent === 'Evaluation of ' + datasetId) && document.querySelector('[data-testid="evaluation-report"] [data-testid="confusion-matrix"]') !== null;
  return (${UNTIL_PAINTED})(() => t0, done, document.body);
}`;

/** The page's own request body sent again by fetch (under another dataset ID), to the parsed JSON. */
const FETCH_EVALUATION = `async (body) => {
  const t0 = performance.now();
  const response = await fetch('/api/op/matching/evaluate', { method: 'POST', headers: { 'content-type': 'application/json' }, body, credentials: 'same-origin' });
  const reply = await response.json();
  if (!reply.ok) throw new Error(reply.error.message);
  return performance.now() - t0;
}`;

/** A key press on the focused slider to the frame after the chart shows \`t = expected\`. */
const MEASURE_KEY = `(expected) => {
  let t0;
  document.addEventListener('keydown', () => { t0 = performance.now(); }, { capture: true, once: true });
  const explorer = document.querySelector('[data-testid="threshold-explorer"]');
  return (${UNTIL_PAINTED})(() => t0, () => explorer.textContent.includes('t = ' + expected), explorer);
}`;

/** A key press that changes nothing, to the next frame (the browser's own floor). */
const MEASURE_IDLE_KEY = `() => new Promise((resolve) => {
  document.addEventListener('keydown', () => { const t0 = performance.now(); requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0)); }, { capture: true, once: true });
})`;

/** Starts `fn(arg)` in the page (its listeners are armed when this returns); the returned function awaits its result. */
async function arm(page: Page, fn: string, ...args: unknown[]): Promise<() => Promise<number>> {
  await page.evaluate(
    `window.__measured = (${fn})(${args.map((a) => JSON.stringify(a)).join(', ')}); window.__measured.catch(() => {}); true`,
  );
  return () => page.evaluate<number>('window.__measured');
}

async function evaluateOnce(page: Page, datasetId: string): Promise<number> {
  await page.getByLabel('Dataset ID').fill(datasetId);
  const measured = await arm(page, MEASURE_EVALUATION, datasetId);
  await page.getByRole('button', { name: /^Evaluate/ }).click();
  return measured();
}

export async function benchAssurancePage(): Promise<BenchRow[]> {
  const step = progress(performance.now());
  await buildRenderer();
  step('renderer built');
  const dir = scratchDir('mpi-bench-assurance-page-').dir;
  try {
    const sandbox = join(dir, 'sandbox.db');
    const engine = LocalEngine.open({ dbPath: sandbox });
    const ctx = { tenantId: 'demo', actor: 'bench' };
    let pairs;
    try {
      await engine.call('sandbox/create', { syntheticPeople: PEOPLE, seed: 11 }, ctx);
      step(`sandbox of ${String(PEOPLE)} people created`);
      ({ pairs } = await engine.call('labels/sample', { maxPairs: PAIRS, seed: 1 }, ctx));
      step(`${String(pairs.length)} labelled pairs sampled`);
    } finally {
      engine.close();
    }
    if (pairs.length !== PAIRS)
      throw new Error(`the sandbox gave ${String(pairs.length)} labelled pairs, not ${String(PAIRS)}`);
    const host = await startHost(['--data-dir', join(dir, 'data'), '--sandbox', sandbox, '--tenant', 'demo']);
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const page = await (
        await browser.newContext({ viewport: { width: 1360, height: 900 }, locale: 'en-US' })
      ).newPage();
      await page.goto(host.url);
      await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor({ timeout: 60_000 });
      await page.getByRole('link', { name: /Match assurance/ }).click();
      await page.getByRole('heading', { name: 'Match assurance', level: 1 }).waitFor();
      step('page open');

      // A label set of this size comes as a file (Open a TSV file), as an analyst would bring it.
      const rowsText = `${PAIRS.toLocaleString('en-US')} rows`;
      const preview = await arm(page, MEASURE_PREVIEW, rowsText);
      const tsv = labelsToTsv(pairs, { header: true });
      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: 'labels.tsv', mimeType: 'text/tab-separated-values', buffer: Buffer.from(tsv) });
      const previewTime = await preview();
      const readTime = await page.evaluate<number>(`(${READ_AS_FILE})(${JSON.stringify(tsv)})`);
      step(`preview shown in ${previewTime.toFixed(0)} ms`);

      await page.getByRole('tab', { name: 'Evaluation' }).click();
      const captured: { body?: string | null } = {};
      const keep = (request: Request): void => {
        // The page runs an evaluation as a task (console/start-task) and follows it to its end.
        if (!request.url().endsWith('/api/op/console/start-task')) return;
        const task = JSON.parse(request.postData() ?? 'null') as { operation?: string; input?: unknown } | null;
        if (task?.operation === 'matching/evaluate') captured.body = JSON.stringify(task.input);
      };
      page.on('request', keep);
      const warmUp = await evaluateOnce(page, 'warm-up');
      page.off('request', keep);
      step(`warm-up evaluation in ${warmUp.toFixed(0)} ms`);
      const sent = JSON.parse(captured.body ?? 'null') as { pairs?: unknown[] } | null;
      if (sent?.pairs?.length !== PAIRS) throw new Error('the page did not send its 10,000 pairs');

      const pageTimes: number[] = [];
      const fetchTimes: number[] = [];
      for (let i = 0; i < 7; i++) {
        pageTimes.push(await evaluateOnce(page, `bench-${String(i)}`));
        fetchTimes.push(
          await page.evaluate<number>(
            `(${FETCH_EVALUATION})(${JSON.stringify(JSON.stringify({ ...sent, datasetId: `fetch-${String(i)}` }))})`,
          ),
        );
      }
      step('evaluations measured');
      const load = `load average ${loadavg()[0]?.toFixed(1) ?? '?'} at the time`;

      const slider = page.getByRole('slider', { name: 'Threshold' }).first();
      await slider.focus();
      const keyTimes: number[] = [];
      const idleTimes: number[] = [];
      let value = Number(await page.getByTestId('threshold-input').inputValue());
      for (let i = 0; i < 30; i++) {
        value = Math.round((value + 0.001) * 1000) / 1000;
        const key = await arm(page, MEASURE_KEY, value.toFixed(3));
        await page.keyboard.press('ArrowRight');
        keyTimes.push(await key());
        const idle = await arm(page, MEASURE_IDLE_KEY);
        await page.keyboard.press('Shift');
        idleTimes.push(await idle());
      }
      step('slider measured');
      return [
        {
          name: `evaluation of ${PAIRS.toLocaleString('en-US')} pairs, click to rendered report (median of 7)`,
          value: median(pageTimes),
          unit: 'ms',
          ceiling: median(fetchTimes),
          ceilingName: "the page's request replayed by fetch from the page (engine + transport + JSON)",
          note: `budget ≤ 1000 ms; runs ${pageTimes.map((t) => t.toFixed(0)).join(', ')} ms; by fetch ${fetchTimes.map((t) => t.toFixed(0)).join(', ')} ms; ${load}`,
        },
        {
          name: 'threshold slider key press to redrawn chart, matrix and metrics (median of 30)',
          value: median(keyTimes),
          unit: 'ms',
          ceiling: median(idleTimes),
          ceilingName: 'a key press doing nothing, to the next frame',
          note: `budget ≤ 50 ms; slowest ${Math.max(...keyTimes).toFixed(0)} ms; ${load}`,
        },
        {
          name: `label file of ${PAIRS.toLocaleString('en-US')} rows opened to its preview painted`,
          value: previewTime,
          unit: 'ms',
          ceiling: readTime,
          ceilingName: 'the same text read as a file in the page, to the next frame',
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
