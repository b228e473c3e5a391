/**
 * A long estimate does not hold the console: in real Chromium against the browser host, an estimate runs as a task
 * in the sandbox's engine threads with its progress on the page, while a second tab's job list picks up a job queued
 * by another process and follows it to completion; then the estimate is cancelled from its page. Order of events:
 * the job completes while the estimate still shows its progress. axe on each state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runCli } from '../helpers/cli.ts';
import {
  closeConsole,
  collectPageErrors,
  expectAccessible,
  type HostProcess,
  openConsole,
  prepareSandbox,
  openMatchAssurance,
  screenshot,
} from './helpers.ts';

let dir: string;
let db: string;
let host: HostProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  ({ dir, db } = await prepareSandbox({
    prefix: 'mpi-e2e-long-',
    file: 'long.db',
    tenantId: 'demo',
    people: 1500,
    seed: 4,
  }));
  ({ host, browser, context, page } = await openConsole(join(dir, 'data'), pageErrors));
}, 180_000);

afterAll(async () => {
  await closeConsole(context, browser, host, dir);
});

describe('a long estimate beside the maintenance page', () => {
  it('shows its progress, the job list keeps updating meanwhile, and Cancel stops it', async () => {
    await openMatchAssurance(page, host.launchUrl, db, 'demo');
    await page.getByRole('tab', { name: 'Estimate without labels' }).click();
    // Five million random pairs: many seconds of work unless it is cancelled.
    await page.getByLabel('Random pairs').fill('5000000');
    await page.getByRole('button', { name: "Estimate from this registry's records" }).click();
    const progress = page.getByTestId('task-progress');
    await progress.getByText(/Comparing random pairs · [\d,]+ of 5,000,000/).waitFor({ timeout: 60_000 });
    await expectAccessible(page, 'long-estimate-progress');
    await screenshot(page, 'long-01-estimate-progress');

    // A second window on the Maintenance page, and a job queued by another process (the CLI).
    const other = await context.newPage();
    collectPageErrors(other, pageErrors);
    await other.goto(host.origin);
    await other.getByRole('link', { name: 'Maintenance' }).first().click();
    await other.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
    const queued = await runCli([
      '--db',
      db,
      '--tenant',
      'demo',
      'reindex',
      '--reason',
      'during an estimate',
      '--batch-size',
      '25',
      '--json',
    ]);
    expect(queued.code, queued.stderr).toBe(0);
    const { jobId } = JSON.parse(queued.stdout) as { jobId: string };
    const row = other.locator(`[data-testid="jobs-table"] tbody tr[data-job-id="${jobId}"]`);
    await row.waitFor({ timeout: 60_000 });
    await expect.poll(() => row.textContent(), { timeout: 60_000 }).toMatch(/Completed/);
    // The job started and finished while the estimate was still computing in the first window.
    expect(await progress.isVisible()).toBe(true);
    expect(await progress.textContent()).toMatch(/Comparing random pairs/);
    // Watched for a few seconds, the step says how long it has left at its pace.
    await expect
      .poll(() => progress.textContent(), { timeout: 30_000 })
      .toMatch(
        /Comparing random pairs · [\d,]+ of 5,000,000 · .* · (about [\d a-z]+|under a second) left in this step at its pace so far/,
      );
    await expectAccessible(other, 'long-job-list-during-estimate');
    await screenshot(other, 'long-02-job-list-during-estimate');
    await other.close();

    await progress.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('task-cancelled').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('task-cancelled').textContent()).toBe(
      'The estimate was cancelled; nothing was written.',
    );
    expect(await page.getByTestId('engine-refusal').count()).toBe(0);
    await expectAccessible(page, 'long-estimate-cancelled');
    await screenshot(page, 'long-03-estimate-cancelled');
  }, 240_000);

  it('keeps a running estimate, and its form, when the analyst leaves the page or reloads it', async () => {
    await page.getByRole('tab', { name: 'Estimate without labels' }).click();
    await page.getByLabel('Model version').fill('kept-while-away');
    await page.getByLabel('Random pairs').fill('5000000');
    await page.getByRole('button', { name: "Estimate from this registry's records" }).click();
    const progress = page.getByTestId('task-progress');
    await progress.getByText(/Comparing random pairs · [\d,]+ of 5,000,000/).waitFor({ timeout: 60_000 });

    // Away to Maintenance and back: the same run is still followed, and the form still holds what was typed.
    await page
      .getByRole('link', { name: /Maintenance/ })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
    await page
      .getByRole('link', { name: /Match assurance/ })
      .first()
      .click();
    await progress.getByText(/Comparing random pairs · [\d,]+ of 5,000,000/).waitFor({ timeout: 30_000 });
    expect(await page.getByLabel('Model version').inputValue()).toBe('kept-while-away');
    expect(await page.getByLabel('Random pairs').inputValue()).toBe('5,000,000');
    await screenshot(page, 'long-04-estimate-after-navigation');

    // A reload finds the run the console still computes (console/tasks) and follows it, and the form as it was;
    // Cancel still reaches the run.
    await page.reload();
    await progress.getByText(/Comparing random pairs · [\d,]+ of 5,000,000/).waitFor({ timeout: 30_000 });
    expect(await page.getByLabel('Model version').inputValue()).toBe('kept-while-away');
    await expectAccessible(page, 'long-estimate-after-reload');
    await progress.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('task-cancelled').waitFor({ timeout: 30_000 });

    // An estimate that ends while the page is away is shown when the analyst comes back.
    await page.getByLabel('Random pairs').fill('2000');
    await page.getByRole('button', { name: "Estimate from this registry's records" }).click();
    await page
      .getByRole('link', { name: /Maintenance/ })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
    // The backend's own account of the console's tasks (what the page asks on a reload), read from this page.
    const ended = async (): Promise<string | null> =>
      page.evaluate(async () => {
        const reply = (await (
          await fetch('/api/op/console/tasks', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          })
        ).json()) as {
          value?: { rows: { operation: string; status: string; finishedAt: string | null }[] };
        };
        const rows = (reply.value?.rows ?? []).filter((row) => row.operation === 'matching/estimate');
        const last = rows.at(-1);
        return last?.finishedAt === null || last === undefined ? null : last.status;
      });
    await expect.poll(ended, { timeout: 60_000 }).toBe('completed');
    await page
      .getByRole('link', { name: /Match assurance/ })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Estimate of model kept-while-away' }).waitFor({ timeout: 30_000 });
    expect(await progress.count()).toBe(0);
    await expectAccessible(page, 'long-estimate-arrived-while-away');
    await screenshot(page, 'long-05-estimate-arrived-while-away');
  }, 240_000);

  it('ran without script errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
