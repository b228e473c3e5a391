/**
 * Browser-test helpers: the real browser host as a child process (`node main/browser-host/bin.js`), the shared
 * Chromium, accessibility checks with axe (no serious or critical violation) and screenshots kept in
 * test-results/ (ignored by git) for people to look at.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { BIN } from '../helpers/processes.ts';
import { scratchDir } from '../helpers/temp.ts';
import { LocalEngine } from '../../engine/local-engine.ts';
import type { CallContext } from '../../engine/contract/operations.ts';
import type { EvaluationReport } from '../../engine/contract/assurance.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');
const AXE_RESULTS = join(ROOT, 'test-results', 'axe');
const HOST_BIN = join(ROOT, 'main', 'browser-host', 'bin.js');

export interface HostProcess {
  readonly launchUrl: string;
  readonly origin: string;
  output(): string;
  stop(): Promise<number | null>;
}

/**
 * A crash of Node itself while it evaluates the program's modules at start: V8's
 * "Check failed: (location_) != nullptr" in SourceTextModule::ExecuteAsyncModule, an open Node bug that strikes now
 * and then (nodejs/node#53238, #60755). It stopped one browser host of a whole CI run on 2026-12-06.
 */
const NODE_MODULE_CRASH = /# Fatal error in [^\n]*\n# Check failed: \(location_\) != nullptr/;

/**
 * Starts `npm start`'s program with its own data folder; resolves once it prints its address. A start that Node
 * itself crashed in (NODE_MODULE_CRASH) is made once more; any other failure, or the same crash twice, is the test's.
 */
export async function startHost(args: readonly string[]): Promise<HostProcess> {
  try {
    return await startHostOnce(args);
  } catch (error) {
    if (!(error instanceof Error && NODE_MODULE_CRASH.test(error.message))) throw error;
    process.stderr.write(
      `the browser host crashed in Node's module loader; starting it once more:\n${error.message}\n`,
    );
    return startHostOnce(args);
  }
}

function startHostOnce(args: readonly string[]): Promise<HostProcess> {
  const child: ChildProcess = spawn(process.execPath, [HOST_BIN, '--no-open', ...args], {
    env: { ...process.env, BROWSER: 'none' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      resolve(code);
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the browser host printed no address:\n${output}`));
    }, 90_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /MPI Console: (http:\/\/127\.0\.0\.1:\d+\/open\?token=[A-Za-z0-9_-]+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        const launchUrl = match[1];
        resolve({
          launchUrl,
          origin: new URL(launchUrl).origin,
          output: () => output,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the browser host exited (${String(code)}) before printing its address:\n${output}`));
    });
  });
}

export function connectBrowser(): Promise<Browser> {
  return chromium.connect(inject('chromiumEndpoint'));
}

export interface ConsoleSession {
  readonly host: HostProcess;
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
}

/**
 * The browser host started with its own data folder, and one page of the shared Chromium at the size the screenshots
 * use (reduced motion), whose script errors and CSP refusals are collected into `pageErrors`.
 */
export async function openConsole(
  dataDir: string,
  pageErrors: string[],
  options: { readonly acceptDownloads?: boolean } = {},
): Promise<ConsoleSession> {
  const host = await startHost(['--data-dir', dataDir]);
  const browser = await connectBrowser();
  const context = await browser.newContext({
    viewport: { width: 1360, height: 900 },
    reducedMotion: 'reduce',
    ...(options.acceptDownloads === true ? { acceptDownloads: true } : {}),
  });
  const page = await context.newPage();
  collectPageErrors(page, pageErrors);
  return { host, browser, context, page };
}

/** The window's scroll, read and set in the page (this project's types hold no DOM: the two members used). */
type Scrolling = { scrollY: number; scrollTo: (options: { top: number; behavior: 'instant' }) => void };

