/**
 * The Match assurance page end to end, in real Chromium against the real browser host (`npm start`'s program)
 * on a real synthetic sandbox (local mode; the remote-mode runs against `serve` come with remote mode):
 * the active versions come first; a TSV with errors shows every row error by line and rule, without a cell
 * value, and sends nothing; a valid TSV evaluates and the page's numbers equal the CLI's `evaluate --json`
 * for the same labels; the threshold explorer moves by keyboard and its confusion matrix equals the CLI's at
 * the new threshold; an error example opens its per-field waterfall ending on the example's score;
 * calibration shows the model JSON and saves it; no activation control exists anywhere; the workbench labels
 * 20 pairs by keyboard, undoes one, exports them and they evaluate; saved runs reopen and compare. Every
 * state is checked with axe and saved as a screenshot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { LocalEngine } from '../../engine/local-engine.ts';
import { FIELD_NAMES } from '../../engine/contract/fields.ts';
import { limitLabel, scoreRuleText } from '../../engine/contract/score-explanation.ts';
import { labelsToTsv } from '../../engine/contract/label-tsv.ts';
import type { EvaluationReport } from '../../engine/contract/assurance.ts';
import { fieldTitle } from '../../engine/contract/field-title.ts';
import { runCli } from '../helpers/cli.ts';
import {
  closeConsole,
  digits,
  expectAccessible,
  expectBlindPairTable,
  expectEvaluationSummary,
  categoryNames,
  expectFitsNarrowWindow,
  inNarrowWindow,
  expectMetricsTable,
  expectNoActivationControl,
  expectSwatchesMatchBands,
  type HostProcess,
  openConsole,
  openMatchAssurance,
  recordOperations,
  screenshot,
  SCREENSHOTS,
} from './helpers.ts';
import { scratchDir } from '../helpers/temp.ts';
import { thresholdFigure } from '../../renderer/format.ts';

let dir: string;
let db: string;
let labelsFile: string;
let host: HostProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let summary: {
  matchingProfileVersion: number;
  comparatorVersion: string;
  scoreMethod: string;
  scoreMethodVersion: string;
  thresholds: { probable: number; certain: number };
};
const pageErrors: string[] = [];

/** A box on the page, as getBoundingClientRect gives it (this project's types hold no DOM). */
interface DOMRectLike {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/**
 * A chart of the eleven fields names every one under its bars in the narrowest window: a long name wraps within its
 * place rather than being left out (Recharts hid every other one there).
 */
async function expectEveryFieldNamedWhenNarrow(chart: Locator): Promise<void> {
  await inNarrowWindow(chart.page(), async () => {
    await expect
      .poll(() => categoryNames(chart))
      .toEqual(expect.arrayContaining(['Family name', 'Given name', 'Birth date', 'Postal code', 'Phone']));
    expect(await categoryNames(chart)).toHaveLength(11);
  });
}

/** Whether two boxes share any area. */
function overlaps(a: DOMRectLike, b: DOMRectLike): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}
/** Every operation the page sent, by name. */
const sent: string[] = [];

beforeAll(async () => {
  dir = scratchDir('mpi-e2e-assurance-').dir;
  db = join(dir, 'assurance.db');
  labelsFile = join(dir, 'labels.tsv');
  const engine = LocalEngine.open({ dbPath: db });
  const ctx = { tenantId: 'demo', actor: 'test' };
  try {
    await engine.call('sandbox/create', { syntheticPeople: 600, seed: 3 }, ctx);
    const { pairs } = await engine.call('labels/sample', { maxPairs: 400, seed: 2 }, ctx);
    writeFileSync(labelsFile, labelsToTsv(pairs, { header: true }));
    summary = await engine.call('profile/summary', {}, ctx);
  } finally {
    engine.close();
  }
  ({ host, browser, context, page } = await openConsole(join(dir, 'data'), pageErrors, { acceptDownloads: true }));
  recordOperations(page, sent);
}, 180_000);

afterAll(async () => {
  await closeConsole(context, browser, host, dir);
});

