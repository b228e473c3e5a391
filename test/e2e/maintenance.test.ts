/**
 * The console end to end, in real Chromium against the real browser host (`npm start`'s program) and real
 * SQLite sandboxes: first run creates a synthetic sandbox with progress; a reconciliation started from the
 * form updates its phases and counters live until it completes and stays in the history; the batch size is
 * refused as it is typed; the engine's refusal of an external source is shown at its field; a re-index that
 * is still queued (the sandbox's worker is disabled by its configuration) is cancelled at once. Every page
 * and state is checked with axe and saved as a screenshot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { LocalEngine } from '../../engine/local-engine.ts';
import { EngineError } from '../../engine/contract/errors.ts';
import { MaintenanceSettingsSchema } from '../../engine/config/maintenance.ts';
import { runWorker } from '../../engine/jobs/worker.ts';
import { BATCH_SIZE_MESSAGE } from '../../renderer/pages/maintenance/start-job-form.ts';
import {
  closeConsole,
  expectAccessible,
  expectFitsNarrowWindow,
  type HostProcess,
  openConsole,
  screenshot,
} from './helpers.ts';
import { scratchDir } from '../helpers/temp.ts';

let dir: string;
let host: HostProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

/**
 * A sandbox whose configuration disables the background worker, so jobs started on it stay queued. Its history
 * holds a re-index that failed (a storage fault injected before its first batch was written) and a reconciliation a worker left mid-run (stopped after three batches,
 * its lease released): a job that stays `running` with counters, for a stable look at the running state.
 */
async function queuedOnlySandbox(path: string): Promise<void> {
  const engine = LocalEngine.open({ dbPath: path });
  const ctx = { tenantId: 'queued', actor: 'test' };
  try {
    await engine.call('sandbox/create', { syntheticPeople: 20, seed: 5 }, ctx);
    await engine.call('maintenance/reindex', { reason: 'Interrupted by a storage fault', batchSize: 25 }, ctx);
    // A fault injected before the first batch's write (the storage failing): the job fails, nothing written.
    const storageFault = new EngineError(
      'internal',
      'the storage refused the write (disk full); nothing of the batch was written and no identity was changed',
    );
    await runWorker(engine.env, {
      tenants: ['queued'],
      once: true,
      hooks: {
        beforeWrite: () => {
          throw storageFault;
        },
      },
    });
    await engine.call('maintenance/reconcile', { reason: 'Left running by a worker that stopped', batchSize: 1 }, ctx);
    const stop = new AbortController();
    let batches = 0;
    await runWorker(engine.env, {
      tenants: ['queued'],
      signal: stop.signal,
      hooks: {
        afterCommit: () => {
          if (++batches === 3) stop.abort();
        },
      },
    });
    engine.env.changeSettings((current) => ({
      next: { ...current, Maintenance: MaintenanceSettingsSchema.parse({ WorkerEnabled: false }) },
      commit: () => undefined,
    }));
  } finally {
    engine.close();
  }
}

/** A sandbox whose history holds 105 jobs (each re-index cancelled while queued): more than one page of the list. */
async function manyJobsSandbox(path: string): Promise<void> {
  const engine = LocalEngine.open({ dbPath: path });
  const ctx = { tenantId: 'history', actor: 'test' };
  try {
    await engine.call('sandbox/create', { syntheticPeople: 5, seed: 5 }, ctx);
    for (let i = 0; i < 105; i++) {
      const { jobId } = await engine.call(
        'maintenance/reindex',
        { reason: `Staged key ${String(i)}`, batchSize: 25 },
        ctx,
      );
      await engine.call('jobs/cancel', { jobId }, ctx);
    }
  } finally {
    engine.close();
  }
}

beforeAll(async () => {
  dir = scratchDir('mpi-e2e-').dir;
  await queuedOnlySandbox(join(dir, 'queued-only.db'));
  await manyJobsSandbox(join(dir, 'many-jobs.db'));
  ({ host, browser, context, page } = await openConsole(join(dir, 'data'), pageErrors));
});