/**
 * The whole page as a person would print it: taken from the top, since a full-page screenshot draws the fixed header
 * where the window was scrolled to, across the middle of the page. The scroll is put back for the test's next step.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  const scrolled = await page.evaluate(() => {
    const view = globalThis as unknown as Scrolling;
    const y = view.scrollY;
    view.scrollTo({ top: 0, behavior: 'instant' });
    return y;
  });
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  await page.evaluate((y) => {
    (globalThis as unknown as Scrolling).scrollTo({ top: y, behavior: 'instant' });
  }, scrolled);
  return path;
}

/**
 * The words of every button and badge label in the scope that Mantine cut (its text wider than its box, shown with
 * an ellipsis or clipped): a label must read whole.
 */
export async function cutLabels(scope: Page | Locator): Promise<string[]> {
  return scope.locator('.mantine-Button-label, .mantine-Badge-label').evaluateAll((labels) =>
    labels
      // This project's types hold no DOM: the properties read, as the page has them.
      .map((label) => label as unknown as { textContent: string | null; scrollWidth: number; clientWidth: number })
      .filter((label) => label.scrollWidth > label.clientWidth)
      .map((label) => label.textContent ?? ''),
  );
}

/** A bar chart's category names under its bars, as read (a name wrapped on two lines joined by a space). */
export async function categoryNames(chart: Locator): Promise<string[]> {
  return chart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value').evaluateAll((ticks) =>
    ticks
      // This project's types hold no DOM: the lines of each name, as the page has them.
      .map((tick) => tick as unknown as { querySelectorAll(selector: string): Iterable<{ textContent: string }> })
      .map((tick) => [...tick.querySelectorAll('tspan')].map((line) => line.textContent).join(' ')),
  );
}

/** The narrowest window the console is drawn for: the desktop window's least width (its `minWidth`, 960 pixels). */
const NARROW = { width: 960, height: 800 };
/**
 * What scrolls sideways, for the narrow checks: Mantine's table scroll container, or a region of the page's own that
 * scrolls (the records side by side). What is inside one is reached by scrolling, not cut.
 */
const SCROLL_BOX = '[role="region"], [class*="-scrollContainer"]';

/**
 * The page as it is now, in the narrowest window: nothing reaches past the window's right edge, no button's or
 * badge's label is cut (Mantine shrinks a button beside a long paragraph and cuts its label), no table outside a box
 * that scrolls reaches past its card (its last columns would be cut, out of reach), no words outside such a box run
 * past their card or box (a neighbour or the edge cuts them), and the tables named show every
 * column without scrolling sideways. Each fault names the element's words. The window goes back to its
 * size after; a picture at that width is kept.
 */
export async function expectFitsNarrowWindow(
  page: Page,
  name: string,
  wholeTables: readonly Locator[] = [],
): Promise<void> {
  await inNarrowWindow(page, async () => {
    try {
      const faults = async (): Promise<string[]> => {
        const cut = (await cutLabels(page)).map((text) => `cut: ${text}`);
        const wider = await page.evaluate(() => {
          const view = globalThis as unknown as {
            innerWidth: number;
            document: { documentElement: { scrollWidth: number } };
          };
          return view.document.documentElement.scrollWidth - view.innerWidth;
        });
        // A table outside any box that scrolls is cut where it passes its card (or dialog): its last columns cannot
        // be reached at all.
        const clipped = await page.evaluate<string[]>(`[...document.querySelectorAll('table')]
          .filter((table) => table.getClientRects().length > 0)
          .filter((table) => table.closest('${SCROLL_BOX}') === null)
          .flatMap((table) => {
            const box = table.closest('.mantine-Card-root, .mantine-Modal-content, .mantine-Paper-root');
            if (box === null) return [];
            const over = table.getBoundingClientRect().right - box.getBoundingClientRect().right;
            const name = table.getAttribute('aria-label') ?? 'a table';
            return over > 1 ? [name + ' is cut: ' + String(Math.round(over)) + ' px past its card'] : [];
          })`);
        // Words that run past their card or box, outside any box that scrolls: the box's neighbour or its edge cuts
        // them ("Complet" for a phase's "Completed").
        const spilled = await page.evaluate<string[]>(`(() => {
          const faults = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
            const words = node.textContent.trim();
            const box = node.parentElement.closest('.mantine-Paper-root');
            if (words === '' || box === null || node.parentElement.closest('${SCROLL_BOX}') !== null) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            const shown = range.getBoundingClientRect();
            if (shown.width === 0) continue;
            const over = shown.right - box.getBoundingClientRect().right;
            if (over > 1) faults.push('"' + words.slice(0, 40) + '" runs ' + String(Math.round(over)) + ' px past its box');
          }
          return faults;
        })()`);
        const scrolled: string[] = [...clipped, ...spilled];
        for (const table of wholeTables) {
          // What scrolls it sideways: Mantine's scroll container (not its inner box, as wide as the table), or a
          // region of the page's own that scrolls (the records side by side).
          const box = table.locator(
            'xpath=ancestor::*[(contains(@class, "-scrollContainer") and not(contains(@class, "-scrollContainerInner"))) or @role="region"][1]',
          );
          const [shown, whole] = [await box.boundingBox(), await table.boundingBox()];
          const tableName = (await table.getAttribute('aria-label')) ?? 'a table';
          if (shown === null || whole === null) scrolled.push(`${tableName} is not shown`);
          else if (whole.width > shown.width + 1)
            scrolled.push(
              `${tableName} scrolls sideways (${String(Math.round(whole.width))} px in ${String(Math.round(shown.width))})`,
            );
        }
        return [...cut, ...scrolled, ...(wider > 0 ? [`the page is ${String(wider)} px wider than the window`] : [])];
      };
      await expect.poll(faults, { timeout: 5_000 }).toEqual([]);
    } finally {
      // Kept whether or not it fits: the picture shows what does not.
      await screenshot(page, `${name}-at-${String(NARROW.width)}`);
    }
  });
}

