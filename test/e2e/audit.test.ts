/**
 * The registry audit on the Match assurance page, in real Chromium against the browser host on a synthetic sandbox,
 * as an analyst uses it: draw a stratified sample, label every pair by keyboard (blind: no score, no band, no link
 * shown), leave and come back, estimate; the page's precision, recall and F1 with their intervals equal the
 * engine's audit/estimate of the same labels; the run is kept in Saved runs and reopens with its labels. The truth
 * the test labels by is the synthetic population's (synthetic_truth), which the page can also apply in one step.
 * Every state is checked with axe and saved as a screenshot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LocalEngine } from '../../engine/local-engine.ts';
import type { AuditSample } from '../../engine/contract/audit.ts';
import type { OperationOutput } from '../../engine/contract/operations.ts';
import {
  closeConsole,
  expectAccessible,
  expectBlindPairTable,
  type HostProcess,
  openConsole,
  openMatchAssurance,
  screenshot,
} from './helpers.ts';
import { scratchDir } from '../helpers/temp.ts';

const SIZE = 40;
const SEED = 5;
let dir: string;
let db: string;
let host: HostProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let sample: AuditSample;
let truth: boolean[];
let expected: OperationOutput<'audit/estimate'>;
let expectedFromTruth: OperationOutput<'audit/estimate'>;
const pageErrors: string[] = [];

beforeAll(async () => {
  dir = scratchDir('mpi-e2e-audit-').dir;
  db = join(dir, 'audit.db');
  const engine = LocalEngine.open({ dbPath: db });
  const ctx = { tenantId: 'demo', actor: 'test' };
  try {
    await engine.call('sandbox/create', { syntheticPeople: 400, seed: 4 }, ctx);
    sample = await engine.call('audit/sample', { labels: SIZE, seed: SEED }, ctx);
    const rows = engine.env.store
      .statement('SELECT source_system, local_id, person_id FROM synthetic_truth WHERE tenant_id = ?')
      .raw()
      .all('demo') as [string, string, string][];
    const person = new Map(rows.map(([s, l, p]) => [`${s}/${l}`, p]));
    truth = sample.pairs.map(
      (p) =>
        person.get(`${p.left.sourceSystem}/${p.left.localId}`) ===
        person.get(`${p.right.sourceSystem}/${p.right.localId}`),
    );
    // What the page must show: the estimate of the labels a person would give (the truth), pair 3 left unsure.
    const labels = sample.pairs.flatMap((p, i) => (i === 2 ? [] : [{ ...p, isMatch: truth[i] === true }]));
    const strata = sample.strata.map(({ name, linked, population }) => ({ name, linked, population }));
    expected = await engine.call('audit/estimate', { strata, labels }, ctx);
    // Every pair labelled by the truth, as "Draw and label from the ground truth" does.
    expectedFromTruth = await engine.call(
      'audit/estimate',
      { strata, labels: sample.pairs.map((p, i) => ({ ...p, isMatch: truth[i] === true })) },
      ctx,
    );
  } finally {
    engine.close();
  }
  ({ host, browser, context, page } = await openConsole(join(dir, 'data'), pageErrors));
}, 180_000);

afterAll(async () => {
  await closeConsole(context, browser, host, dir);
});

/** A figure as the report's table shows it: the estimate, then its interval. */
function figure(b: { estimate: number | null; lower: number | null; upper: number | null }): string {
  return `${b.estimate?.toFixed(3) ?? '—'}${b.lower === null || b.upper === null ? '—' : `${b.lower.toFixed(3)} – ${b.upper.toFixed(3)}`}`;
}

/** The record references the page shows in the pair's column headers. */
async function shownPair(): Promise<string[]> {
  return page.getByTestId('pair-records').locator('thead th').allTextContents();
}