afterAll(async () => {
  await closeConsole(context, browser, host, dir);
});

interface Observed {
  status: string | undefined;
  scanned: string | undefined;
  rate: string | undefined;
  eta: string | undefined;
  phases: string;
}

/** Runs in the page: records the job's status, scanned counter, rate and phase statuses at every DOM change. */
const RECORD_JOB_RENDERS = `(() => {
  const seen = [];
  window.seen = seen;
  const record = () => {
    const detail = document.querySelector('[data-testid="job-detail"]');
    seen.push({
      status: detail ? detail.getAttribute('data-job-status') : undefined,
      scanned: document.querySelector('[data-testid="counter-scanned"]')?.textContent,
      rate: document.querySelector('[data-testid="job-rate"]')?.textContent,
      eta: document.querySelector('[data-testid="job-eta"]')?.textContent,
      phases: [...document.querySelectorAll('[data-phase]')].map((p) => p.getAttribute('data-phase') + ':' + p.getAttribute('data-phase-status')).join(','),
    });
  };
  record();
  new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
})()`;

describe('the console in a browser', () => {
  it('refuses the API to a page that has not opened the launch link', async () => {
    const stranger = await browser.newContext();
    const other = await stranger.newPage();
    await other.goto(`${host.origin}/`);
    await expect.poll(() => other.getByText('This page is not connected to a console session').count()).toBe(1);
    await stranger.close();
  });

  it('offers a synthetic sandbox on first run and creates it with progress', async () => {
    // A console with nothing open asks nothing it would be refused (the browser logs every refusal as an error).
    const refused: string[] = [];
    const onResponse = (response: Response): void => {
      if (response.status() >= 400) refused.push(`${String(response.status())} ${response.url()}`);
    };
    page.on('response', onResponse);
    await page.goto(host.launchUrl);
    await page.getByRole('heading', { name: 'Welcome to the MPI Console' }).waitFor();
    await page.waitForLoadState('networkidle');
    page.off('response', onResponse);
    expect(refused).toEqual([]);
    expect(new URL(page.url()).search).toBe(''); // the token left the address bar
    await expect.poll(() => page.getByLabel('Folder').inputValue()).toBe(join(dir, 'data'));
    await expectAccessible(page, 'welcome');
    await screenshot(page, '01-welcome');

    // A file name the backend refuses: the field says why, the alert says what to do, and nothing is written.
    await page.getByLabel('File name').fill('../escape.db');
    await page.getByRole('button', { name: 'Create sandbox' }).click();
    await page.getByText(/^a file name is letters, digits/).waitFor();
    await page.getByText('Correct the field marked above (File name), then create the sandbox again.').waitFor();
    expect(existsSync(join(dir, 'escape.db'))).toBe(false);
    await expectAccessible(page, 'sandbox-create-refused');
    await screenshot(page, '01b-sandbox-create-refused');
    await page.getByLabel('File name').fill('sandbox.db');

    // More people than meant: the creation shows its pace and time left, and Cancel keeps nothing.
    await page.getByLabel('Synthetic people').fill('100000');
    await page.getByRole('button', { name: 'Create sandbox' }).click();
    const creation = page.getByTestId('sandbox-creation');
    await creation.getByText(/ records \(\d+%\) · .* left at its pace so far$/).waitFor({ timeout: 60_000 });
    await expectAccessible(page, 'sandbox-creating');
    await screenshot(page, '02a-creating-sandbox-time-left');
    await creation.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('sandbox-cancelled').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(existsSync(join(dir, 'data', 'sandbox.db'))).toBe(false);
    expect(existsSync(join(dir, 'data', 'sandbox.config.json'))).toBe(false);
    await expectAccessible(page, 'sandbox-cancelled');
    await screenshot(page, '02b-sandbox-cancelled');
    // A page reloaded meanwhile picks the creation up again, and its Cancel says the same.
    await page.getByRole('button', { name: 'Create sandbox' }).click();
    await creation.getByText(/ records \(\d+%\)/).waitFor({ timeout: 60_000 });
    await page.reload();
    await creation.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('sandbox-cancelled').waitFor();
    expect(existsSync(join(dir, 'data', 'sandbox.db'))).toBe(false);

    // Enough people that a reconciliation at batch size 1 runs for a couple of seconds (the later test watches it live).
    await page.getByLabel('Synthetic people').fill('10000');
    await page.getByRole('button', { name: 'Create sandbox' }).click();
    await page
      .getByLabel(/Sandbox creation (progress|under way)/)
      .first()
      .waitFor();
    expect(await page.getByTestId('sandbox-cancelled').count()).toBe(0);
    await screenshot(page, '02-creating-sandbox');
    // Going to another page while the sandbox is made: once it is open the console shows that page, and does not pull
    // the person back to Maintenance (it did, when the creation ended).
    await page.getByRole('link', { name: /Review cases/ }).click();
    await page.getByRole('heading', { name: 'Review cases', level: 1 }).waitFor({ timeout: 120_000 });
    await expect.poll(() => page.getByTestId('connection-path').textContent()).toBe('sandbox.db');
    expect(new URL(page.url()).hash).toBe('#/reviews');
    await page.getByRole('link', { name: /Maintenance/ }).click();
    await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
    await page.getByText('No maintenance jobs yet').waitFor();
    await expect.poll(() => page.getByTestId('connection-path').textContent()).toBe('sandbox.db');
    await page.getByText('Worker running').waitFor();
    await expectAccessible(page, 'maintenance-empty');
    await screenshot(page, '03-maintenance-empty');
  });

  it('refuses an invalid batch size as it is typed', async () => {
    await page.getByRole('button', { name: 'Start a job' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reason').fill('Thresholds raised after the November evaluation');
    const batch = dialog.getByLabel('Batch size');
    const review = dialog.getByRole('button', { name: 'Review and start' });
    for (const typed of ['0', '26', '2.5', '-3']) {
      await batch.fill(typed);
      await dialog.getByText(BATCH_SIZE_MESSAGE).waitFor();
      expect(await review.isDisabled(), typed).toBe(true);
    }
    await expectAccessible(page, 'start-form-invalid');
    await screenshot(page, '04-start-form-invalid-batch');
    await batch.fill('1');
    await expect.poll(() => dialog.getByText(BATCH_SIZE_MESSAGE).count()).toBe(0);
    expect(await review.isDisabled()).toBe(false);
  });

  it('offers only external sources the tenant can import from, and says why there are none', async () => {
    const dialog = page.getByRole('dialog');
    // The sandbox configures no external FHIR source: the field says so instead of offering sources it would refuse.
    const field = dialog.getByLabel('External source');
    await expect.poll(() => field.isDisabled()).toBe(true);
    await dialog
      .getByText(
        /No external FHIR source is configured for this tenant \(Maintenance\.FhirSources in the configuration file\)/,
      )
      .waitFor();
    await expectAccessible(page, 'start-form-no-sources');
    await screenshot(page, '05-start-form-no-external-source');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });

  it("asks for one line as the reason is typed, shows the engine's refusal at the field it concerns, and keeps the form", async () => {
    await page.getByRole('button', { name: 'Start a job' }).first().click();
    const dialog = page.getByRole('dialog');
    const reason = dialog.getByLabel('Reason');
    // Enter in the field makes a line break, which the audit trail does not keep: the form says so at once.
    await reason.fill('Nightly check');
    await reason.press('Enter');
    await reason.pressSequentially('after the key rotation');
    await reason.blur();
    await dialog.getByText(/Write the reason on one line/).waitFor();
    expect(await dialog.getByRole('button', { name: 'Review and start' }).isDisabled()).toBe(true);
    // A reason pasted with a right-to-left override in it: the form lets it through, the engine's free-text rule does
    // not (it would make the reason read differently in the audit trail).
    await reason.fill('Nightly check after the key rotation \u202Enoitator yek');
    await dialog.getByLabel('Batch size').fill('25');
    await dialog.getByRole('button', { name: 'Review and start' }).click();
    await dialog.getByTestId('confirm-start').click();
    const refused = dialog.getByRole('alert').filter({ hasText: 'The job was not started' });
    await refused.waitFor();
    // The alert names the field by its label and says what to do; the engine's message stands under the field.
    expect(await refused.innerText()).toContain(
      'Correct the field marked above (Reason), then review and start again.',
    );
    expect(await refused.innerText()).not.toContain('bidirectional');
    await dialog.getByText(/contains a bidirectional control character/).waitFor();
    expect(await reason.inputValue()).toBe('Nightly check after the key rotation \u202Enoitator yek');
    await expectAccessible(page, 'start-form-refused');
    await screenshot(page, '05b-start-form-refused');
    // Mending the field clears the refusal.
    await reason.fill('Nightly check after the key rotation');
    await expect.poll(() => dialog.getByText('The job was not started').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });

  it('starts a reconciliation after a confirmation; its phases and counters update live until it completes, and it stays in the history', async () => {
    await page.getByRole('button', { name: 'Start a job' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reason').fill('Thresholds raised after the November evaluation');
    await dialog.getByLabel('Batch size').fill('1');
    await dialog.getByRole('button', { name: 'Review and start' }).click();
    await dialog.getByText('What this job will do').waitFor();
    await dialog.getByRole('table', { name: 'When to run which job' }).waitFor();
    await expectAccessible(page, 'confirm');
    await screenshot(page, '06-confirm-reconciliation');

    // The decision has the focus and is in view: Enter starts the job.
    await expect
      .poll(() => page.evaluate<string>("document.activeElement?.getAttribute('data-testid') ?? ''"))
      .toBe('confirm-start');
    const box = await dialog.getByTestId('confirm-start').boundingBox();
    expect((box?.y ?? Infinity) + (box?.height ?? 0)).toBeLessThanOrEqual(900);
    // Every render of the job page is recorded in the page itself, from before the job starts, so no pushed state can
    // slip between polls or come before the recording.
    await page.evaluate(RECORD_JOB_RENDERS);
    await page.keyboard.press('Enter');
    await page.getByTestId('job-detail').waitFor();
    // The job takes a few seconds, so what it showed while running is read from the recorded renders below,
    // not waited for: on a loaded machine one screenshot or axe run can outlast a whole phase. The running
    // state's look and accessibility are checked on the stalled job further down (10b-job-running-no-worker).
    await page.locator('[data-job-status="completed"]').waitFor({ timeout: 120_000 });

    const seen = await page.evaluate<Observed[]>('window.seen');
    const number = (text: string | undefined): number => Number((text ?? '').replace(/\D/g, ''));
    const finalScanned = number(seen.at(-1)?.scanned);
    expect(finalScanned).toBeGreaterThan(3000);
    // Live: while running, the counters moved through values strictly between zero and the final count...
    const running = seen.filter((s) => s.status === 'running').map((s) => number(s.scanned));
    // (how many in-between renders there are depends on the machine's load: the job takes a few seconds)...
    expect(running.some((n) => n > 0 && n < finalScanned)).toBe(true);
    // ...and the pipeline moved on by itself to the end, every phase completed without a click.
    expect(seen.at(-1)?.phases).toBe('importing:skipped,rebuilding:completed,matching:completed');
    // A rate (items per second, no percentage needed) was shown while it ran.
    expect(seen.some((s) => s.status === 'running' && /identities\/s/.test(s.rate ?? ''))).toBe(true);
    // And the running phase's time left at its own pace (rebuilding is often over before a render shows it; the
    // phases still to come are named: test/renderer/job-eta.test.ts).
    expect(
      seen.some(
        (s) =>
          s.status === 'running' &&
          /^(Rebuilding|Matching): (about \d+ (s|min \d+ s)|under a second) left at its pace so far/.test(s.eta ?? ''),
      ),
    ).toBe(true);
    expect(await page.getByTestId('job-percent').textContent()).toBe('100%');
    // The review rate: cases opened per 1,000 identities the matching phase visited (nothing imported here).
    expect(await page.getByTestId('job-review-rate').textContent()).toMatch(
      new RegExp(
        `^\\d+\\.\\d per 1,000 matched \\(\\d+ cases?, ${(finalScanned / 2).toLocaleString('en-US')} matched\\)$`,
      ),
    );
    await expectAccessible(page, 'job-completed');
    await screenshot(page, '08-job-completed');
    // Three phases side by side in the narrowest window: each status under its phase's name, none cut.
    await expectFitsNarrowWindow(page, '08-job-completed');

    const cases = Number(/\((\d+) cases?,/.exec((await page.getByTestId('job-review-rate').textContent()) ?? '')?.[1]);

    await page.getByRole('link', { name: 'Maintenance' }).first().click();
    const row = page.locator('[data-testid="jobs-table"] tbody tr');
    await expect.poll(() => row.count()).toBe(1);
    // The list carries the reason, the review cases the job opened and how long it ran; the phase under its status
    // says the job is done, not the name of its last phase as if it were still matching.
    expect(await row.first().textContent()).toMatch(/Reconciliation.*Completed.*All done.*took \d+ (s|min)/);
    expect(Number(await row.first().getByTestId('job-reviews').textContent())).toBe(cases);
    expect(await page.getByTestId('jobs-shown').textContent()).toBe('1 job');
    // This year's dates leave out the year, so the row fits a laptop's width; the full moment is the cell's title.
    const created = row.first().locator('time').first();
    expect(await created.textContent()).not.toMatch(/\b20\d\d\b/);
    expect(await created.getAttribute('title')).toMatch(/\b20\d\d\b/);
    await expectAccessible(page, 'jobs-list');
    await screenshot(page, '09-jobs-list');
    // Every column in the narrowest window, without scrolling sideways: the kind under the ID, the phase under the
    // status, the time under the day, the duration under the finish.
    await expectFitsNarrowWindow(page, '09-jobs-list', [page.getByTestId('jobs-table')]);
  }, 300_000);

  it('reaches a job by keyboard alone', async () => {
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = (await page.evaluate<string>("document.activeElement?.getAttribute('aria-label') ?? ''")).startsWith(
        'Reconciliation job ',
      );
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByTestId('job-detail').waitFor();
    await page.getByRole('link', { name: 'Maintenance' }).first().click();
  });

  it('watches a job by its ID, full or as the list shows it, and says plainly when there is no such job', async () => {
    const jobId = (await page.locator('[data-testid="jobs-table"] tbody tr').first().getAttribute('data-job-id')) ?? '';
    await page.getByLabel('Job ID').fill(jobId);
    await page.getByRole('button', { name: 'Watch job' }).click();
    await page.locator('[data-testid="job-detail"][data-job-status="completed"]').waitFor();
    await page.getByRole('link', { name: 'Maintenance' }).first().click();
    // The short ID the list and the job page show is resolved against the listed jobs.
    const short = jobId.replace(/^job-/, '').slice(0, 8);
    await page.getByLabel('Job ID').fill(short);
    await page.getByRole('button', { name: 'Watch job' }).click();
    await page.locator(`[data-testid="job-detail"][data-job-status="completed"]`).waitFor();
    expect(page.url()).toContain(jobId);
    await page.getByRole('link', { name: 'Maintenance' }).first().click();
    await page.getByLabel('Job ID').fill('zzzzzzzz');
    await page.getByRole('button', { name: 'Watch job' }).click();
    await page.getByText('No listed job starts with zzzzzzzz: paste the full ID').waitFor();
    await page.getByLabel('Job ID').fill('job-00000000-0000-0000-0000-000000000000');
    await page.getByRole('button', { name: 'Watch job' }).click();
    await page.getByText('No such job').waitFor();
    await page.getByRole('link', { name: 'Back to all jobs' }).waitFor();
    await expectAccessible(page, 'job-not-found');
    await screenshot(page, '09b-job-not-found');
    await page.getByRole('link', { name: 'Back to all jobs' }).click();
    await page.locator('[data-testid="jobs-table"]').waitFor();
  });

  it('cancels a queued re-index at once (the sandbox worker is disabled, so the job cannot start first)', async () => {
    await page.getByRole('link', { name: /Sandboxes/ }).click();
    await page.getByLabel('Sandbox file').fill(join(dir, 'queued-only.db'));
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByText('The background worker is disabled').waitFor();
    await page
      .getByText(/Tenant\s*queued/)
      .first()
      .waitFor();
    await expectAccessible(page, 'maintenance-worker-disabled');
    await screenshot(page, '10-maintenance-worker-disabled');

    // The job its last worker left running: phases and counters as they were, cancel takes effect at once.
    await page.locator('[data-testid="jobs-table"] tbody tr', { hasText: 'Running' }).getByRole('link').click();
    await page
      .locator(
        '[data-testid="job-detail"][data-job-status="running"] [data-phase="rebuilding"][data-phase-status="running"]',
      )
      .waitFor();
    expect(await page.getByTestId('counter-scanned').textContent()).toBe('3');
    expect(await page.getByTestId('cancel-effect').textContent()).toMatch(
      /^No worker holds this job right now: it is cancelled at once/,
    );
    await expectAccessible(page, 'job-running-stalled');
    await screenshot(page, '10b-job-running-no-worker');
    await page.getByRole('link', { name: 'Maintenance' }).first().click();

    // The re-index a storage fault stopped: the job's error, without patient values, and nothing changed.
    await page.locator('[data-testid="jobs-table"] tbody tr', { hasText: 'Failed' }).getByRole('link').click();
    await page.locator('[data-testid="job-detail"][data-job-status="failed"]').waitFor();
    expect(await page.getByTestId('job-error').textContent()).toMatch(/no identity was changed/);
    expect(await page.getByTestId('phase-status').allTextContents()).toEqual(['Failed', 'Not run']);
    expect(await page.getByTestId('no-percentage').textContent()).toMatch(/^The job failed before its work was done/);
    await expectAccessible(page, 'job-failed');
    await screenshot(page, '10c-job-failed');
    await page.getByRole('link', { name: 'Maintenance' }).first().click();

    await page.getByRole('button', { name: 'Start a job' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Re-index', { exact: true }).click();
    await dialog.getByLabel('Reason').fill('New blocking key version staged');
    await dialog.getByRole('button', { name: 'Review and start' }).click();
    await dialog.getByRole('button', { name: 'Start re-index' }).click();
    await page.locator('[data-testid="job-detail"][data-job-status="queued"]').waitFor();
    expect(await page.getByTestId('cancel-effect').textContent()).toBe(
      'The job has not started: it is cancelled at once.',
    );
    await expectAccessible(page, 'job-queued');
    await screenshot(page, '11-job-queued');

    await page.getByRole('button', { name: 'Cancel job' }).click();
    await page.locator('[data-testid="job-detail"][data-job-status="cancelled"]').waitFor();
    await page.getByText('It was cancelled before it started: nothing was changed.').waitFor();
    const phases = await page.locator('[data-phase]').all();
    expect(await Promise.all(phases.map((phase) => phase.getAttribute('data-phase-status')))).toEqual([
      'pending',
      'pending',
    ]);
    expect(await page.getByTestId('phase-status').allTextContents()).toEqual(['Not run', 'Not run']);
    await expectAccessible(page, 'job-cancelled');
    await screenshot(page, '12-job-cancelled');

    await page.getByRole('link', { name: 'Maintenance' }).first().click();
    await expect
      .poll(() => page.locator('[data-testid="jobs-table"] tbody tr').first().textContent())
      .toMatch(/Re-index.*Cancelled/);
    // The list's filters: by status group and by kind.
    const rows = page.locator('[data-testid="jobs-table"] tbody tr');
    await page.getByRole('radiogroup', { name: 'Status' }).getByText('Failed, stopped or cancelled').click();
    await expect
      .poll(async () => (await rows.allTextContents()).map((t) => /Failed|Cancelled/.test(t)))
      .toEqual([true, true]);
    expect(await page.getByTestId('jobs-shown').textContent()).toBe('2 of 3 jobs');
    // The phase under their status says where each ended: the failed one in a phase, the one cancelled before it ran
    // nowhere.
    const ended = await rows.allTextContents();
    expect(ended.find((t) => t.includes('Failed'))).toMatch(/Failed.*Ended in [a-z]+/);
    expect(ended.find((t) => t.includes('Cancelled'))).toMatch(/Cancelled.*Not started/);
    await page.getByRole('radiogroup', { name: 'Status' }).getByText('Queued or running').click();
    await expect.poll(async () => (await rows.allTextContents()).map((t) => /Running/.test(t))).toEqual([true]);
    await page.getByText('1 active: it updates by itself.').waitFor();
    await expectAccessible(page, 'jobs-list-filtered');
    await screenshot(page, '12b-jobs-list-filtered');
    await page.getByRole('radiogroup', { name: 'Status' }).getByText('All', { exact: true }).click();
    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'Reconciliation' }).click();
    await expect.poll(async () => (await rows.allTextContents()).every((t) => t.includes('Reconciliation'))).toBe(true);
    await page.getByRole('link', { name: /Sandboxes/ }).click();
    const recent = page.getByRole('table', { name: 'Recent sandboxes' });
    await recent.waitFor();
    // The sandbox in use is marked as connected, a status; the others offer Open.
    const inUse = recent.getByRole('row').filter({ hasText: 'Connected' });
    expect(await inUse.count()).toBe(1);
    expect(await inUse.getByRole('button').count()).toBe(0);
    await expectAccessible(page, 'sandboxes');
    await screenshot(page, '13-sandboxes');
  });

  it('lists a long history page by page: the newest 100, then the older ones on request', async () => {
    await page.getByRole('link', { name: /Sandboxes/ }).click();
    await page.getByLabel('Sandbox file').fill(join(dir, 'many-jobs.db'));
    await page.getByLabel('Tenant').fill('history');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
    const rows = page.locator('[data-testid="jobs-table"] tbody tr');
    // The page is shown at once; its list comes once the sandbox's engine thread has loaded (on a busy machine,
    // seconds), so the wait is for the hundredth row, then the count is exact.
    await rows.nth(99).waitFor();
    expect(await rows.count()).toBe(100);
    expect(await page.getByTestId('jobs-shown').textContent()).toBe('100 jobs loaded; older ones below');
    await page.getByRole('button', { name: 'Show 100 older jobs' }).click();
    await expect.poll(() => rows.count()).toBe(105);
    expect(await page.getByTestId('jobs-shown').textContent()).toBe('105 jobs');
    expect(await page.getByRole('button', { name: 'Show 100 older jobs' }).count()).toBe(0);
    // Newest first across the pages: the last row is the first job started.
    expect(await rows.last().textContent()).toContain('Staged key 0');
    expect(await rows.first().textContent()).toContain('Staged key 104');
  });

  it('ran without script errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });

  // Last: it stops the console's backend under the open window.
  it('says in plain words that a page cannot be shown when the backend has stopped, and keeps the frame', async () => {
    await page.getByRole('link', { name: 'Maintenance' }).first().click();
    await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
    expect(await host.stop()).toBe(0);
    // Match assurance has not been opened in this window: its code is fetched now, from a backend that is gone.
    await page.getByRole('link', { name: /Match assurance/ }).click();
    await page.getByTestId('page-failed').waitFor();
    expect(await page.getByTestId('page-failed').textContent()).toMatch(/This page could not be shown.*start it again/);
    expect(await page.getByRole('link', { name: 'Maintenance' }).count()).toBeGreaterThan(0);
    await screenshot(page, '14-page-failed');
  });
});