/** Does something with the page in the narrowest window, then gives the window back its size (even on a failure). */
export async function inNarrowWindow<T>(page: Page, action: () => Promise<T>): Promise<T> {
  const usual = page.viewportSize();
  await page.setViewportSize(NARROW);
  try {
    return await action();
  } finally {
    if (usual !== null) await page.setViewportSize(usual);
  }
}

/**
 * Runs axe on the page as it is now: no serious or critical violation (every finding is kept for the report).
 *
 * Legacy mode runs axe once in the page instead of per frame and then again in a blank page opened to merge the
 * frames' results; the console has no frames, so the rules and the violations are the same (checked on a page with a
 * missing alt, a nameless button and low contrast: the same three found either way). Only the violations are
 * gathered node by node; the passes are counted. Together they take about 1.5 s a run here instead of 4 s, and the
 * browser tests run axe 77 times.
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze();
  mkdirSync(AXE_RESULTS, { recursive: true });
  const summary = results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(' ')),
    details: v.nodes.map((n) => n.failureSummary ?? ''),
  }));
  writeFileSync(
    join(AXE_RESULTS, `${name}.json`),
    JSON.stringify({ passes: results.passes.length, violations: summary }, null, 2),
  );
  const blocking = summary
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ details: _details, ...rest }) => rest);
  expect(blocking, `axe on ${name}`).toEqual([]);
}

/** The number a figure on the page shows, its grouping and words dropped ("1,234 pairs" → 1234); NaN with no digit. */
export function digits(text: string | null | undefined): number {
  const shown = (text ?? '').replace(/[^\d]/g, '');
  return shown === '' ? Number.NaN : Number(shown);
}

/**
 * The evaluation report on the page opens with what `report` (the CLI's, for the same labels) says: its digest, label
 * counts and blocking recall.
 */
export async function expectEvaluationSummary(page: Page, report: EvaluationReport): Promise<void> {
  expect(await page.getByTestId('eval-digest').textContent()).toBe(report.datasetDigest);
  expect(digits(await page.getByTestId('eval-pairs').textContent())).toBe(report.labels.pairs);
  expect(digits(await page.getByTestId('eval-matches').textContent())).toBe(report.labels.matches);
  expect(digits(await page.getByTestId('eval-non-matches').textContent())).toBe(report.labels.nonMatches);
  expect(await page.getByTestId('eval-blocking-recall').textContent()).toBe(
    report.blockingRecall.recall?.toFixed(3) ?? '—',
  );
}