describe('the registry audit', () => {
  it('draws the stratified sample and labels it blind, by keyboard, keeping the verdicts across navigation', async () => {
    await openMatchAssurance(page, host.launchUrl, db, 'demo');
    await page.getByRole('tab', { name: 'Registry audit' }).click();
    await page.getByLabel('Pairs to label').fill(String(SIZE));
    await page.getByLabel('Seed').fill(String(SEED));
    await expectAccessible(page, 'audit-empty');
    await screenshot(page, 'audit-01-empty');
    await page.getByRole('button', { name: 'Draw the audit sample' }).click();
    await page.getByTestId('audit-strata').waitFor({ timeout: 60_000 });
    // The strata as the engine drew them: pairs in the registry and in the sample.
    const strata = await page.getByTestId('audit-strata').locator('tbody tr').allTextContents();
    expect(strata).toHaveLength(sample.strata.length);
    sample.strata.forEach((s, i) => {
      expect(strata[i]).toContain(s.population.toLocaleString('en'));
    });
    await page.getByTestId('pair-records').waitFor();
    // Blind: the records' values only, a value that differs marked in words.
    await expectBlindPairTable(page.getByTestId('pair-records'));
    expect(await page.getByTestId('pair-records-note').count()).toBe(0);
    await expectAccessible(page, 'audit-labelling');
    await screenshot(page, 'audit-02-labelling');

    // No focus by hand: the pair has it after the draw and after each verdict. The third pair is left unsure.
    for (let i = 0; i < 20; i++) {
      const pair = sample.pairs[i];
      if (pair === undefined) throw new Error('short sample');
      await page
        .getByRole('heading', { name: `Audit pair ${String(i + 1)} of ${String(sample.pairs.length)}` })
        .waitFor();
      await expect
        .poll(shownPair)
        .toEqual([
          'Field',
          `${pair.left.sourceSystem} / ${pair.left.localId}`,
          `${pair.right.sourceSystem} / ${pair.right.localId}`,
        ]);
      await page.keyboard.press(i === 2 ? 'u' : truth[i] === true ? 'm' : 'n');
    }
    await expect
      .poll(() => page.getByTestId('audit-progress').textContent())
      .toBe(`19 labelled · 1 unsure · ${String(sample.pairs.length - 20)} to go`);

    // Away to Maintenance and back: the sample and the verdicts are as they were.
    await page.getByRole('link', { name: 'Maintenance' }).first().click();
    await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
    await page.getByRole('link', { name: /Match assurance/ }).click();
    await expect
      .poll(() => page.getByTestId('audit-progress').textContent())
      .toBe(`19 labelled · 1 unsure · ${String(sample.pairs.length - 20)} to go`);
    await page.getByRole('heading', { name: `Audit pair 21 of ${String(sample.pairs.length)}` }).waitFor();

    // A verdict by button, then the keys again (the pair keeps the focus).
    for (let i = 20; i < sample.pairs.length; i++) {
      const pair = sample.pairs[i];
      if (pair === undefined) throw new Error('short sample');
      await expect
        .poll(shownPair)
        .toEqual([
          'Field',
          `${pair.left.sourceSystem} / ${pair.left.localId}`,
          `${pair.right.sourceSystem} / ${pair.right.localId}`,
        ]);
      if (i === 20)
        await page
          .getByRole('button', { name: truth[i] === true ? 'Same person (M)' : 'Different people (N)' })
          .click();
      else await page.keyboard.press(truth[i] === true ? 'm' : 'n');
    }
    await expect
      .poll(() => page.getByTestId('audit-progress').textContent())
      .toBe(`${String(sample.pairs.length - 1)} labelled · 1 unsure · 0 to go`);
  });

  it('estimates precision, recall and F1 with intervals equal to the engine’s, and keeps the run', async () => {
    await page.getByRole('button', { name: /^Estimate accuracy from \d+ labels$/ }).click();
    const report = page.getByTestId('audit-report');
    await report.waitFor({ timeout: 60_000 });
    const rows = await page.getByTestId('audit-figures').locator('tbody tr').allTextContents();
    expect(rows[0]).toContain(`Precision${figure(expected.precision)}`);
    expect(rows[1]).toContain(`Recall${figure(expected.recall)}`);
    expect(rows[2]).toContain(`F1${figure(expected.f1)}`);
    expect(await page.getByTestId('audit-halve').textContent()).toContain(
      `About ${expected.labelsToHalveInterval.toLocaleString('en')} labels`,
    );
    expect(await report.textContent()).toContain('Cochran');
    await expectAccessible(page, 'audit-report');
    await screenshot(page, 'audit-03-report');

    await page.getByRole('tab', { name: 'Saved runs' }).click();
    const runs = page.locator('[data-testid="runs-table"] tbody tr');
    await expect.poll(() => runs.count()).toBe(1);
    expect(await runs.nth(0).textContent()).toMatch(/Registry audit.*registry-audit-sample/);
    expect(await runs.nth(0).textContent()).toContain(`${String(sample.pairs.length - 1)} (`);
    // Reload, then reopen: the report and its labels come back from the saved run.
    await page.reload();
    await page.getByRole('tab', { name: 'Saved runs' }).click();
    await runs
      .nth(0)
      .getByRole('button', { name: /^Open the audit/ })
      .click();
    await page.getByTestId('audit-report').waitFor();
    expect(await page.getByTestId('audit-report').textContent()).toContain('A saved audit, reopened');
    expect(await page.getByTestId('audit-progress').textContent()).toBe(
      `${String(sample.pairs.length - 1)} labelled · 0 unsure · 0 to go`,
    );
    const reopened = await page.getByTestId('audit-figures').locator('tbody tr').allTextContents();
    expect(reopened).toEqual(rows);
    await expectAccessible(page, 'audit-reopened');
    await screenshot(page, 'audit-04-reopened');
  });

  it('draws and labels from the ground truth in one step on a synthetic sandbox; the estimate is the truth’s', async () => {
    // The sample's size and seed were kept across the reload above, as the sample was.
    expect(await page.getByLabel('Pairs to label').inputValue()).toBe(String(SIZE));
    expect(await page.getByLabel('Seed').inputValue()).toBe(String(SEED));
    await page.getByRole('button', { name: 'Draw and label from the ground truth' }).click();
    const n = String(sample.pairs.length);
    await expect
      .poll(() => page.getByTestId('audit-truth').textContent())
      .toBe(`${n} of the ${n} pairs were labelled from the ground truth, not by a person.`);
    // The pair left unsure by hand is labelled too: the truth knows every record of the sandbox.
    expect(await page.getByTestId('audit-progress').textContent()).toBe(`${n} labelled · 0 unsure · 0 to go`);
    await page.getByRole('button', { name: `Estimate accuracy from ${n} labels` }).click();
    await expect
      .poll(async () => (await page.getByTestId('audit-figures').locator('tbody tr').allTextContents())[0])
      .toContain(`Precision${figure(expectedFromTruth.precision)}`);
    const rows = await page.getByTestId('audit-figures').locator('tbody tr').allTextContents();
    expect(rows[1]).toContain(`Recall${figure(expectedFromTruth.recall)}`);
    expect(rows[2]).toContain(`F1${figure(expectedFromTruth.f1)}`);
    // The report and the kept run say whose labels they are.
    expect(await page.getByTestId('audit-report-truth').textContent()).toMatch(
      /^Every label came from the ground truth, not a person: /,
    );
    await expectAccessible(page, 'audit-ground-truth');
    await screenshot(page, 'audit-05-ground-truth');
    await page.getByRole('tab', { name: 'Saved runs' }).click();
    const runs = page.locator('[data-testid="runs-table"] tbody tr');
    await expect.poll(() => runs.count()).toBe(2);
    expect(await runs.nth(0).textContent()).toContain(`${n} (`);
    expect(await runs.nth(0).textContent()).toContain('; all from the ground truth)');
    expect(await runs.nth(1).textContent()).not.toContain('ground truth');
    await screenshot(page, 'audit-06-saved-runs');
  });

  it('drops the ground truth’s labels when the sample is drawn again to label by hand, and gives back the person’s', async () => {
    await page.getByRole('tab', { name: 'Registry audit' }).click();
    await page.getByRole('button', { name: 'Draw again' }).click();
    // The pair left unsure had no verdict in the saved audit the truth replaced: it is the one left to label.
    await expect
      .poll(() => page.getByTestId('audit-progress').textContent())
      .toBe(`${String(sample.pairs.length - 1)} labelled · 0 unsure · 1 to go`);
    expect(await page.getByTestId('audit-truth').count()).toBe(0);
    await page.getByRole('heading', { name: `Audit pair 3 of ${String(sample.pairs.length)}` }).waitFor();
  });

  it('ran without script errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
