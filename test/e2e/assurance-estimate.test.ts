/**
 * "Estimate without labels" on the Match assurance page, in real Chromium against the real browser host on a
 * real synthetic sandbox: the request's bounds are enforced before anything is sent; the estimate's figures on
 * the page (convergence, match share, suggested thresholds, every model-estimated row) and its model JSON equal
 * the CLI's `estimate --json` for the same seed and options on the same database; the model saves as a file;
 * the figures say they are estimated, not measured; no activation control exists; axe finds no serious or
 * critical violation. A fit made to fail its checks says so, with no estimated figure, review band or threshold of
 * its own, on the page and in the CLI. Screenshots go to test-results/screenshots/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LocalEngine } from '../../engine/local-engine.ts';
import type { EstimateOutputSchema } from '../../engine/contract/estimate.ts';
import type { z } from 'zod';
import { estimatedRows, reviewBandText, sampleCaption } from '../../renderer/pages/assurance/estimate-figures.ts';
import { runCli } from '../helpers/cli.ts';
import {
  closeConsole,
  digits,
  expectAccessible,
  expectFitsNarrowWindow,
  expectNoActivationControl,
  type HostProcess,
  openConsole,
  openMatchAssurance,
  recordOperations,
  screenshot,
  SCREENSHOTS,
} from './helpers.ts';
import { scratchDir } from '../helpers/temp.ts';
import { createTenant } from '../../engine/operations/sandbox.ts';
import { ingestStream } from '../../engine/operations/ingest.ts';
import { defaultProfile } from '../../engine/profile/default-profile.ts';
import { defaultModel } from '../../engine/scoring/default-model.ts';
import { EXTRACT_SOURCE, generateExtract } from '../../engine/synthetic/extract.ts';
import type { FellegiSunterModel } from '../../engine/contract/profile.ts';
import { thresholdFigure } from '../../renderer/format.ts';

type EstimateOutput = z.infer<typeof EstimateOutputSchema>;

let dir: string;
let db: string;
let host: HostProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];
const sent: string[] = [];
const OPTIONS = {
  modelVersion: 'fs-est-e2e',
  seed: 11,
  randomPairs: 20_000,
  maxCandidates: 50_000,
  // Below the sandbox's records: the estimate reads a seeded sample, and the page says so.
  maxRecords: 1_000,
  smoothing: 0.5,
  targetPrecision: 0.995,
  targetRecall: 0.99,
  reviewBudget: 40,
};

beforeAll(async () => {
  dir = scratchDir('mpi-e2e-estimate-').dir;
  db = join(dir, 'estimate.db');
  const engine = LocalEngine.open({ dbPath: db });
  try {
    await engine.call('sandbox/create', { syntheticPeople: 600, seed: 3 }, { tenantId: 'demo', actor: 'test' });
    // A second tenant whose estimate is made to fail: its profile's model has m equal to u on every field, so EM
    // started there cannot tell matches from non-matches (estimate-degenerate.test.ts), on names and birth dates only.
    const flat = { tenantId: 'flat', actor: 'test' };
    const base = defaultProfile([{ SourceSystem: EXTRACT_SOURCE }]);
    const model = defaultModel(base.Comparators.Version);
    const fields: FellegiSunterModel['fields'] = {};
    for (const [field, p] of Object.entries(model.fields))
      fields[field as keyof typeof fields] = { m: { ...p.u }, u: { ...p.u } };
    createTenant(engine.env, flat, {
      ...base,
      MatchingRules: { ...base.MatchingRules, FellegiSunter: { ...model, modelVersion: 'flat', fields } },
    });
    const extract = generateExtract({
      records: 2_000,
      duplicateShare: 0.1,
      seed: 5,
      fields: 'names-dates',
      errors: 'typical',
    });
    await ingestStream(
      engine.env,
      flat,
      EXTRACT_SOURCE,
      extract.records.map((r) => JSON.stringify(r.patient)).join('\n'),
    );
  } finally {
    engine.close();
  }
  ({ host, browser, context, page } = await openConsole(join(dir, 'data'), pageErrors, { acceptDownloads: true }));
  recordOperations(page, sent);
}, 180_000);

afterAll(async () => {
  await closeConsole(context, browser, host, dir);
});

async function cliEstimate(): Promise<EstimateOutput> {
  const run = await runCli([
    '--db',
    db,
    '--tenant',
    'demo',
    'estimate',
    '--model-version',
    OPTIONS.modelVersion,
    '--seed',
    String(OPTIONS.seed),
    '--random-pairs',
    String(OPTIONS.randomPairs),
    '--max-candidates',
    String(OPTIONS.maxCandidates),
    '--max-records',
    String(OPTIONS.maxRecords),
    '--smoothing',
    String(OPTIONS.smoothing),
    '--target-precision',
    String(OPTIONS.targetPrecision),
    '--target-recall',
    String(OPTIONS.targetRecall),
    '--review-budget',
    String(OPTIONS.reviewBudget),
    '--json',
  ]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as EstimateOutput;
}

describe('Estimate without labels on the Match assurance page', () => {
  it('refuses out-of-bounds options before sending anything', async () => {
    await openMatchAssurance(page, host.launchUrl, db, 'demo');
    await page.getByRole('tab', { name: 'Estimate without labels' }).click();
    const before = sent.length;
    await page.getByLabel('Random pairs').fill('999');
    await page.getByText('A whole number from 1,000 to 5,000,000').waitFor();
    await page.getByLabel('Target recall').fill('1');
    await page.getByText('A share strictly between 0 and 1').waitFor();
    await page.getByLabel('Records read at most').fill('999');
    await page.getByText('A whole number from 1,000 to 2,000,000').waitFor();
    expect(await page.getByRole('button', { name: "Estimate from this registry's records" }).isDisabled()).toBe(true);
    expect(sent.slice(before).filter((name) => name.startsWith('matching/'))).toEqual([]);
    await expectNoActivationControl(page);
    await expectAccessible(page, 'assurance-estimate-request');
    await screenshot(page, 'assurance-10-estimate-request');
  });

  it('estimates, and the page shows exactly what the CLI estimate --json gives for the same seed and options', async () => {
    await page.getByLabel('Model version').fill(OPTIONS.modelVersion);
    await page.getByLabel('Seed').fill(String(OPTIONS.seed));
    await page.getByLabel('Random pairs').fill(String(OPTIONS.randomPairs));
    await page.getByLabel('Max candidate pairs').fill(String(OPTIONS.maxCandidates));
    await page.getByLabel('Records read at most').fill(String(OPTIONS.maxRecords));
    await page.getByLabel('Smoothing').fill(String(OPTIONS.smoothing));
    await page.getByLabel('Target precision').fill(String(OPTIONS.targetPrecision));
    await page.getByLabel('Target recall').fill(String(OPTIONS.targetRecall));
    await page.getByLabel('Review budget per 1,000 records').fill(String(OPTIONS.reviewBudget));
    await page.getByRole('button', { name: "Estimate from this registry's records" }).click();
    await page.getByTestId('estimate-report').waitFor({ timeout: 120_000 });
    const cli = await cliEstimate();
    const { report, model } = cli;

    const shown = JSON.parse((await page.getByTestId('model-json').textContent()) ?? '') as unknown;
    expect(shown).toEqual(model);
    // The CLI's exact thresholds, shown as the page shows figures (a cut fifteen nines up reads "1 − 1e-15").
    const certain = thresholdFigure(report.suggestedThresholds.Certain).text;
    const probable = thresholdFigure(report.suggestedThresholds.Probable).text;
    expect(await page.getByTestId('est-certain').textContent()).toBe(certain);
    expect(await page.getByTestId('est-probable').textContent()).toBe(probable);
    expect(await page.getByTestId('est-save-with-thresholds').textContent()).toBe(
      `Save with its thresholds (Certain ${certain}, Probable ${probable})`,
    );
    expect(await page.getByTestId('est-match-share').textContent()).toBe(report.candidateMatchShare.toFixed(6));
    expect(digits(await page.getByTestId('est-records').textContent())).toBe(report.records);
    expect(report.sampledRecords).toBe(OPTIONS.maxRecords);
    expect(await page.getByTestId('est-sampled').textContent()).toBe(sampleCaption(report));
    expect(digits(await page.getByTestId('est-modelled').textContent())).toBe(report.candidates.modelled);
    expect(await page.getByTestId('est-suggestion').textContent()).toBe(report.suggestion);
    expect(report.reviewBand?.budgetPerThousandRecords).toBe(OPTIONS.reviewBudget);
    expect(await page.getByTestId('est-review-band').textContent()).toBe(reviewBandText(report));
    // How the model was estimated is folded under one line, and opens as a person opens it.
    expect(await page.getByTestId('est-sessions').isVisible()).toBe(false);
    await page.getByText('How the model was estimated: u, the m sessions, the log-likelihood').click();
    await page.getByTestId('est-sessions').waitFor();
    expect(await page.getByTestId('est-method-more').textContent()).toContain(
      `Log-likelihood ${report.convergence.logLikelihood.toFixed(3)}.`,
    );
    const convergence = (await page.getByTestId('est-convergence').textContent()) ?? '';
    expect(convergence).toContain(
      report.convergence.converged
        ? `Converged after ${String(report.convergence.iterations)} iteration`
        : 'Did not converge',
    );

    const expected = estimatedRows(report);
    // Every threshold the CLI reports, and both suggested ones, are rows of the page's table.
    expect(expected.map((r) => r.threshold)).toEqual(
      expect.arrayContaining([
        ...report.thresholds.map((t) => t.threshold),
        report.suggestedThresholds.Certain,
        report.suggestedThresholds.Probable,
      ]),
    );
    const rows = page.locator('[data-testid="estimate-table"] tbody tr');
    expect(await rows.count()).toBe(expected.length);
    const fmt = (v: number | null): string => (v === null ? '—' : v.toFixed(4));
    for (const [i, r] of expected.entries()) {
      const cells = await rows.nth(i).locator('td').allTextContents();
      expect(cells[0]?.replace(/suggested.*$/, '')).toBe(String(r.threshold));
      expect(digits(cells[1])).toBe(r.pairsAtOrAbove);
      // Expected counts grouped as counts are ("1,728.8").
      expect(cells.slice(2).map((c, k) => (k < 3 ? c.replace(/,/g, '') : c))).toEqual([
        r.expectedTruePositives.toFixed(1),
        r.expectedFalsePositives.toFixed(1),
        r.expectedFalseNegatives.toFixed(1),
        fmt(r.precision),
        fmt(r.recall),
        fmt(r.f1),
      ]);
    }
    expect(await page.getByTestId('est-not-measured').textContent()).toMatch(
      /not measured against labels.*blocking never proposes/,
    );
    // The fit's checks, and what its prior means beside the profile's and a calibration's.
    expect(await page.getByTestId('est-fit').textContent()).toMatch(/converged/);
    // A fit that passed is no error: its report is read in its place, and none of its callouts is an alert, which a
    // screen reader would announce at once, cutting into what it was reading.
    expect(report.fit?.status).toBe('fitted');
    expect(await page.getByRole('note').count()).toBeGreaterThan(2);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByTestId('priors-note').textContent()).toMatch(
      /The estimate \([\d.e-]+ here\): λ, the share of true pairs among the blocking candidates/,
    );

    // The field weights table is the model's m, u and ln(m/u), one row per field and band.
    expect(await page.locator('[data-testid="weights-table"] tbody tr').count()).toBe(
      Object.keys(model.fields).length * 4,
    );
    // Fields read in words; the chart's legend in band order, as its bars stand.
    expect(await page.locator('[data-testid="weights-table"] tbody tr td:first-child').first().textContent()).toBe(
      'Family name',
    );
    expect(
      await page
        .locator('figure[aria-label^="ln(m/u) weight per field and band"] .mantine-ChartLegend-legendItemName')
        .allTextContents(),
    ).toEqual(['Exact', 'Strong', 'Partial', 'Different']);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save as a file' }).click();
    const saved = join(dir, 'estimated-model.json');
    await (await download).saveAs(saved);
    expect(JSON.parse(readFileSync(saved, 'utf8'))).toEqual(model);

    const diff = (await page.getByTestId('model-diff').textContent()) ?? '';
    expect(diff).toMatch(/^Against the active profile's model default-fs-2: \d+ differences/);
    await page.getByTestId('governed-procedure').waitFor();
    expect(await page.getByTestId('governed-procedure').textContent()).toContain('profile apply');
    await expectNoActivationControl(page);
    await expectAccessible(page, 'assurance-estimate-report');
    await screenshot(page, 'assurance-11-estimate-report');
    await expectFitsNarrowWindow(page, 'assurance-11-estimate-report', [page.getByTestId('estimate-table')]);
    await page
      .getByRole('region', { name: 'Precision and recall per threshold, estimated by the model' })
      .screenshot({ path: join(SCREENSHOTS, 'assurance-11b-estimate-curves.png') });

    // What the model with its thresholds would change on the registry: a dry run, examples open in the viewer.
    await page.getByRole('button', { name: 'Preview the impact' }).click();
    const impact = page.getByTestId('impact-preview-report');
    await impact.waitFor();
    expect(await impact.getByRole('status').textContent()).toMatch(
      /linked records and [\d,]+ candidate pairs compared\. A reconciliation under this model would open [\d,]+ review cases\./,
    );
    expect(await impact.getByRole('table', { name: 'Changes by kind' }).locator('tbody tr').count()).toBe(4);
    // The same changes by the candidate's score band: each kind's row adds up to its count.
    const cells = async (name: string): Promise<string[][]> => {
      const rows = impact.getByRole('table', { name }).locator('tbody tr');
      return Promise.all((await rows.all()).map((row) => row.locator('td').allTextContents()));
    };
    const number = (text: string): number => Number(text.replace(/,/g, ''));
    const counts = (await cells('Changes by kind')).map(([kind = '', count = '']) => [kind, number(count)] as const);
    const byBand = (await cells("Changes by the candidate's score band")).map(
      ([kind = '', ...bands]) => [kind, bands.reduce((sum, c) => sum + number(c), 0)] as const,
    );
    expect(byBand).toEqual(counts.filter(([, count]) => count > 0));
    expect(await impact.getByRole('table', { name: 'Changes by source' }).locator('tbody tr').count()).toBeGreaterThan(
      0,
    );
    const compare = impact.getByRole('button', { name: 'Compare' });
    if ((await compare.count()) > 0) {
      await compare.first().click();
      await impact.getByTestId('pair-records').waitFor();
    }
    await expectAccessible(page, 'assurance-estimate-impact');
    await impact.screenshot({ path: join(SCREENSHOTS, 'assurance-11c-estimate-impact.png') });
  });

  it('keeps the estimate among the saved runs, and reopens it whole after the view was left', async () => {
    const model = JSON.parse((await page.getByTestId('model-json').textContent()) ?? '') as {
      modelVersion: string;
      datasetDigest: string;
    };
    const shown = await page.getByTestId('est-certain').textContent();
    await page.getByRole('tab', { name: 'Saved runs' }).click();
    const row = page.locator('[data-testid="runs-table"] tbody tr').filter({ hasText: 'Estimate without labels' });
    await row.waitFor();
    expect(await row.count()).toBe(1);
    const text = (await row.textContent()) ?? '';
    expect(text).toContain(`Estimate without labels (${model.modelVersion})`);
    expect(text).toContain(model.datasetDigest.slice(0, 12));
    expect(text).toMatch(/candidate pairs \(about [\d,]+ true, estimated\)/);
    // The model's suggested thresholds, which tell apart two estimates of the same records.
    expect(text).toContain(`Certain ${shown ?? ''} · Probable `);
    // The saved-runs list has no comparison box for an estimate (only evaluations compare).
    expect(await row.getByRole('checkbox').count()).toBe(0);
    await expectAccessible(page, 'assurance-estimate-saved');
    await screenshot(page, 'assurance-12-estimate-saved');
    // Leave the estimate view empty, then reopen the saved run: the same model comes back.
    await page.reload();
    await page.getByRole('link', { name: /Match assurance/ }).click();
    await page.getByRole('tab', { name: 'Saved runs' }).click();
    await page.getByRole('button', { name: /^Open the estimate of / }).click();
    await page.getByTestId('estimate-report').waitFor();
    expect(JSON.parse((await page.getByTestId('model-json').textContent()) ?? '')).toEqual(model);
  });

  it('says plainly when the fit fails its checks, and shows no figure or threshold it cannot support', async () => {
    await openMatchAssurance(page, host.launchUrl, db, 'flat');
    await page.getByRole('tab', { name: 'Estimate without labels' }).click();
    await page.getByLabel('Model version').fill('fs-est-flat');
    await page.getByLabel('Random pairs').fill('50000');
    await page.getByRole('button', { name: "Estimate from this registry's records" }).click();
    await page.getByTestId('estimate-report').waitFor({ timeout: 120_000 });

    // The verdict interrupts: the analyst must not apply this as a fitted model.
    const fit = page.getByRole('alert').filter({ hasText: 'The estimate failed its checks' });
    expect(await fit.textContent()).toMatch(/do not apply it as a fitted model.*the model is a fallback/);
    // Never called converged, and the EM it names is the first start's, whose checks are listed above.
    expect(await page.getByTestId('est-convergence').textContent()).toMatch(
      /^No converged fitNo fit is reported as converged: no start passed every check/,
    );
    // No model-estimated precision or recall (a refused fit's mixture gave 0.0000 at every threshold), no curves,
    // no review band; the profile's thresholds stay, and nothing invites applying the fallback.
    expect(await page.getByTestId('est-expected').textContent()).toMatch(/^not estimated: the fit failed/);
    expect(await page.getByTestId('est-no-figures').textContent()).toMatch(
      /None estimated: the fit failed its checks.*Measure the fallback model with labels/,
    );
    expect(await page.getByTestId('estimate-table').count()).toBe(0);
    expect(await page.getByTestId('est-not-measured').count()).toBe(0);
    expect(await page.getByTestId('est-certain').textContent()).toBe('0.97');
    expect(await page.getByTestId('est-probable').textContent()).toBe('0.5');
    expect(await page.getByTestId('est-review-band').textContent()).toMatch(/^No review band is estimated/);
    expect(await page.getByTestId('est-suggestion').textContent()).toMatch(
      /^No thresholds are suggested: the fit did not pass its checks.*no precision or recall is estimated/,
    );
    expect(await page.getByTestId('est-apply').textContent()).toMatch(/^The fit failed, so this model is the fallback/);
    // Nothing offers to save the fallback with the profile's thresholds as if they were suggested for it.
    expect(await page.getByTestId('est-save-with-thresholds').count()).toBe(0);
    await expectNoActivationControl(page);
    await expectAccessible(page, 'assurance-estimate-failed');
    await screenshot(page, 'assurance-13-estimate-failed');

    // Among the saved runs it is the failed fit it was, with no expected true pairs and no thresholds.
    await page.getByRole('tab', { name: 'Saved runs' }).click();
    const row = page.locator('[data-testid="runs-table"] tbody tr').filter({ hasText: 'fs-est-flat' });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/candidate pairs \(the fit failed its checks: nothing estimated\)/);

    // The CLI says the same in words on the same records.
    const run = await runCli([
      '--db',
      db,
      '--tenant',
      'flat',
      'estimate',
      '--model-version',
      'fs-est-flat-cli',
      '--random-pairs',
      '50000',
      '--out',
      join(dir, 'flat-fallback.json'),
      '--with-thresholds',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^The estimate did not pass its checks: do not apply it as a fitted model/);
    expect(run.stdout).toContain('No precision or recall is estimated: the fit failed its checks');
    expect(run.stdout).not.toContain('Model-estimated (not measured)');
    expect(run.stdout).toMatch(/review band +none estimated \(the fit failed/);
    expect(run.stdout).toMatch(/EM +NOT reported as converged \(no start passed its checks\); the first start/);
    // Written as asked, and named for what it is: the fallback, with the thresholds the profile already has.
    expect(run.stdout).toContain(
      "The fallback model (not a fit of these records) and the active profile's thresholds were written to",
    );
    const written = JSON.parse(readFileSync(join(dir, 'flat-fallback.json'), 'utf8')) as {
      MatchingRules: { Thresholds: { Certain: number; Probable: number } };
    };
    expect(written.MatchingRules.Thresholds).toEqual({ Certain: 0.97, Probable: 0.5 });
  });

  it('ran without script errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