/**
 * The metrics table of test ID `testId` holds one row a threshold of `thresholds` (a report's), with every count,
 * figure and interval as the report has them.
 */
export async function expectMetricsTable(
  page: Page,
  testId: string,
  thresholds: EvaluationReport['thresholds'],
): Promise<void> {
  const fmt = (v: number | null): string => (v === null ? '—' : v.toFixed(3));
  const range = (r: { lower: number; upper: number } | null): string =>
    r === null ? '—' : `${r.lower.toFixed(3)}–${r.upper.toFixed(3)}`;
  const rows = page.locator(`[data-testid="${testId}"] tbody tr`);
  expect(await rows.count()).toBe(thresholds.length);
  for (const [i, m] of thresholds.entries()) {
    // Each 95% interval is under its metric, in the metric's cell (a line of its own).
    const cells = await rows.nth(i).locator('td').allInnerTexts();
    expect(cells.map((c, k) => (k >= 1 && k <= 4 ? String(digits(c)) : c.replace(/\n+/g, '\n')))).toEqual([
      String(m.threshold),
      String(m.tp),
      String(m.fp),
      String(m.tn),
      String(m.fn),
      `${fmt(m.precision)}\n${range(m.precisionInterval)}`,
      `${fmt(m.recall)}\n${range(m.recallInterval)}`,
      fmt(m.specificity),
      fmt(m.npv),
      fmt(m.f1),
      fmt(m.mcc),
    ]);
  }
}

/**
 * The band swatch of every body row of `table` beside the band's words in column `column` (0 first), each checked to be
 * the colour its words name: Exact, Strong, Partial or Different, and an empty square ('none') for anything else
 * ("missing", "not compared: …", "(compared with the name)"); a row whose band is "—" has none. Returns the tones of
 * the rows that have one, in row order.
 */
export async function expectSwatchesMatchBands(table: Locator, column: number): Promise<string[]> {
  const tones: string[] = [];
  for (const row of await table.locator('tbody tr').all()) {
    const words = (await row.locator('td').nth(column).textContent()) ?? '';
    // A step that is no field (the waterfall's start, a limit) has no band and no swatch.
    if (words === '—') {
      expect(await row.locator('[data-tone]').count(), 'a row without a band').toBe(0);
      continue;
    }
    const tone = (await row.locator('[data-tone]').getAttribute('data-tone')) ?? '(no swatch)';
    expect(tone, words).toBe(/^(Exact|Strong|Partial|Different)\b/.exec(words)?.[1]?.toLowerCase() ?? 'none');
    tones.push(tone);
  }
  return tones;
}

/**
 * A blind comparison table (PairTable with blind) shows the values only: no band, no weight, no swatch; a second value
 * that differs from the first (both present) reads "(differs)" after it, and only such a value. Returns how many do.
 */
export async function expectBlindPairTable(table: Locator): Promise<number> {
  expect(await table.getByRole('columnheader', { name: 'Evidence, ln(m/u)' }).count()).toBe(0);
  expect(await table.locator('[data-tone]').count()).toBe(0);
  let differing = 0;
  for (const row of await table.locator('tbody tr').all()) {
    const [first = '', second = ''] = await row.locator('td').allTextContents();
    const marked = second.endsWith(' (differs)');
    const value = marked ? second.slice(0, -' (differs)'.length) : second;
    expect(marked, `${first} | ${second}`).toBe(first !== value && first !== '—' && value !== '—');
    if (marked) differing++;
  }
  return differing;
}

/** Script errors and Content-Security-Policy violations of the page, as they happen, into `errors`. */
export function collectPageErrors(page: Page, errors: string[]): void {
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      errors.push(message.text());
  });
}

/** The name of every engine operation the page sends (`/api/op/NAME`), in order, into `sent`. */
export function recordOperations(page: Page, sent: string[]): void {
  page.on('request', (request) => {
    const match = /\/api\/op\/(.+)$/.exec(new URL(request.url()).pathname);
    if (match?.[1] !== undefined) sent.push(decodeURIComponent(match[1]));
  });
}

export interface RegistryProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Everything serve printed so far (its JSON log lines). */
  output(): string;
}