async function cliEvaluate(
  thresholds: readonly number[],
  labels = labelsFile,
  dataset = 'labels-1',
): Promise<EvaluationReport> {
  const run = await runCli([
    '--db',
    db,
    '--tenant',
    'demo',
    'evaluate',
    '--labels',
    labels,
    '--dataset',
    dataset,
    '--thresholds',
    thresholds.join(','),
    '--max-errors',
    '20',
    '--json',
  ]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as EvaluationReport;
}

describe('the Match assurance page', () => {
  it('shows the active versions first, before any input', async () => {
    await openMatchAssurance(page, host.launchUrl, db, 'demo');
    await page.getByRole('heading', { name: 'Match assurance', level: 1 }).waitFor();
    await expect
      .poll(() => page.getByTestId('profile-version').textContent())
      .toBe(`version ${String(summary.matchingProfileVersion)}`);
    expect(await page.getByTestId('comparator-version').textContent()).toBe(summary.comparatorVersion);
    expect(await page.getByTestId('score-method-version').textContent()).toBe(
      `${summary.scoreMethod} ${summary.scoreMethodVersion}`,
    );
    // The versions come before the label input in the page's order.
    const versionsTop = (await page.getByRole('region', { name: 'Active versions' }).boundingBox())?.y ?? Infinity;
    const inputTop = (await page.getByLabel('Labels (paste, or drop a file here)').boundingBox())?.y ?? -Infinity;
    expect(versionsTop).toBeLessThan(inputTop);
    await expectNoActivationControl(page);
    await expectAccessible(page, 'assurance-labels-empty');
    await screenshot(page, 'assurance-01-labels-empty');
  });

  it('lists every row error with its line and rule, shows no cell value, and sends nothing', async () => {
    const good = readFileSync(labelsFile, 'utf8').split('\n').slice(1, 4);
    const bad = [
      'leftSource\tleftLocalId\trightSource\trightLocalId\tisMatch',
      ...good,
      'clinic-x\tSECRETVALUE1\tclinic-y\t42', // four columns
      'clinic-x\tSECRETVALUE2\tclinic-y\t43\tmaybe', // unknown outcome
      'clinic-x\tSECRETVALUE3\tclinic-x\tSECRETVALUE3\tmatch', // self-pair
      good[0] ?? '', // duplicate of line 2
    ].join('\n');
    const before = sent.length;
    await page.getByLabel('Labels (paste, or drop a file here)').fill(bad);
    const issues = page.getByTestId('label-issues');
    await issues.waitFor();
    const text = (await issues.textContent()) ?? '';
    expect(text).toMatch(/Line 5.*expected 5 tab-separated columns, found 4/);
    expect(text).toMatch(/Line 6.*column isMatch: expected match\/non-match, true\/false or 1\/0/);
    expect(text).toMatch(/Line 7.*self-pair/);
    expect(text).toMatch(/Line 8.*duplicate pair: duplicates line 2/);
    expect(text).not.toMatch(/SECRETVALUE|clinic-x/);
    await page.getByRole('tab', { name: 'Evaluation' }).click();
    expect(await page.getByRole('button', { name: /^Evaluate/ }).isDisabled()).toBe(true);
    await page.getByText('The label set has errors').waitFor();
    expect(sent.slice(before).filter((name) => name.startsWith('matching/'))).toEqual([]);
    await page.getByRole('tab', { name: 'Labels', exact: true }).click();
    await issues.waitFor();
    await expectAccessible(page, 'assurance-labels-errors');
    await screenshot(page, 'assurance-02-label-errors');
    // Rows with errors count as neither class; one click drops them, keeping the header and the good rows.
    const counts = page.getByTestId('label-counts');
    // One of each is said in the singular: "1 match", not "1 matches".
    expect(await counts.textContent()).toBe('7 rows1 match2 non-matches4 rows with errorsHeader on line 1 skipped.');
    await page.getByTestId('drop-bad-rows').click();
    await expect.poll(() => counts.textContent()).toMatch(/^3 rows/);
    expect(await issues.count()).toBe(0);
    expect(await page.getByLabel('Labels (paste, or drop a file here)').inputValue()).toBe(
      [bad.split('\n')[0], ...good].join('\n'),
    );
  });

  let report: EvaluationReport;

  it('evaluates a valid TSV, and the numbers on the page equal the CLI evaluate --json for the same labels', async () => {
    await page.getByLabel('Labels (paste, or drop a file here)').fill(readFileSync(labelsFile, 'utf8'));
    await expect.poll(() => page.getByTestId('label-issues').count()).toBe(0);
    await expect.poll(() => page.getByTestId('label-counts').textContent()).toMatch(/400 rows/);
    await expectAccessible(page, 'assurance-labels-valid');
    await screenshot(page, 'assurance-03-labels-valid');

    await page.getByRole('tab', { name: 'Evaluation' }).click();
    await page.getByRole('button', { name: /^Evaluate 400 pairs/ }).click();
    await page.getByTestId('evaluation-report').waitFor({ timeout: 60_000 });
    const thresholds = [...new Set([0.5, summary.thresholds.probable, summary.thresholds.certain, 0.9])].sort(
      (a, b) => a - b,
    );
    report = await cliEvaluate(thresholds);
    await expectEvaluationSummary(page, report);
    await expectMetricsTable(page, 'metrics-table', report.thresholds);
    // What blocking recall means, each sentence of it begun as a sentence (the engine's rule among them).
    const recallNote = page.getByRole('note').filter({ hasText: 'What blocking recall means for these figures' });
    expect(await recallNote.innerText()).toMatch(
      /counts those missed pairs as false negatives\. A true pair is found when/,
    );
    // Each error example's fields at a glance: one square a field in the scorer's order, each its band in the report.
    let examples = 0;
    let twinCases = 0;
    for (const [testId, expected] of [
      ['examples-false-positives', report.errorExamples.falsePositives],
      ['examples-false-negatives', report.errorExamples.falseNegatives],
    ] as const) {
      for (const [i, row] of (await page.getByTestId(testId).locator('tbody tr').all()).entries()) {
        const example = expected[i];
        expect(await row.locator('td').first().textContent()).toBe(
          `${example?.left.sourceSystem ?? ''} / ${example?.left.localId ?? ''}`,
        );
        const tones = [];
        for (const swatch of await row.getByRole('img').locator('[data-tone]').all())
          tones.push(await swatch.getAttribute('data-tone'));
        expect(tones).toEqual(
          FIELD_NAMES.map((field) => example?.evidence.find((e) => e.field === field)?.band?.toLowerCase() ?? 'none'),
        );
        // Its "Decided by" names the rule that held it, and for a possible twin the twin rule's case, as the report does.
        const decided = await row.locator('td:nth-child(5)').textContent();
        expect(decided).toBe(
          `${example?.decidedBy ?? ''}${example?.limitedBy === undefined ? '' : ` (${limitLabel(example.limitedBy, example.twinReason)})`}`,
        );
        if (example?.twinReason !== undefined) twinCases++;
        examples++;
      }
    }
    // This sandbox's false positives include twins the profile holds, each naming its case ("Possible twin, …").
    expect(twinCases).toBeGreaterThan(0);
    expect(examples).toBe(report.errorExamples.falsePositives.length + report.errorExamples.falseNegatives.length);
    expect(examples).toBeGreaterThan(0);
    // Above them, the examples grouped by pattern, most common first: every example counted once, in its kind's column,
    // each row's squares read as its words.
    const patternRows = await page.getByTestId('example-patterns').locator('tbody tr').all();
    const counted = { fp: 0, fn: 0 };
    let previous = Number.POSITIVE_INFINITY;
    for (const row of patternRows) {
      const cells = await row.locator('td').allTextContents();
      expect(await row.getByRole('img').getAttribute('aria-label')).toBe(cells[1]);
      const [fp, fn] = [digits(cells[2]), digits(cells[3])];
      expect(fp + fn).toBeLessThanOrEqual(previous);
      previous = fp + fn;
      counted.fp += fp;
      counted.fn += fn;
    }
    expect(patternRows.length).toBeGreaterThan(0);
    expect(patternRows.length).toBeLessThanOrEqual(8);
    const restLine = page.getByTestId('example-patterns-rest');
    const restExamples =
      (await restLine.count()) === 0
        ? 0
        : digits(/, ([\d,]+) examples?\b/.exec((await restLine.textContent()) ?? '')?.[1]);
    expect(counted.fp + counted.fn + restExamples).toBe(examples);
    if (restExamples === 0)
      expect(counted).toEqual({
        fp: report.errorExamples.falsePositives.length,
        fn: report.errorExamples.falseNegatives.length,
      });
    // Choosing the most common pattern lists only its examples, each showing that pattern's squares, counted against
    // every example of their kind; choosing it again (or "Show every example") lists them all again.
    const first = patternRows[0];
    const firstCells = (await first?.locator('td').allTextContents()) ?? [];
    await first?.getByRole('button', { name: /^Show only the / }).click();
    await page.getByTestId('examples-of-pattern').waitFor();
    expect(await first?.getByRole('button', { name: /^Showing only the / }).getAttribute('aria-pressed')).toBe('true');
    for (const [testId, all, shown] of [
      ['examples-false-positives', report.errorExamples.falsePositives.length, digits(firstCells[2])],
      ['examples-false-negatives', report.errorExamples.falseNegatives.length, digits(firstCells[3])],
    ] as const) {
      const section = page.getByTestId(testId);
      if (shown === 0) {
        expect(await section.count()).toBe(0);
        continue;
      }
      const labels = [];
      for (const strip of await section.locator('tbody tr').getByRole('img').all())
        labels.push(await strip.getAttribute('aria-label'));
      expect(labels).toEqual(Array.from({ length: shown }, () => firstCells[1]));
      expect(await page.getByTestId(`${testId}-count`).textContent()).toBe(`${String(shown)} of ${String(all)}`);
    }
    await expectAccessible(page, 'assurance-examples-of-pattern');
    await page
      .getByRole('region', { name: 'Error examples' })
      .screenshot({ path: join(SCREENSHOTS, 'assurance-05d-examples-of-pattern.png') });
    // The pattern chosen is kept across a reload, with the report.
    await page.reload();
    await page.getByTestId('examples-of-pattern').waitFor();
    expect(await page.getByTestId('examples-of-pattern').innerText()).toContain(
      `Only the examples of one pattern: ${firstCells[1] ?? '-'}`,
    );
    await page.getByRole('button', { name: 'Show every example' }).click();
    await expect
      .poll(async () => page.getByTestId('examples-false-positives').locator('tbody tr').count())
      .toBe(report.errorExamples.falsePositives.length);
    // The histogram's legend reads in the order its bars are drawn (non-matches, then matches), and the field table
    // names fields in words, in the report's order.
    const histogram = page.locator('figure[aria-label^="Histogram of scores"]');
    expect(await histogram.locator('.mantine-ChartLegend-legendItemName').allTextContents()).toEqual([
      'Non-matches',
      'Matches',
    ]);
    expect(await page.locator('[data-testid="field-table"] tbody tr td:first-child').allTextContents()).toEqual(
      report.fieldSimilarity.map((f) => fieldTitle(f.field)),
    );
    // The end-to-end table (blocking misses count as false negatives) comes after it, with its own numbers from the CLI.
    const endToEnd = report.endToEnd;
    expect(endToEnd).toBeDefined();
    await page.getByRole('heading', { name: 'End to end (blocking misses count as false negatives)' }).waitFor();
    await expectMetricsTable(page, 'metrics-table-end-to-end', endToEnd?.thresholds ?? []);
    // Both show every column in the narrowest window (each interval under its metric).
    await expectFitsNarrowWindow(page, 'assurance-05-evaluation', [
      page.getByRole('table', { name: 'Metrics per requested threshold', exact: true }).filter({ visible: true }),
      page.getByRole('table', { name: /^End-to-end metrics per requested threshold/ }).filter({ visible: true }),
    ]);
    // The field diagnostics name every field under its bars in the narrowest window too.
    await expectEveryFieldNamedWhenNarrow(page.locator('figure[aria-label^="Mean similarity by field"]'));
    const missed = (endToEnd?.notCandidates.matches ?? 0) + (endToEnd?.notCandidates.nonMatches ?? 0);
    expect(await page.getByTestId('eval-end-to-end-explanation').textContent()).toContain(
      missed === 0
        ? 'Every labelled pair shares a usable blocking key'
        : `${String(endToEnd?.notCandidates.matches)} labelled true pair`,
    );
    await page
      .getByRole('region', { name: 'Metrics per threshold' })
      .screenshot({ path: join(SCREENSHOTS, 'assurance-04b-evaluation-metrics.png') });
    await expectNoActivationControl(page);
    await expectAccessible(page, 'assurance-evaluation-report');
    await screenshot(page, 'assurance-04-evaluation-report');
  });

  /** Presses Tab (at most 12 times) until the focus is on a slider; whether it got there. */
  async function tabToSlider(): Promise<boolean> {
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate<string>("document.activeElement?.getAttribute('role') ?? ''")) === 'slider') return true;
    }
    return false;
  }

  it('moves the threshold explorer by keyboard, and its confusion matrix equals the CLI at the new threshold', async () => {
    const first = report.thresholds[0];
    expect(digits(await page.getByTestId('cm-tp').textContent())).toBe(first?.tp);
    expect(digits(await page.getByTestId('cm-fp').textContent())).toBe(first?.fp);
    // As a keyboard user reaches it: a click on the range control shown above the chart, then Tab to the slider.
    await page.getByTestId('explorer-range').getByText('0–1', { exact: true }).click();
    expect(await tabToSlider()).toBe(true);
    for (let i = 0; i < 3; i++) await page.keyboard.press('PageUp');
    for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowRight');
    const expected = Number(((first?.threshold ?? 0) + 0.037).toFixed(3));
    await expect.poll(async () => Number(await page.getByTestId('threshold-input').inputValue())).toBe(expected);
    const [atNew] = (await cliEvaluate([expected])).thresholds;
    await expect.poll(async () => digits(await page.getByTestId('cm-tp').textContent())).toBe(atNew?.tp);
    expect(digits(await page.getByTestId('cm-fp').textContent())).toBe(atNew?.fp);
    expect(digits(await page.getByTestId('cm-tn').textContent())).toBe(atNew?.tn);
    expect(digits(await page.getByTestId('cm-fn').textContent())).toBe(atNew?.fn);
    expect(await page.getByTestId('explorer-precision').textContent()).toBe(atNew?.precision?.toFixed(3) ?? '—');
    expect(await page.getByTestId('explorer-recall').textContent()).toBe(atNew?.recall?.toFixed(3) ?? '—');
    // The matrix differs from the first threshold's: it really moved.
    expect([atNew?.tp, atNew?.fp]).not.toEqual([first?.tp, first?.fp]);
    await page.getByTestId('threshold-explorer').scrollIntoViewIfNeeded();
    await expectAccessible(page, 'assurance-threshold-explorer');
    await page
      .getByTestId('threshold-explorer')
      .screenshot({ path: join(SCREENSHOTS, 'assurance-05-threshold-explorer.png') });

    // Zoomed to 0.9–1, where Certain lives: the threshold comes to the range, and the keys step through it at full resolution.
    await page.getByTestId('explorer-range').getByText('0.9–1').click();
    await expect.poll(async () => Number(await page.getByTestId('threshold-input').inputValue())).toBe(0.9);
    expect(await tabToSlider()).toBe(true);
    for (let i = 0; i < 75; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(async () => Number(await page.getByTestId('threshold-input').inputValue())).toBe(0.975);
    const [atZoomed] = (await cliEvaluate([0.975])).thresholds;
    await expect.poll(async () => digits(await page.getByTestId('cm-tp').textContent())).toBe(atZoomed?.tp);
    expect(digits(await page.getByTestId('cm-fp').textContent())).toBe(atZoomed?.fp);
    await expectAccessible(page, 'assurance-threshold-explorer-zoomed');
    await page
      .getByTestId('threshold-explorer')
      .screenshot({ path: join(SCREENSHOTS, 'assurance-05b-threshold-explorer-zoomed.png') });

    // On the match-weight axis (log2 odds): a click halfway between the ticks 4 and 6 picks the score of weight 5.
    await page.getByTestId('explorer-range').getByText('Match weight').click();
    const tick = async (label: string): Promise<{ x: number; y: number }> => {
      const box = await page
        .locator('.recharts-cartesian-axis-tick-value')
        .filter({ hasText: label })
        .first()
        .boundingBox();
      if (box === null) throw new Error(`no tick ${label}`);
      return { x: box.x + box.width / 2, y: box.y };
    };
    const four = await tick('4 (0.941)');
    const six = await tick('6 (0.985)');
    await page.mouse.click((four.x + six.x) / 2, four.y - 120);
    await expect.poll(async () => Number(await page.getByTestId('threshold-input').inputValue())).not.toBe(0.975);
    const picked = Number(await page.getByTestId('threshold-input').inputValue());
    expect(Math.abs(Math.log2(picked / (1 - picked)) - 5), `picked ${String(picked)}`).toBeLessThan(0.25);
    const [atPicked] = (await cliEvaluate([picked])).thresholds;
    await expect.poll(async () => digits(await page.getByTestId('cm-tp').textContent())).toBe(atPicked?.tp);
    expect(digits(await page.getByTestId('cm-fp').textContent())).toBe(atPicked?.fp);
    await expectAccessible(page, 'assurance-threshold-explorer-weight');
    await page
      .getByTestId('threshold-explorer')
      .screenshot({ path: join(SCREENSHOTS, 'assurance-05c-threshold-explorer-weight.png') });
    await page.getByTestId('explorer-range').getByText('0–1', { exact: true }).click();
  });

  it('opens an error example on both records’ values beside the weights, and its per-field explanation ending on the example’s score', async () => {
    const example = report.errorExamples.falsePositives[0] ?? report.errorExamples.falseNegatives[0];
    expect(example).toBeDefined();
    const name = `Explain the score of ${example?.left.sourceSystem ?? ''} / ${example?.left.localId ?? ''} and ${example?.right.sourceSystem ?? ''} / ${example?.right.localId ?? ''}`;
    await page.getByRole('button', { name }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('waterfall').waitFor();
    // The comparison viewer: both records' values, field by field, beside each field's band and weight.
    await dialog.getByTestId('pair-records').waitFor();
    // The whole table shows in the dialog, its last column ending inside it (it was once cut at the dialog's edge).
    const dialogBox = await dialog.boundingBox();
    const evidenceBox = await dialog.getByRole('columnheader', { name: 'Evidence, ln(m/u)' }).boundingBox();
    expect((evidenceBox?.x ?? 0) + (evidenceBox?.width ?? 0)).toBeLessThanOrEqual(
      (dialogBox?.x ?? 0) + (dialogBox?.width ?? 0),
    );
    expect(evidenceBox?.width ?? 0).toBeGreaterThan(0);
    const reader = LocalEngine.open({ dbPath: db });
    const truth = await reader.call(
      'matching/explain',
      {
        left: { sourceSystem: example?.left.sourceSystem ?? '', localId: example?.left.localId ?? '' },
        right: { sourceSystem: example?.right.sourceSystem ?? '', localId: example?.right.localId ?? '' },
        withValues: true,
      },
      { tenantId: 'demo', actor: 'test' },
    );
    reader.close();
    const family = dialog
      .getByRole('table', { name: /^The two records side by side/ })
      .getByRole('row', { name: /^Family name/ });
    expect(await family.textContent()).toContain(truth.values?.left.familyName ?? 'missing');
    expect(await family.textContent()).toContain(truth.values?.right.familyName ?? 'missing');
    expect(await family.textContent()).toContain(
      truth.evidence.find((e) => e.field === 'familyName')?.band ?? 'missing',
    );
    expect(await dialog.getByTestId('pair-records-note').textContent()).toMatch(/, as in the report\.$/);
    expect(await dialog.getByTestId('waterfall-total').textContent()).toContain(
      `the pair's score: ${example?.score.toFixed(6) ?? ''}`,
    );
    const stepTable = dialog.getByRole('table', { name: 'Contribution of every field to the score' });
    const steps = await stepTable.locator('tbody tr').count();
    // The waterfall's bands wear the comparison viewer's colours and words: a swatch for every field's step.
    expect(await expectSwatchesMatchBands(stepTable, 3)).toHaveLength(example?.evidence.length ?? -1);
    // Its steps name the fields as the viewer above them does ("Family name"); the exports keep the keys.
    const stepNames = await stepTable.locator('tbody tr td:first-child').allTextContents();
    expect(stepNames).toEqual(expect.arrayContaining(['Family name', 'Birth date']));
    expect(stepNames).not.toContain('familyName');
    expect(await expectSwatchesMatchBands(dialog.getByTestId('pair-records'), 2)).toContain('exact');
    // A limit (no name evidence, possible twin) holding the score adds its cap step.
    expect(steps).toBe((example?.evidence.length ?? 0) + 1 + (example?.limitedBy === undefined ? 0 : 1));
    await expectAccessible(page, 'assurance-waterfall');
    // The dialog is fixed to the viewport: a full-page picture would cut it; the viewport shows it whole.
    await page.screenshot({ path: join(SCREENSHOTS, 'assurance-06-waterfall.png') });
    // And its steps, further down the dialog: the chart and the table of every field's contribution.
    await stepTable.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'assurance-06b-waterfall-steps.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });

  it('calibrates: the model JSON is shown and saved as a file, and no activation control exists', async () => {
    await page.getByRole('tab', { name: 'Calibration' }).click();
    // Certain links without a person: the precision asked of it by default is 0.99, as the quality figures are measured.
    expect(await page.getByLabel('Target precision').inputValue()).toBe('0.99');
    await page.getByLabel('Model version').fill('fs-e2e-1');
    await page.getByLabel('Prior match probability').fill('0.02');
    await page.getByLabel('Smoothing').fill('0');
    await page.getByText('From 0.0001 to 1000').waitFor();
    expect(await page.getByRole('button', { name: /^Calibrate on/ }).isDisabled()).toBe(true);
    await page.getByLabel('Smoothing').fill('1');
    // By default u comes from random pairs of the registry: the report says what it read, and the model's prior is
    // the share given spread over all record pairs.
    expect(await page.getByRole('radio', { name: /Random pairs of this registry/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: /^Calibrate on 400 pairs/ }).click();
    await page.getByTestId('calibration-report').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('cal-u-source').textContent()).toMatch(
      /u comes from [\d,]+ random pairs of the registry's [\d,]+ records .* The prior is restated for random pairs: the share of true pairs among blocking candidates you gave \(0\.020\) times .*: [\d.]+e-\d, set for a registry of [\d,]+ records/,
    );
    const fromRandomPairs = JSON.parse((await page.getByTestId('model-json').textContent()) ?? '') as {
      priorMatchProbability: number;
      priorRecords: number;
    };
    expect(fromRandomPairs.priorMatchProbability).toBeLessThan(0.02);
    expect(fromRandomPairs.priorRecords).toBeGreaterThan(400);
    expect(await page.getByTestId('priors-note').textContent()).toMatch(/spread over all record pairs/);
    // Here the labels cannot show the target, so Certain is the highest held-out score, fifteen nines up on this
    // sandbox: the figure reads short ("1 − 1e-15"), and its title holds the exact value.
    const liveCertain = page.getByTestId('cal-live-certain');
    const certainText = (await liveCertain.textContent()) ?? '';
    const certainTitle = await liveCertain.getAttribute('title');
    expect(certainText.length).toBeLessThanOrEqual(12);
    expect(thresholdFigure(Number(certainTitle?.replace(/^Exactly /, '') ?? certainText)).text).toBe(certainText);
    // With u from random pairs the model learned from the labelled matches only, so the false-positive rate is read
    // over all 200 labelled non-matches, not the 60 held out.
    await page.getByText(/^Not shown: 200 unseen non-matches are too few to show it; about [\d,]+ would$/).waitFor();
    // Nothing below Certain shows more pairs of one person than of two: the page says there is no review band.
    expect(await page.getByTestId('cal-live-probable-note').textContent()).toBe(
      'Certain itself: no review band the labels show is more often one person than two',
    );
    // The review band's load against the review budget (20 candidate pairs per 1,000 records unless asked otherwise).
    expect(await page.getByLabel('Review budget per 1,000 records').inputValue()).toBe('20');
    expect(await page.getByTestId('cal-live-review-load').textContent()).toMatch(/^[\d.,]+ per 1,000 records$/);
    await page.getByText(/^(Candidate pairs in the review band, within|Over) the budget of 20\b/).waitFor();
    await expectAccessible(page, 'assurance-calibration-random-pairs');
    await screenshot(page, 'assurance-07a-calibration-random-pairs');
    // The specification's way: u from the labelled non-matches, the prior as given; then only the held-out ones are
    // unseen.
    await page.getByRole('radio', { name: /Your labelled non-matches/ }).check();
    // Nothing of the registry is read then, so there are no candidate pairs to keep a review budget against.
    expect(await page.getByLabel('Review budget per 1,000 records').isDisabled()).toBe(true);
    await page.getByRole('button', { name: /^Calibrate on 400 pairs/ }).click();
    await page.getByTestId('cal-u-source').waitFor({ state: 'detached', timeout: 60_000 });
    await page.getByText(/^Not shown: 60 held-out non-matches are too few to show it; about [\d,]+ would$/).waitFor();
    const shown = JSON.parse((await page.getByTestId('model-json').textContent()) ?? '') as {
      kind: string;
      modelVersion: string;
      priorMatchProbability: number;
      datasetDigest: string;
    };
    expect(shown).toMatchObject({
      kind: 'fellegi-sunter-model',
      modelVersion: 'fs-e2e-1',
      priorMatchProbability: 0.02,
      datasetDigest: report.datasetDigest,
    });
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save as a file' }).click();
    const saved = join(dir, 'saved-model.json');
    await (await download).saveAs(saved);
    expect(JSON.parse(readFileSync(saved, 'utf8'))).toEqual(shown);
    // How the model was trained (m and u per band, the smoothing) is folded under one line beneath the figures.
    expect(await page.getByTestId('cal-estimation').isVisible()).toBe(false);
    await page.getByText('How the model was trained').click();
    expect(await page.getByTestId('cal-estimation').textContent()).toMatch(/^m_b = \(n_b \+ s\) \/ \(n \+ 4s\)/);
    // The precision target's threshold comes with its margin (the lower 95% bound) and the held-out pairs behind it.
    expect(await page.getByTestId('cal-target-explanation').textContent()).toMatch(/with 95% confidence/);
    expect(await page.getByTestId('cal-target-support').textContent()).toMatch(
      /held-out pairs at or above it|Best achievable: [\d.]+ \(precision/,
    );
    await page
      .getByRole('region', { name: /^Held-out quality of model/ })
      .screenshot({ path: join(SCREENSHOTS, 'assurance-07b-calibration-quality.png') });
    await expectFitsNarrowWindow(page, 'assurance-07-calibration', [
      page.getByRole('table', { name: 'Held-out metrics per threshold', exact: true }).filter({ visible: true }),
    ]);
    // The field weights name every field under its bars in the narrowest window too.
    await expectEveryFieldNamedWhenNarrow(page.locator('figure[aria-label^="ln(m/u) weight per field and band"]'));
    // The chart's marks are named where each name reads whole: here the F1-optimal threshold and the best toward
    // the precision target fall on one score, and live Certain at 0.999 is named to the left of its line (the
    // narrow check above fails a name cut at the plot's edge).
    const markNames = await page
      .getByTestId('threshold-explorer')
      .locator('text.threshold-mark-name')
      .evaluateAll((texts) =>
        texts
          .map((text) => text as unknown as { textContent: string; getBoundingClientRect(): DOMRectLike })
          .map((text) => ({ name: text.textContent, box: text.getBoundingClientRect() })),
      );
    expect(markNames.map((mark) => mark.name)).toEqual(['F1-optimal', 'best toward precision 0.99', 'live Certain']);
    // The card's two pairs of CSV and JSON buttons each say what they save: the table, and the curve.
    const heldOutCard = await page.getByRole('region', { name: 'Held-out threshold metrics' }).innerText();
    expect(heldOutCard).toMatch(/Table\s*CSV\s*JSON/);
    expect(heldOutCard).toMatch(/Curve\s*CSV\s*JSON/);
    for (const [index, mark] of markNames.entries())
      for (const other of markNames.slice(index + 1))
        expect(overlaps(mark.box, other.box), `${mark.name} and ${other.name} overlap`).toBe(false);
    // The thresholds that belong with the model in live matching, and the one document that carries both.
    const liveCard = page.getByRole('region', { name: 'Thresholds to apply with this model' });
    // How they were read is folded under one line, and opens as a person opens it.
    const explanation = page.getByTestId('cal-live-explanation');
    expect(await explanation.isVisible()).toBe(false);
    await liveCard.getByText('How these thresholds were read').click();
    await explanation.waitFor();
    expect(await liveCard.textContent()).toMatch(/[Aa]pply these with (the model|it) \(\{"MatchingRules"/);
    // Live precision is claimed only as far as the held-out labels show it: with its 95% bound.
    expect(await liveCard.textContent()).toMatch(/with 95% confidence/);
    // Beside the active profile on the same labelled pairs the model never learned from, measured alike. Here 60
    // held-out non-matches cannot show the target, so the model's Certain is its highest held-out score: it links
    // almost nothing, and the page says to keep the profile.
    const against = page.getByTestId('cal-against-profile');
    expect(await against.textContent()).toMatch(
      /^Keep the active profileOn the same labelled pairs the model never learned from, it links no more true pairs.*The active profile at Certain 0\.97: recall [\d.]+, precision at least [\d.]+; this model at Certain/,
    );
    expect(await page.getByTestId('priors-note').textContent()).toMatch(
      /A calibration \(0\.020 here\): the share of true pairs among the pairs the scorer meets/,
    );
    // Figures in e-notation are kept whole on one line, with the words around them spaced as before.
    expect(await page.getByTestId('priors-note').textContent()).toMatch(
      /read with u from random pairs: 1e-4 by default, .* beyond \(2e-6 at a million records\), since/,
    );
    const withThresholds = page.waitForEvent('download');
    await page.getByTestId('cal-save-with-thresholds').click();
    const savedRules = join(dir, 'saved-rules.json');
    await (await withThresholds).saveAs(savedRules);
    const rules = JSON.parse(readFileSync(savedRules, 'utf8')) as {
      MatchingRules: { Thresholds: { Certain: number; Probable: number } };
    };
    const { Certain: certain, Probable: probable } = rules.MatchingRules.Thresholds;
    expect(rules).toEqual({
      MatchingRules: { FellegiSunter: shown, Thresholds: { Certain: certain, Probable: probable } },
    });
    expect(probable).toBeLessThanOrEqual(certain);
    // The figures shown are the saved ones: a cut fifteen nines up reads "1 − 1e-15", its exact value in the title.
    for (const [testId, value] of [
      ['cal-live-certain', certain],
      ['cal-live-probable', probable],
    ] as const) {
      const figure = page.getByTestId(testId);
      const { text, exact } = thresholdFigure(value);
      expect(await figure.textContent()).toBe(text);
      expect(await figure.getAttribute('title')).toBe(text === exact ? null : `Exactly ${exact}`);
    }
    await liveCard.screenshot({ path: join(SCREENSHOTS, 'assurance-07c-calibration-live-thresholds.png') });
    await page.getByTestId('governed-procedure').waitFor();
    // The sandbox scores with the default Fellegi-Sunter model (issue 12): the new model is compared with it,
    // setting by setting (prior, smoothing, each field's m and u per band).
    const diff = (await page.getByTestId('model-diff').textContent()) ?? '';
    expect(diff).toMatch(/^Against the active profile's model default-fs-2: \d+ differences/);
    expect(diff).toContain('fs-e2e-1');
    await expectNoActivationControl(page);
    await expectAccessible(page, 'assurance-calibration-report');
    await screenshot(page, 'assurance-07-calibration-report');
  });

  it('labels 60 workbench pairs by keyboard across two draws, keeps them across navigation and reload, and the export evaluates', async () => {
    await page.getByRole('tab', { name: 'Workbench' }).click();
    await page.getByRole('button', { name: 'Load 50 pairs' }).click();
    await page.getByTestId('wb-records').waitFor({ timeout: 60_000 });
    // The pair's field evidence wears the comparison viewer's colours and words, a swatch for each compared field.
    expect(await expectSwatchesMatchBands(page.getByRole('table', { name: 'Field evidence' }), 3)).toHaveLength(11);
    // Both records in the comparison viewer, as a review case shows them: each band's swatch is the colour it names.
    expect(await expectSwatchesMatchBands(page.getByTestId('wb-records'), 2)).toContain('exact');
    await expectAccessible(page, 'assurance-workbench');
    await screenshot(page, 'assurance-08-workbench');
    // The pairs the page drew, as the engine draws them for the same request: where a rule set a pair's score (held
    // to Probable, a trusted identifier, a hard conflict) the page says why under the records, as the viewer does.
    const reader = LocalEngine.open({ dbPath: db });
    const drawn = await reader.call(
      'labels/candidates',
      { minScore: 0, maxScore: 1, order: 'near-thresholds', limit: 50, offset: 0, seed: 1 },
      { tenantId: 'demo', actor: 'test' },
    );
    reader.close();
    const rules = drawn.pairs.map((p) => scoreRuleText(p, p.score));
    const firstRuled = rules.findIndex((rule) => rule !== null) + 1;
    expect(firstRuled, 'a pair the rules set among the first 50').toBeGreaterThan(0);
    const expectRuleOf = async (n: number): Promise<void> => {
      await page.getByRole('heading', { name: `Pair ${String(n)} of 50` }).waitFor();
      const pair = drawn.pairs[n - 1];
      expect(await page.getByTestId('wb-score').textContent()).toBe(`Score ${pair?.score.toFixed(4) ?? ''}`);
      const rule = rules[n - 1] ?? null;
      if (rule === null) expect(await page.getByTestId('wb-rule').count()).toBe(0);
      else expect(await page.getByTestId('wb-rule').textContent()).toBe(rule);
    };
    // No focus by hand: the pair has it after the draw. Pair n gets m when n is odd, n otherwise.
    const key = (n: number): string => (n % 2 === 1 ? 'm' : 'n');
    for (let n = 1; n <= 20; n++) {
      if (n === 1 || n === firstRuled) await expectRuleOf(n);
      await page.keyboard.press(key(n));
    }
    await expect
      .poll(() => page.getByTestId('wb-progress').textContent())
      .toMatch(/^20 labelled · 0 unsure · 30 to go/);
    await page.keyboard.press('Backspace');
    await expect
      .poll(() => page.getByTestId('wb-progress').textContent())
      .toMatch(/^19 labelled · 0 unsure · 31 to go/);
    expect(await page.getByRole('heading', { name: 'Pair 20 of 50' }).count()).toBe(1);
    // A verdict by button: the pair keeps the focus, so the keys go on working.
    await page.getByRole('button', { name: 'Non-match (N)' }).click();
    for (let n = 21; n <= 50; n++) {
      if (n === firstRuled) await expectRuleOf(n);
      await page.keyboard.press(key(n));
    }
    await expect.poll(() => page.getByTestId('wb-progress').textContent()).toMatch(/^50 labelled · 0 unsure · 0 to go/);
    // The next draw continues the same band: 50 new pairs, none already labelled.
    await page.getByRole('button', { name: 'Load 50 more' }).click();
    await page.getByRole('heading', { name: /^Pair 51 of \d+$/ }).waitFor({ timeout: 60_000 });
    for (let n = 51; n <= 60; n++) await page.keyboard.press(key(n));
    await expect.poll(() => page.getByTestId('wb-progress').textContent()).toMatch(/^60 labelled · 0 unsure/);
    await screenshot(page, 'assurance-08b-workbench-second-draw');

    // Away to Maintenance and back: the tab, the pairs and the verdicts are as they were.
    await page.getByRole('link', { name: 'Maintenance' }).first().click();
    await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
    await page.getByRole('link', { name: /Match assurance/ }).click();
    await expect.poll(() => page.getByTestId('wb-progress').textContent()).toMatch(/^60 labelled · 0 unsure/);
    expect(await page.getByRole('heading', { name: /^Pair 61 of \d+$/ }).count()).toBe(1);
    // Blind: the score, the bands and the weights go; the values stay, a differing value marked in words.
    await page.getByRole('switch', { name: 'Blind (hide score and evidence)' }).click();
    await expect.poll(() => page.getByTestId('wb-score').count()).toBe(0);
    await expectBlindPairTable(page.getByTestId('wb-records'));
    expect(await page.getByRole('table', { name: 'Field evidence' }).count()).toBe(0);
    await expectAccessible(page, 'assurance-workbench-blind');
    await screenshot(page, 'assurance-08d-workbench-blind');
    await page.getByRole('switch', { name: 'Blind (hide score and evidence)' }).click();
    await page.getByTestId('wb-score').waitFor();
    // Reload: the verdicts come back (the records' values are never written down, so the pairs are drawn again on demand).
    await page.reload();
    await page.getByTestId('wb-kept').waitFor();
    expect(await page.getByTestId('wb-kept').textContent()).toMatch(/^60 verdicts are kept from before \(60 labels\)/);
    await expectAccessible(page, 'assurance-workbench-kept');
    await screenshot(page, 'assurance-08c-workbench-after-reload');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export TSV' }).click();
    const exported = join(dir, 'workbench.tsv');
    await (await download).saveAs(exported);
    const lines = readFileSync(exported, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('leftSource\tleftLocalId\trightSource\trightLocalId\tisMatch');
    // In the order given: pair n was a match when n is odd.
    expect(lines.slice(1).map((line) => line.split('\t')[4])).toEqual(
      Array.from({ length: 60 }, (_, i) => (key(i + 1) === 'm' ? '1' : '0')),
    );

    // The Labels tab already holds the label file of the first tests: the workbench asks before touching it.
    await page.getByRole('button', { name: 'Use these labels' }).click();
    await page.getByTestId('merge-question').waitFor();
    // Once the dialog has faded in (axe reads colours as they are drawn).
    await expect
      .poll(() => page.evaluate<string>("getComputedStyle(document.querySelector('.mantine-Modal-content')).opacity"))
      .toBe('1');
    expect(await page.getByTestId('merge-question').textContent()).toMatch(
      /holds 400 rows\. Add the \d+ new labels of the workbench to them \(rows already there are not repeated\)/,
    );
    await expectAccessible(page, 'assurance-merge-labels');
    await page.getByRole('button', { name: 'Replace them' }).click();
    await expect
      .poll(() => page.getByTestId('label-counts').textContent())
      .toMatch(/60 rows.*30 matches.*30 non-matches/);
    await page.getByRole('tab', { name: 'Evaluation' }).click();
    await page.getByLabel('Dataset ID').fill('workbench-1');
    await page.getByRole('button', { name: /^Evaluate 60 pairs/ }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Evaluation of workbench-1' }).count(), { timeout: 60_000 })
      .toBe(1);
    const cli = await cliEvaluate(
      [...new Set([0.5, summary.thresholds.probable, summary.thresholds.certain, 0.9])].sort((a, b) => a - b),
      exported,
      'workbench-1',
    );
    expect(await page.getByTestId('eval-digest').textContent()).toBe(cli.datasetDigest);
    expect(digits(await page.getByTestId('eval-pairs').textContent())).toBe(60);
  });

  it('keeps every run: one reopens, two evaluations compare side by side', async () => {
    await page.getByRole('tab', { name: 'Saved runs' }).click();
    const rows = page.locator('[data-testid="runs-table"] tbody tr');
    // The two calibrations: u from random pairs, then from the labels.
    await expect.poll(() => rows.count()).toBe(4);
    // A calibration is listed with the thresholds that go with its model and the precision asked of Certain.
    expect(await rows.allTextContents()).toEqual([
      expect.stringMatching(/Evaluation.*workbench-1/),
      expect.stringMatching(/Calibration \(fs-e2e-1\).*labels-1.*Certain .+ · Probable .+ \(precision 0\.99 asked\)/),
      expect.stringMatching(/Calibration \(fs-e2e-1\).*labels-1.*Certain .+ · Probable .+ \(precision 0\.99 asked\)/),
      expect.stringMatching(/Evaluation.*labels-1/),
    ]);
    await rows.nth(0).getByRole('checkbox').check();
    await rows.nth(3).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Compare the two chosen' }).click();
    const comparison = page.getByTestId('run-comparison');
    await comparison.waitFor();
    expect(await comparison.textContent()).toMatch(/Different labels: the digests differ/);
    expect(await comparison.locator('tbody tr').count()).toBe(report.thresholds.length);
    // The newer run was ticked first, yet A is the earlier one (the labels' evaluation): deltas read as "since".
    expect(await comparison.textContent()).toMatch(
      /A, the earlier run: labels-1 on profile v1, .*B, the later: workbench-1 on profile v1, /,
    );
    const first = report.thresholds[0];
    expect(await comparison.locator('tbody tr').first().locator('td').nth(1).textContent()).toMatch(
      new RegExp(`^${first?.precision?.toFixed(3) ?? 'missing'} → `),
    );
    await expectAccessible(page, 'assurance-saved-runs');
    await screenshot(page, 'assurance-09-saved-runs');
    await rows
      .nth(3)
      .getByRole('button', { name: /^Open the evaluation/ })
      .click();
    await page.getByRole('heading', { name: 'Evaluation of labels-1' }).waitFor();
    expect(await page.getByTestId('eval-digest').textContent()).toBe(report.datasetDigest);
    // A reopened run says so; a report computed before the labels changed says that.
    expect(await page.getByTestId('report-origin').textContent()).toMatch(/^A saved run, reopened.*shown as it was/);
    await page.getByRole('tab', { name: 'Calibration' }).click();
    expect(await page.getByTestId('report-origin').textContent()).toMatch(/^The labels changed since this report/);
    await expectAccessible(page, 'assurance-stale-calibration');
  });

  it('keeps a label set by name, and after a reload reopens it whole into an emptied Labels tab', async () => {
    await page.getByRole('tab', { name: 'Labels', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('label-counts').textContent())
      .toMatch(/60 rows.*30 matches.*30 non-matches/);
    await page.getByLabel('Keep as').fill('workbench sixty');
    await page.getByRole('button', { name: 'Keep this label set' }).click();
    await expect
      .poll(() => page.getByTestId('labels-kept').textContent())
      .toMatch(/^Kept as “workbench sixty”: 60 rows\. Reopen it from Saved runs\./);
    await expectAccessible(page, 'assurance-labels-kept');
    await page.reload();
    // Emptied as a person would: select the text and delete it.
    await page.getByRole('tab', { name: 'Labels', exact: true }).click();
    const box = page.getByLabel('Labels (paste, or drop a file here)');
    await box.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await expect.poll(() => box.inputValue()).toBe('');
    await page.getByRole('tab', { name: 'Saved runs' }).click();
    const row = page.locator('[data-testid="runs-table"] tbody tr').filter({ hasText: 'Label set' });
    expect(await row.textContent()).toMatch(/Label set.*workbench sixty.*60 \(30 matches\)/);
    await row.getByRole('button', { name: 'Open the label set workbench sixty' }).click();
    await expect
      .poll(() => page.getByTestId('label-counts').textContent())
      .toMatch(/60 rows.*30 matches.*30 non-matches/);
    expect(await page.getByRole('tab', { name: 'Labels', exact: true }).getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'assurance-09b-label-set-reopened');
  });

  it('summarises a long label file instead of laying it out as text, and shows the text on request', async () => {
    await page.getByRole('tab', { name: 'Labels', exact: true }).click();
    const [header = '', ...rows] = readFileSync(labelsFile, 'utf8').trimEnd().split('\n');
    let body = rows;
    while (body.join('\n').length <= 100_000) body = [...body, ...rows];
    const big = [header, ...body].join('\n') + '\n';
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'big.tsv', mimeType: 'text/tab-separated-values', buffer: Buffer.from(big) });
    const loaded = page.getByTestId('labels-loaded');
    await loaded.waitFor();
    expect(await page.getByLabel('Labels (paste, or drop a file here)').count()).toBe(0);
    // The preview still reads every row (the repeats are duplicates, listed as errors).
    await expect
      .poll(async () => digits((await page.getByTestId('label-counts').textContent())?.split('rows')[0] ?? ''))
      .toBe(body.length);
    await page.getByText(/Fix these before running/).waitFor();
    await expectAccessible(page, 'assurance-labels-long-file');
    await screenshot(page, 'assurance-10-labels-long-file');
    await loaded.getByRole('button', { name: 'Show and edit the text' }).click();
    expect(await page.getByLabel('Labels (paste, or drop a file here)').inputValue()).toBe(big);
  });

  it("fills the threshold chips with the profile's thresholds even when they arrive after the panel opens", async () => {
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const isSummary = (url: URL): boolean => decodeURIComponent(url.pathname).endsWith('/api/op/profile/summary');
    await page.route(isSummary, async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.reload();
      await page.getByRole('heading', { name: 'Match assurance', level: 1 }).waitFor();
      await page.getByRole('tab', { name: 'Evaluation' }).click();
      const chips = page.getByRole('region', { name: 'Evaluate the active profile' }).locator('.mantine-Pill-label');
      await expect.poll(() => chips.allTextContents()).toEqual(['0.5', '0.9']);
      release();
      const expected = [...new Set([0.5, summary.thresholds.probable, summary.thresholds.certain, 0.9])]
        .sort((a, b) => a - b)
        .map(String);
      await expect.poll(() => chips.allTextContents()).toEqual(expected);
      // A chip that is not a threshold is refused as it is typed, and the field says why.
      const field = page.getByRole('region', { name: 'Evaluate the active profile' }).getByLabel('Thresholds');
      for (const bad of ['1.5', 'abc', '-0.1']) {
        await field.click();
        await page.keyboard.type(bad);
        await page.keyboard.press('Enter');
        await page.getByText(`“${bad}” is not a threshold: each is a number from 0 to 1`).waitFor();
        expect(await chips.allTextContents()).toEqual(expected);
      }
    } finally {
      release();
      await page.unroute(isSummary);
    }
  });

  it('ran without script errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