/** Starts `mpi-console serve args… --host 127.0.0.1 --port 0` (MPI_TENANT and MPI_DB cleared); resolves with its URL once it listens. */
export async function startRegistry(args: readonly string[]): Promise<RegistryProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args, '--host', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MPI_TENANT: '', MPI_DB: '' },
  });
  let output = '';
  const read = (chunk: Buffer): void => {
    output += chunk.toString('utf8');
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  for (let i = 0; i < 1200; i++) {
    for (const line of output.split('\n'))
      if (line.includes('"listening"'))
        return { child, url: (JSON.parse(line) as { url: string }).url, output: () => output };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`serve did not start:\n${output}`);
}

/** Sends SIGTERM (when the child is still running) and waits for it to exit. */
export async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Closes the page's context and the browser, stops the browser host; answers the host's exit code. */
export async function closeBrowserAndHost(
  context: BrowserContext,
  browser: Browser,
  host: HostProcess,
): Promise<number | null> {
  await context.close();
  await browser.close();
  return host.stop();
}

/**
 * Ends a test file's console: the browser and the host closed, the scratch folder removed; the host must have exited
 * with 0 (its output says why when not).
 */
export async function closeConsole(
  context: BrowserContext,
  browser: Browser,
  host: HostProcess,
  dir: string,
): Promise<void> {
  const code = await closeBrowserAndHost(context, browser, host);
  rmSync(dir, { recursive: true, force: true });
  expect(code, host.output()).toBe(0);
}

/** Opens a sandbox file (and tenant) from the Sandboxes page, and waits until the console shows it (Maintenance). */
export async function openSandbox(page: Page, launchUrl: string, file: string, tenant: string): Promise<void> {
  await page.goto(launchUrl);
  await page
    .getByRole('link', { name: /Sandboxes/ })
    .first()
    .click();
  await page.getByLabel('Sandbox file').fill(file);
  await page.getByLabel('Tenant').fill(tenant);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
}

/** Opens a sandbox file (and tenant), then goes to Match assurance. */
export async function openMatchAssurance(page: Page, launchUrl: string, file: string, tenant: string): Promise<void> {
  await openSandbox(page, launchUrl, file, tenant);
  await page.getByRole('link', { name: /Match assurance/ }).click();
}

/** Opens a sandbox file (and tenant), then one review case from the Review cases list, by its short ID. */
export async function openReviewCase(
  page: Page,
  launchUrl: string,
  file: string,
  tenant: string,
  caseId: string,
): Promise<void> {
  await openSandbox(page, launchUrl, file, tenant);
  await page.getByRole('link', { name: /Review cases/ }).click();
  await page.getByRole('link', { name: caseId.slice(3, 11) }).click();
}

/** No control on the page could activate or apply a model. */
export async function expectNoActivationControl(page: Page): Promise<void> {
  expect(await page.getByRole('button', { name: /activat|apply|deploy|make active|use this model/i }).count()).toBe(0);
  expect(await page.getByRole('link', { name: /activat|apply|deploy/i }).count()).toBe(0);
}

/**
 * A sandbox file made through the engine before the console starts: a scratch folder (`prefix`), `people` synthetic
 * people (`seed`) in the tenant, then whatever `fill` adds (records, scans); what `fill` returns comes back beside the paths.
 */
export async function prepareSandbox<T = undefined>(
  sandbox: {
    readonly prefix: string;
    readonly file: string;
    readonly tenantId: string;
    readonly people: number;
    readonly seed: number;
  },
  fill?: (engine: LocalEngine, ctx: CallContext) => Promise<T>,
): Promise<{ dir: string; db: string; filled: T | undefined }> {
  const dir = scratchDir(sandbox.prefix).dir;
  const db = join(dir, sandbox.file);
  const engine = LocalEngine.open({ dbPath: db });
  const ctx: CallContext = { tenantId: sandbox.tenantId, actor: 'setup' };
  try {
    await engine.call('sandbox/create', { syntheticPeople: sandbox.people, seed: sandbox.seed }, ctx);
    return { dir, db, filled: fill === undefined ? undefined : await fill(engine, ctx) };
  } finally {
    engine.close();
  }
}
