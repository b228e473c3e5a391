/**
 * Review cases in the console, as a reviewer works: from a finished reconciliation's page to the cases it opened,
 * one case beside both identities' records (values, bands and weights), a decision refused until it is complete,
 * then recorded, and the list's filters. Real Chromium, the real browser host, a real SQLite sandbox; axe and a
 * screenshot on every state.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LocalEngine } from '../../engine/local-engine.ts';
import { FIELD_NAMES } from '../../engine/contract/fields.ts';
import type { REVIEW_SORTS } from '../../engine/contract/reviews.ts';
import type { TwinReason } from '../../engine/contract/matching.ts';
import type { OperationInput } from '../../engine/contract/operations.ts';
import { TWIN_REASON_NAME, TWIN_REASON_TEXT } from '../../engine/contract/score-explanation.ts';
import { runWorker } from '../../engine/jobs/worker.ts';
import { generatePopulation } from '../../engine/synthetic/generate.ts';
import { SOURCE_NAMES } from '../../engine/synthetic/sources.ts';
import { toNdjsonBySource } from '../../engine/synthetic/write.ts';
import {
  closeConsole,
  cutLabels,
  expectAccessible,
  expectFitsNarrowWindow,
  expectSwatchesMatchBands,
  type HostProcess,
  openConsole,
  screenshot,
} from './helpers.ts';
import { scratchDir } from '../helpers/temp.ts';
import { heldByCounts } from '../helpers/held-by.ts';
import { resentPatients } from '../helpers/resent-patients.ts';

let dir: string;
let host: HostProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];
/** The reconciliation's job, its cases, how many waiting cases are out of date, and the dropped source's record. */
interface Reconciled {
  readonly jobId: string;
  readonly cases: number;
  readonly stale: number;
  readonly droppedRecord: string;
  /** The cases the risen source's last ingest opened. */
  readonly risenCases: number;
}
let reconciliation: Reconciled;

/** The source whose last ingest's review cases rose (records sent again without birth dates: flagged on Health). */
const RISEN_SOURCE = 'northside-gp';
/** A source the sandbox's profile does not list, named by one ingestion case. */
const DROPPED_SOURCE = 'closed-walk-in-clinic';

/** A synthetic sandbox whose reconciliation has run: its cases name the job and are current. */
async function reconciledSandbox(path: string): Promise<Reconciled> {
  const engine = LocalEngine.open({ dbPath: path });
  const ctx = { tenantId: 'reviews', actor: 'setup' };
  try {
    // Seed 3: the one case seed 7's reconciliation opened was a boy and a girl of one family born on 1 January, a
    // date that says the year only since 2026-12-03 (comparators/first-of-january.ts), so their pair falls below
    // Probable; seed 3's reconciliation opens one case.
    await engine.call('sandbox/create', { syntheticPeople: 400, seed: 3 }, ctx);
    // Later arrivals from every source, so the Health page has ingests to draw.
    const later = generatePopulation({ people: 60, seed: 8 });
    const bySource = [...toNdjsonBySource(later)].map(([sourceSystem, ndjson]) => ({
      sourceSystem,
      lines: ndjson.split('\n').filter((l) => l !== ''),
    }));
    for (const half of [0, 1]) {
      for (const { sourceSystem, lines } of bySource) {
        const middle = Math.ceil(lines.length / 2);
        const part = half === 0 ? lines.slice(0, middle) : lines.slice(middle);
        await engine.call('records/ingest', { sourceSystem, ndjson: part.join('\n') + '\n' }, ctx);
      }
    }
    const { jobId } = await engine.call(
      'maintenance/reconcile',
      { reason: 'Monthly reconciliation', batchSize: 25 },
      ctx,
    );
    await runWorker(engine.env, { tenants: ['reviews'], once: true });
    const job = await engine.call('jobs/get', { jobId }, ctx);
    // Then a false link made by hand: the records of one person's identity moved into another person's.
    const { store } = engine.env;
    const [into, from] = store
      .statement(
        `SELECT identity_id FROM identity i WHERE tenant_id = 'reviews' AND status = 'active'
           AND (SELECT count(*) FROM identity_link l WHERE l.tenant_id = i.tenant_id AND l.identity_id = i.identity_id) = 2
         ORDER BY identity_id LIMIT 2`,
      )
      .pluck()
      .all() as number[];
    store.write(() => {
      store
        .statement("UPDATE identity_link SET identity_id = ? WHERE tenant_id = 'reviews' AND identity_id = ?")
        .run(into, from);
      store
        .statement("UPDATE identity SET status = 'retired' WHERE tenant_id = 'reviews' AND identity_id = ?")
        .run(from);
      // And one waiting ingestion case made out of date, as a record arriving for one of its identities would (a
      // case whose identities no other waiting case names, away from the false link).
      store
        .statement(
          `UPDATE identity SET logical_version = logical_version + 1 WHERE tenant_id = 'reviews' AND identity_id = (
             SELECT c.left_identity_id FROM review_case c WHERE c.tenant_id = 'reviews' AND c.status = 'open'
               AND c.kind = 'IngestionMatch' AND c.left_identity_id NOT IN (?, ?) AND c.right_identity_id NOT IN (?, ?)
               AND NOT EXISTS (SELECT 1 FROM review_case o WHERE o.tenant_id = c.tenant_id AND o.status = 'open'
                 AND o.case_id <> c.case_id
                 AND (o.left_identity_id IN (c.left_identity_id, c.right_identity_id)
                   OR o.right_identity_id IN (c.left_identity_id, c.right_identity_id)))
             ORDER BY c.case_id LIMIT 1)`,
        )
        .run(into, from, into, from);
    });
    // And one waiting ingestion case from a source the profile no longer lists, as if the source had been dropped
    // from it since: the list's source filter must still offer it.
    store.write(() => {
      store
        .statement(
          `UPDATE review_case SET source_system = ? WHERE tenant_id = 'reviews' AND case_id = (
             SELECT case_id FROM review_case WHERE tenant_id = 'reviews' AND status = 'open' AND kind = 'IngestionMatch'
             ORDER BY case_id LIMIT 1)`,
        )
        .run(DROPPED_SOURCE);
    });
    // And one record of that source, alone in its identity and named by no case: "Open a record's identity" must
    // offer the source, which the profile does not list, and open the record's identity by it.
    const droppedRecord = store
      .statement(
        `UPDATE source_record SET source_system = ? WHERE tenant_id = 'reviews' AND record_id = (
           SELECT r.record_id FROM source_record r JOIN identity_link l ON l.tenant_id = r.tenant_id AND l.record_id = r.record_id
           WHERE r.tenant_id = 'reviews'
             AND (SELECT count(*) FROM identity_link o WHERE o.tenant_id = l.tenant_id AND o.identity_id = l.identity_id) = 1
             AND NOT EXISTS (SELECT 1 FROM review_case c WHERE c.tenant_id = l.tenant_id
               AND l.identity_id IN (c.left_identity_id, c.right_identity_id))
           ORDER BY r.record_id DESC LIMIT 1)
         RETURNING local_id`,
      )
      .pluck()
      .get(DROPPED_SOURCE) as string;
    // And a last ingest from one source whose review cases rose: twelve people another source sent, sent again by it
    // with names and sex only, each held as names only against the identity it names. The Health page flags it and
    // opens that ingest's cases from the flag.
    const resent = resentPatients((bySource.find((s) => s.sourceSystem !== RISEN_SOURCE)?.lines ?? []).slice(0, 12), {
      prefix: 'resent-',
      without: ['birthDate', 'telecom', 'address'],
      system: 'urn:mpi-demo:northside-gp:mrn',
    });
    const risen = await engine.call(
      'records/ingest',
      { sourceSystem: RISEN_SOURCE, ndjson: resent.join('\n') + '\n' },
      ctx,
    );
    // Waiting cases out of date: the one aged above, and any an identity's later record made so on its own. Counted
    // as the page counts them: the waiting cases, less those that can be decided now.
    const waiting = await engine.call('reviews/list', { limit: 1 }, ctx);
    const current = await engine.call('reviews/list', { limit: 1, currentOnly: true }, ctx);
    const stale = waiting.total - current.total;
    return { jobId, cases: job.counters.reviewCreated, stale, droppedRecord, risenCases: risen.reviewCasesCreated };
  } finally {
    engine.close();
  }
}

/** The first waiting case that can be decided now and that nobody answered, in a list's order (read from the file). */
type ReviewSort = (typeof REVIEW_SORTS)[number];

async function nextWaiting(
  path: string,
  list: { readonly jobId?: string; readonly sort: ReviewSort },
): Promise<string | undefined> {
  const engine = LocalEngine.open({ dbPath: path, create: false });
  try {
    const waiting = await engine.call(
      'reviews/list',
      { status: 'open', currentOnly: true, limit: 50, ...list },
      { tenantId: 'reviews', actor: 'test' },
    );
    return waiting.rows.find((row) => row.review === null)?.caseId;
  } finally {
    engine.close();
  }
}

/** How many waiting cases that can be decided now a filter holds, as the engine counts them. */
async function waitingCount(path: string, filter: Partial<OperationInput<'reviews/list'>>): Promise<number> {
  const engine = LocalEngine.open({ dbPath: path, create: false });
  try {
    const waiting = await engine.call(
      'reviews/list',
      { status: 'open', currentOnly: true, limit: 1, ...filter },
      { tenantId: 'reviews', actor: 'test' },
    );
    return waiting.total;
  } finally {
    engine.close();
  }
}

/** The list of waiting cases in an order, with or without the out-of-date ones, as a reviewer chooses them. */
async function waitingCases(page: Page, order: string, currentOnly: boolean): Promise<void> {
  await page.getByLabel('Status', { exact: true }).first().click();
  await page.getByRole('option', { name: 'Waiting for a decision' }).click();
  await page.getByLabel('Order', { exact: true }).first().click();
  await page.getByRole('option', { name: order }).click();
  await page.getByRole('switch', { name: 'Only cases that can be decided now' }).setChecked(currentOnly);
  await page.locator('[data-testid="review-cases"][aria-busy="false"]').waitFor();
}

beforeAll(async () => {
  dir = scratchDir('mpi-e2e-reviews-').dir;
  reconciliation = await reconciledSandbox(join(dir, 'reviews.db'));
  ({ host, browser, context, page } = await openConsole(join(dir, 'data'), pageErrors));
});

afterAll(async () => {
  await closeConsole(context, browser, host, dir);
});

describe('review cases in the console', () => {
  it("opens a reconciliation's cases from its page, compares a case's records and records a decision", async () => {
    // One since an exact common name weighs as the population says (2026-11-28; two before, both two people).
    expect(reconciliation.cases).toBeGreaterThan(0);
    expect(reconciliation.stale).toBeGreaterThan(0);
    await page.goto(host.launchUrl);
    await page.getByLabel('Sandbox file').fill(join(dir, 'reviews.db'));
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page
      .locator('[data-testid="jobs-table"] tbody tr', { hasText: 'Monthly reconciliation' })
      .getByRole('link')
      .click();
    const link = page.getByTestId('job-review-cases');
    expect(await link.textContent()).toBe(
      `${String(reconciliation.cases)} review ${reconciliation.cases === 1 ? 'case' : 'cases'}`,
    );
    // Under it, what held them, adding up to them.
    const jobHolds = await page.getByTestId('job-review-holds').innerText();
    expect(jobHolds).toMatch(/^[A-Z][a-z ,]+ \d+(, [A-Z][a-z ,]+ \d+)*$/);
    expect(heldByCounts(jobHolds).reduce((n, c) => n + c, 0)).toBe(reconciliation.cases);
    await link.click();

    // The list, filtered to the job: every row says it came from that job. The filter names the job as the job's
    // own page does, in lower case (the ID is hex), not as a badge's capitals.
    await page.getByTestId('job-filter').waitFor();
    expect(await page.getByTestId('job-filter').innerText()).toBe(
      `Opened by job ${reconciliation.jobId.replace(/^job-/, '').slice(0, 8)}`,
    );
    const rows = page.getByTestId('review-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(Math.min(50, reconciliation.cases));
    expect(await page.getByTestId('page-text').textContent()).toBe(
      `Cases 1–${String(Math.min(50, reconciliation.cases))} of ${String(reconciliation.cases)}`,
    );
    // "Opened by" says the case's kind and, under it, the job that opened it.
    const shortJob = reconciliation.jobId.replace(/^job-/, '').slice(0, 8);
    for (const origin of await rows.locator('td:nth-child(2)').allInnerTexts())
      expect(origin).toBe(`Reconciliation\njob ${shortJob}`);
    // Each case's fields at a glance: one swatch a field, in the scorer's order, each the band the case recorded, and
    // the same said in words for a screen reader.
    const reader = LocalEngine.open({ dbPath: join(dir, 'reviews.db') });
    const listed = await reader.call(
      'reviews/list',
      { jobId: reconciliation.jobId, limit: 50 },
      { tenantId: 'reviews', actor: 'test' },
    );
    reader.close();
    const evidenceOf = new Map(listed.rows.map((c) => [c.caseId.slice(3, 11), c.evidence]));
    for (const row of await rows.all()) {
      const evidence = evidenceOf.get((await row.getByRole('link', { name: /^Open case/ }).textContent()) ?? '') ?? [];
      const strip = row.getByRole('img');
      const tones = [];
      for (const swatch of await strip.locator('[data-tone]').all()) tones.push(await swatch.getAttribute('data-tone'));
      expect(tones).toEqual(
        FIELD_NAMES.map((field) => evidence.find((e) => e.field === field)?.band?.toLowerCase() ?? 'none'),
      );
      expect(tones).toContain('exact');
      expect(await strip.getAttribute('aria-label')).toMatch(/^Agree: [a-z]/);
    }
    await expectAccessible(page, 'reviews-of-a-job');
    await screenshot(page, '40-reviews-of-a-job');

    // Highest score first, then the first case.
    await page.getByLabel('Order', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Highest score first' }).click();
    // The score cell reads "0.7411" and, under it, the profile it is under.
    const scoreCells = await rows.locator('td:nth-child(3)').allInnerTexts();
    for (const cell of scoreCells) expect(cell).toMatch(/^[01]\.\d{4}\s+profile v\d+$/);
    const scores = scoreCells.map((cell) => Number(cell.slice(0, 6)));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    await rows
      .first()
      .getByRole('link', { name: /^Open case/ })
      .click();

    await page.getByRole('table', { name: 'Case details' }).waitFor();
    await page.getByTestId('pair-records').waitFor();
    expect(await page.getByTestId('stale-case').count()).toBe(0);
    // Each field's evidence says which way it counts: a band's name (Partial) can count against.
    await page.getByRole('columnheader', { name: 'Evidence, ln(m/u)' }).waitFor();
    const evidence = await page.getByTestId('pair-records').locator('tbody tr td:last-child').allTextContents();
    expect(evidence.length).toBeGreaterThan(3);
    for (const text of evidence)
      expect(text).toMatch(/^(?:[+−]\d+\.\d\d (?:for|against)|0(?: \((?:household|with the address)\))?|—)$/);
    expect(evidence.some((text) => text.endsWith(' for'))).toBe(true);
    // Each row's pictures say what its words say: the swatch is the band's colour, the bar goes the weight's way.
    const tones = await expectSwatchesMatchBands(page.getByTestId('pair-records'), 2);
    const marks = [];
    for (const row of await page.getByTestId('pair-records').locator('tbody tr').all())
      marks.push({
        evidence: (await row.locator('td').nth(3).textContent()) ?? '',
        direction: await row.locator('[data-direction]').getAttribute('data-direction'),
      });
    expect(marks.length).toBe(evidence.length);
    expect(tones.length).toBe(evidence.length);
    for (const mark of marks)
      expect(mark.direction, mark.evidence).toBe(/ (for|against)$/.exec(mark.evidence)?.[1] ?? 'none');
    expect(marks.some((mark, i) => tones[i] === 'exact' && mark.direction === 'for')).toBe(true);
    await expectAccessible(page, 'review-case');
    await screenshot(page, '41-review-case');
    // In the narrowest window the records side by side show every column, the evidence's words included.
    await expectFitsNarrowWindow(page, '41-review-case', [
      page.getByRole('table', { name: "The two records side by side, with each field's band and contribution" }),
    ]);

    // While the case waits for this reviewer's answer there is no way on to another case, so no reason is left behind.
    expect(await page.getByTestId('next-case').count()).toBe(0);
    const decidedUrl = page.url();
    // A decision needs a choice and a reason; both are said at once, nothing is sent.
    await page.getByRole('button', { name: 'Record decision' }).click();
    await page.getByText('Choose a decision.').waitFor();
    await page.getByText('Say why, in a few words').waitFor();
    await expectAccessible(page, 'review-decision-incomplete');
    await page.getByLabel('Different people').click();
    // Two lines are asked to become one before anything is sent (the engine keeps no line breaks).
    await page.getByLabel('Reason').fill('Twins:');
    await page.getByLabel('Reason').press('Enter');
    await page.getByLabel('Reason').pressSequentially('different NHS numbers on the GP letters');
    await page.getByRole('button', { name: 'Record decision' }).click();
    await page.getByText('Write the reason on one line').waitFor();
    expect(await page.getByRole('table', { name: 'Decisions recorded on this case' }).count()).toBe(0);
    // Ctrl+Enter in the reason records, as the reason's description says.
    await page.getByLabel('Reason').fill('Twins: different NHS numbers on the GP letters');
    await page.getByLabel('Reason').press('Control+Enter');
    await page.getByRole('table', { name: 'Decisions recorded on this case' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Recorded:' }).textContent()).toBe(
      'Recorded: Different people.',
    );
    expect(
      await page.getByRole('table', { name: 'Decisions recorded on this case' }).locator('tbody tr').allTextContents(),
    ).toEqual([expect.stringContaining('Different people')]);
    // Decided: the form is gone, the badge says the decision.
    expect(await page.getByRole('button', { name: 'Record decision' }).count()).toBe(0);
    await page.locator('h1 + .mantine-Badge-root', { hasText: 'Different people' }).waitFor();
    await expectAccessible(page, 'review-case-decided');
    await screenshot(page, '42-review-case-decided');
    // Answered, the case offers the next one to decide from the list it was opened from: the job's waiting cases
    // that can be decided now, highest score first.
    const expectedNext = await nextWaiting(join(dir, 'reviews.db'), {
      jobId: reconciliation.jobId,
      sort: 'score-high',
    });
    // Beside it, which list it follows.
    expect(await page.getByTestId('next-case-queue').textContent()).toBe(
      `From the list as you left it: every kind, opened by job ${reconciliation.jobId.replace(/^job-/, '').slice(0, 8)}, highest score first.`,
    );
    // The form went away with the key the reviewer pressed: focus is on the way on (the next case, else the heading),
    // never lost to the page.
    const focused = (): Promise<string> => focusedText(page);
    if (expectedNext === undefined) {
      expect(await page.getByTestId('next-case').textContent()).toBe(
        'No other case on the list you came from can be decided and waits for a first decision.',
      );
      expect(await focused()).toMatch(/^H1 Review case [0-9a-f]{8}$/);
    } else {
      await vi.waitFor(async () => {
        expect(await focused()).toBe('A Next waiting case');
      });
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.href !== decidedUrl && url.hash === `#/reviews/${expectedNext}`);
      // The next case starts at its heading, where reading and the next Tab begin.
      expect(await focused()).toBe(`H1 Review case ${expectedNext.replace(/^rc-/, '').slice(0, 8)}`);
      expect(await page.getByTestId('decision-recorded').count()).toBe(0);
      await page.getByRole('button', { name: 'Record decision' }).waitFor();
      await page.locator('h1 + .mantine-Badge-root', { hasText: 'Waiting for a decision' }).waitFor();
      expect(await page.getByTestId('stale-case').count()).toBe(0);
      await page.goBack();
      await page.locator('h1 + .mantine-Badge-root', { hasText: 'Different people' }).waitFor();
    }

    // Back to the job's cases as they were left (highest score first): waiting cases are one fewer (none: the list
    // says so); the decided one is under Decided.
    await page.goBack();
    expect(await page.getByLabel('Order', { exact: true }).first().inputValue()).toBe('Highest score first');
    if (reconciliation.cases === 1) await page.getByTestId('no-cases').waitFor();
    await page
      .getByTestId('page-text')
      .filter({ hasText: reconciliation.cases === 1 ? /^No cases$/ : `of ${String(reconciliation.cases - 1)}` })
      .waitFor();
    await page.getByLabel('Status', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Decided' }).click();
    // The list shows the decided case once the new page has arrived (the previous one stays on screen meanwhile).
    await rows.first().locator('td:last-child', { hasText: 'Different people' }).waitFor();
    await page.locator('[data-testid="review-cases"][aria-busy="false"]').waitFor();
    expect(await page.getByTestId('page-text').textContent()).toBe('Cases 1–1 of 1');
    // What reviewers decided, by what held each pair: the one case, under its hold, two people.
    const decidedRows = page
      .getByRole('table', { name: 'Decided cases by what held them' })
      .locator('tbody tr')
      .locator('td');
    expect((await decidedRows.allInnerTexts()).slice(0, 4)).toEqual([
      expect.stringMatching(/^(No rule|Possible twin.*|Names only|Birth dates disagree|Middle names disagree)$/),
      '1',
      '0',
      '1',
    ]);
    expect(await decidedRows.nth(4).innerText()).toBe('0.0%');
    await expectAccessible(page, 'reviews-decided');
    await screenshot(page, '43-reviews-decided');
    // A hold's name lists its cases: "Held by" takes that hold, and the one case is still listed; then every case
    // again.
    const decidedHold = await decidedRows.nth(0).innerText();
    await decidedRows.nth(0).getByRole('button', { name: decidedHold }).click();
    await page.locator('[data-testid="review-cases"][aria-busy="false"]').waitFor();
    expect(await page.getByLabel('Held by', { exact: true }).first().inputValue()).toBe(`${decidedHold} (1)`);
    expect(await page.getByTestId('page-text').textContent()).toBe('Cases 1–1 of 1');
    await page.getByLabel('Held by', { exact: true }).first().click();
    await page.getByRole('option', { name: /^Any, held or not/ }).click();
    expect(await page.getByLabel('Held by', { exact: true }).first().inputValue()).toMatch(/^Any, held or not/);

    // The job's decided case as labels on Match assurance, marked there as review-queue labels.
    await page.getByRole('button', { name: 'Use decided cases as labels' }).click();
    await page.getByTestId('review-queue-labels').waitFor();
    await screenshot(page, '43b-assurance-review-queue-labels');
    await expectAccessible(page, 'assurance-review-queue-labels');
    await screenshot(page, '43b-assurance-review-queue-labels');
    await page.goBack();
    await page.getByTestId('job-filter').waitFor();

    // Every job's and every ingest's waiting cases. The reconciliation superseded the ingestion cases it asked about
    // again, so what is out of date is the case the set-up aged and any a later record aged that the reconciliation
    // did not ask about again (two in all since 2026-11-28, when it stopped asking about a pair of two people that
    // ingestion had asked about twice): a notice counts them, and its button turns on the switch that keeps only the
    // cases that can be decided now.
    await page
      .getByRole('link', { name: /^Review cases/ })
      .first()
      .click();
    const notice = page.getByTestId('stale-cases');
    await notice.waitFor();
    const everything = await page.getByTestId('page-text').textContent();
    const waiting = Number(/ of ([\d,]+)$/.exec(everything ?? '')?.[1]?.replace(/,/g, '') ?? 'NaN');
    expect(await notice.textContent()).toMatch(
      new RegExp(
        `^${String(reconciliation.stale)} of these ${waiting.toLocaleString('en-US')} waiting cases ${reconciliation.stale === 1 ? 'is' : 'are'} out of date`,
      ),
    );
    await expectAccessible(page, 'reviews-stale-notice');
    await screenshot(page, '44-reviews-all');
    await notice.getByRole('button', { name: 'Show only the cases that can be decided now' }).click();
    expect(await page.getByRole('switch', { name: 'Only cases that can be decided now' }).isChecked()).toBe(true);
    await page
      .getByTestId('page-text')
      .filter({ hasText: new RegExp(` of ${(waiting - reconciliation.stale).toLocaleString('en-US')}$`) })
      .waitFor();
    expect(await notice.count()).toBe(0);
    expect(await page.getByText('Out of date').count()).toBe(0);
    await expectAccessible(page, 'reviews-current-only');

    // The superseded cases are history: listed under Superseded, each page linking to the case that replaced it.
    await page.getByRole('switch', { name: 'Only cases that can be decided now' }).uncheck();
    // First, "Ingested from" offers every source the cases name, the one the profile no longer lists among them:
    // chosen, the list holds its one case.
    await page.getByLabel('Ingested from', { exact: true }).first().click();
    await page.getByRole('option', { name: DROPPED_SOURCE, exact: true }).click();
    await page
      .getByTestId('page-text')
      .filter({ hasText: /^Cases 1–1 of 1$/ })
      .waitFor();
    expect(await rows.count()).toBe(1);
    await expectAccessible(page, 'reviews-by-source');
    await screenshot(page, '44a-reviews-by-source');
    await page.getByLabel('Ingested from', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Any source', exact: true }).click();
    await page.getByLabel('Status', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Superseded' }).click();
    await page.locator('[data-testid="review-cases"][aria-busy="false"]').waitFor();
    await rows.first().locator('td:last-child', { hasText: 'Superseded' }).waitFor();
    expect(await page.getByTestId('page-text').textContent()).toMatch(/^Cases 1–/);
    await expectAccessible(page, 'reviews-superseded');
    await rows
      .first()
      .getByRole('link', { name: /^Open case/ })
      .click();
    const superseded = page.getByTestId('superseded-case');
    await superseded.waitFor();
    await page.locator('h1 + .mantine-Badge-root', { hasText: 'Superseded' }).waitFor();
    expect(await page.getByTestId('stale-case').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Record decision' }).count()).toBe(0);
    await expectAccessible(page, 'review-case-superseded');
    await screenshot(page, '44b-review-case-superseded');
    await superseded.getByRole('link', { name: /^Open case/ }).click();
    await page.getByTestId('superseded-case').waitFor({ state: 'detached' });
    await page.getByRole('table', { name: 'Case details' }).waitFor();
    await page
      .getByRole('link', { name: /^Review cases/ })
      .first()
      .click();
    await page.getByTestId('page-text').waitFor();

    // The lowest cases that can be decided now were held at Probable by a rule (their fields alone add up to more):
    // a case says which rule and why, beside the records. Only current cases: an out-of-date case's records, scored as
    // they are now, may no longer be held.
    await waitingCases(page, 'Lowest score first', true);
    await rows.first().locator('td:nth-child(3)', { hasText: '0.5000' }).waitFor();
    // The list names the rule that held it when it was opened, and the score its fields gave; the held cases' tie at
    // 0.5000 is broken by that score, lowest first.
    // A possible twin names the twin rule's case ("possible twin, names alike").
    const twinCases = Object.values(TWIN_REASON_NAME).join('|');
    const held = new RegExp(
      `^Probableheld: (possible twin(?:, (${twinCases}))?|names only|birth dates disagree|no name evidence) \\(from (0\\.\\d{4}|1\\.0000)\\)$`,
    );
    // The list may still show the previous choice for a moment: wait until it has only current cases, in order.
    const heldInOrder = async (): Promise<boolean> => {
      const from = (await rows.locator('td:nth-child(4)').allTextContents())
        .map((text) => held.exec(text)?.[3])
        .filter((score) => score !== undefined)
        .map(Number);
      const outOfDate = await rows.getByText('Out of date').count();
      return outOfDate === 0 && from.length > 1 && from.every((score, i) => i === 0 || (from[i - 1] ?? 0) <= score);
    };
    await expect.poll(heldInOrder, { timeout: 20_000 }).toBe(true);
    expect(await rows.first().locator('td:nth-child(4)').textContent()).toMatch(held);
    // The held case on the strongest evidence, the last of them. The weakest one (held from 0.6023 or 0.7778 in this
    // sandbox) did not always show the rule on its page: the page scores the best pair of all the two identities'
    // records as they are now, which need not be the pair that opened the case.
    const matchedAs = await rows.locator('td:nth-child(4)').allTextContents();
    let strongest = 0;
    matchedAs.forEach((text, i) => {
      if (held.test(text)) strongest = i;
    });
    // On this sandbox the twin rule holds some of them, and each such case in the list names its case.
    const twinCaseNames = matchedAs.map((text) => held.exec(text)?.[2]).filter((name) => name !== undefined);
    expect(twinCaseNames.length).toBeGreaterThan(0);
    expect(matchedAs.filter((text) => text.startsWith('Probableheld: possible twin ('))).toEqual([]);
    const strongestTwin = held.exec(matchedAs[strongest] ?? '')?.[2];
    await rows
      .nth(strongest)
      .getByRole('link', { name: /^Open case/ })
      .click();
    const rule = page.getByTestId('pair-records-rule');
    await rule.waitFor();
    expect(await rule.textContent()).toMatch(
      /, so the score is held to the Probable threshold \(0\.5\): such a pair may go to review but is never linked automatically\.$/,
    );
    expect(
      await page
        .getByRole('table', { name: 'Case details' })
        .getByRole('row', { name: /^Score/ })
        .textContent(),
    ).toMatch(
      /^Score0\.5000 \(probable under profile version \d+\)Held at the Probable threshold when opened \((possible twin|names only|birth dates disagree|no name evidence); its fields scored (0\.\d{4}|1\.0000)\): .+\.$/,
    );
    // The case's page says in full the case the list named.
    if (strongestTwin !== undefined) {
      const reason = (Object.keys(TWIN_REASON_NAME) as TwinReason[]).find((r) => TWIN_REASON_NAME[r] === strongestTwin);
      expect(
        await page
          .getByRole('table', { name: 'Case details' })
          .getByRole('row', { name: /^Score/ })
          .textContent(),
      ).toContain(TWIN_REASON_TEXT[reason ?? 'another-given-name']);
    }
    await expectAccessible(page, 'review-case-held');
    await screenshot(page, '44c-review-case-held');
    await page
      .getByRole('link', { name: /^Review cases/ })
      .first()
      .click();
    await page.getByTestId('page-text').waitFor();

    // Held by one case of the twin rule: the list holds that case's waiting cases that can be decided now and no
    // other, as the engine counts them. (Which queue "Next waiting case" then follows: review-text.test.ts, and the
    // decided case below, after the choice is undone.)
    const twinCase = twinCaseNames[0] ?? '';
    const twinReason = (Object.keys(TWIN_REASON_NAME) as TwinReason[]).find((r) => TWIN_REASON_NAME[r] === twinCase);
    // Each choice says how many cases it would list, as the engine counts them.
    const expected = await waitingCount(join(dir, 'reviews.db'), { limitedBy: 'PossibleTwin', twinReason });
    await page.getByLabel('Held by', { exact: true }).first().click();
    await page.getByRole('option', { name: /^Any, held or not \(\d+\)$/ }).waitFor();
    await screenshot(page, '44e0-reviews-held-by-choices');
    await page.getByRole('option', { name: `Possible twin, ${twinCase} (${String(expected)})`, exact: true }).click();
    expect(expected).toBeGreaterThan(0);
    await page
      .getByTestId('page-text')
      .filter({ hasText: new RegExp(` of ${String(expected)}$`) })
      .waitFor();
    await page.locator('[data-testid="review-cases"][aria-busy="false"]').waitFor();
    const heldRows = await rows.locator('td:nth-child(4)').allTextContents();
    expect(heldRows).toHaveLength(Math.min(expected, 50));
    for (const text of heldRows) expect(held.exec(text)?.[2]).toBe(twinCase);
    await expectAccessible(page, 'reviews-held-by');
    await screenshot(page, '44e-reviews-held-by');
    await page.getByLabel('Held by', { exact: true }).first().click();
    await page.getByRole('option', { name: /^Any, held or not \(\d+\)$/ }).click();
    await page
      .getByTestId('page-text')
      .filter({ hasNotText: new RegExp(` of ${String(expected)}$`) })
      .waitFor();

    // The highest waiting case scores Certain: a record matched two identities as surely, and identities are never
    // joined without a person. The case says so beside its score. Out-of-date cases are listed too: the set-up's aging
    // picks one case at random (by case ID), possibly this one.
    await waitingCases(page, 'Highest score first', false);
    await rows.first().locator('td:nth-child(4)', { hasText: 'Certain' }).waitFor();
    await rows
      .first()
      .getByRole('link', { name: /^Open case/ })
      .click();
    const details = page.getByRole('table', { name: 'Case details' });
    await details.waitFor();
    expect(await details.getByRole('row', { name: /^Score/ }).textContent()).toMatch(
      /^Score1\.0000 \(certain under profile version \d+\)Certain, yet a case: only a record that arrives is linked automatically; two identities are never joined without a person, however well they match\.$/,
    );
    await expectAccessible(page, 'review-case-certain');
    await screenshot(page, '44d-review-case-certain');
    // Answered unsure (or out of date, so not to be answered), the case offers the next one from the list as it was
    // left: every waiting case that can be decided now, highest score first. This one, unsure, stays open.
    const certainUrl = page.url();
    const answered = (await page.getByRole('button', { name: 'Record decision' }).count()) > 0;
    if (answered) {
      await page.getByLabel('Unsure').click();
      await page.getByLabel('Reason').fill('Asking the GP for the letters');
      await page.getByRole('button', { name: 'Record decision' }).click();
      await page.getByRole('table', { name: 'Decisions recorded on this case' }).waitFor();
      expect(await page.getByTestId('decision-recorded').textContent()).toBe('Recorded: Unsure.');
    }
    const followed = await nextWaiting(join(dir, 'reviews.db'), { sort: 'score-high' });
    expect(followed).toBeDefined();
    expect(`#/reviews/${followed ?? ''}`).not.toBe(new URL(certainUrl).hash);
    expect(await page.getByTestId('next-case-queue').textContent()).toBe(
      'From the list as you left it: every kind, highest score first.',
    );
    if (answered) {
      // Recorded, the case is done with for now: focus is on the way on, and Enter follows it.
      await vi.waitFor(async () => {
        expect(await focusedText(page)).toBe('A Next waiting case');
      });
      await page.keyboard.press('Enter');
    } else await page.getByRole('link', { name: 'Next waiting case' }).click();
    await page.waitForURL((url) => url.hash === `#/reviews/${followed ?? ''}`);
    await page.getByRole('table', { name: 'Case details' }).waitFor();
    // The next case starts at its heading, where reading and the next Tab begin; nothing is said recorded on it.
    expect(await focusedText(page)).toBe(`H1 Review case ${(followed ?? '').replace(/^rc-/, '').slice(0, 8)}`);
    expect(await page.getByTestId('decision-recorded').count()).toBe(0);
    await page
      .getByRole('link', { name: /^Review cases/ })
      .first()
      .click();
    await page.getByTestId('page-text').waitFor();

    // The link-quality scan finds the false link; its case opens on the identity's record graph.
    await page.getByRole('button', { name: 'Scan identities' }).click();
    await page.getByTestId('link-quality-report').waitFor();
    expect(await page.getByTestId('link-quality-report').getByRole('status').textContent()).toMatch(
      / 1 flagged .* 1 new case opened/,
    );
    await page.getByTestId('record-graph').waitFor();
    // Flags are named in words, not as the API's codes.
    const report = page.getByTestId('link-quality-report');
    expect(await report.getByRole('table', { name: 'Flagged identities by flag' }).innerText()).toMatch(
      /Weak bridge\s+1\s+records fall apart/,
    );
    expect(await report.innerText()).toMatch(/The most doubtful identity: weak bridge(, [a-z ]+)*; weakest link/);
    await expectAccessible(page, 'link-quality-scanned');
    // Every badge of the list reads whole: beside the scan's long row the Reviewer column narrowed, and Mantine cut
    // "Out of date" to "Out of …".
    const list = page.getByRole('table', { name: 'Review cases' });
    expect(await list.locator('.mantine-Badge-label').allTextContents()).toContain('Out of date');
    expect(await cutLabels(list)).toEqual([]);
    await screenshot(page, '45-link-quality-scanned');
    // In the narrowest window the scan's button and the list's badges read whole, and the list needs no sideways scroll.
    await expectFitsNarrowWindow(page, '45-link-quality-scanned', [list]);
    await page.getByRole('button', { name: 'Show the link quality cases' }).click();
    await page.getByTestId('page-text').filter({ hasText: 'Cases 1–1 of 1' }).waitFor();
    expect(await rows.first().innerText()).toMatch(/\tLink quality\s+scan\s/);
    // The list says why the scan asks, as the case does.
    expect(await rows.first().innerText()).toMatch(/Flagged: Weak bridge/);
    // Most doubtful first: the order a person works the scan's cases in.
    expect(await page.getByLabel('Order', { exact: true }).first().inputValue()).toBe('Most doubtful links first');
    await expectAccessible(page, 'link-quality-cases');
    await screenshot(page, '45b-link-quality-cases');
    await rows
      .first()
      .getByRole('link', { name: /^Open case/ })
      .click();
    await page.getByRole('table', { name: 'Case details' }).waitFor();
    expect(await page.getByRole('table', { name: 'Case details' }).innerText()).toMatch(
      /Opened\s+.+ by a link quality scan\n/,
    );
    // The case says why the scan flagged its identity, each flag with what it means.
    expect(await page.getByTestId('case-flags').innerText()).toMatch(
      /^Weak bridge: records fall apart into groups that no Probable score joins/,
    );
    const graph = page.getByTestId('record-graph');
    await graph.waitFor();
    // Four records, six pairs; the ones that hold two people together are below Probable.
    expect(await graph.locator('[data-edge]').count()).toBe(6);
    // Under a weak bridge the case opens on the weakest link, and says so.
    expect(await page.getByTestId('shown-first').innerText()).toMatch(
      /^The pair shown first: the identity's weakest link/,
    );
    // Records of a source that holds another of the identity's records are named so in the legend, and only those.
    const legend = graph.locator('xpath=..').locator('p[data-same-source]');
    const sources = (await legend.allInnerTexts()).map((line) => /^\d+ (\S+) \//.exec(line)?.[1] ?? '');
    expect(sources).toHaveLength(4);
    for (const [i, source] of sources.entries()) {
      const twice = sources.filter((other) => other === source).length > 1;
      expect(await legend.nth(i).getAttribute('data-same-source')).toBe(String(twice));
      expect(await legend.nth(i).innerText()).toMatch(twice ? / · same source as \d/ : /^[^·]+$/);
    }
    const weak = graph.locator('[data-strong="false"]');
    expect(await weak.count()).toBeGreaterThan(0);
    const firstRecord = await page.getByLabel('First record', { exact: true }).first().inputValue();
    await weak.last().click();
    await page.getByTestId('pair-records').waitFor();
    await expectAccessible(page, 'link-quality-case');
    await screenshot(page, '46-link-quality-case');

    // The identity's history: its four records arrived as two identities' worth, then the scan's case.
    await page
      .getByRole('link', { name: /^Identity [0-9a-f-]+: its records and history$/ })
      .first()
      .click();
    const history = page.getByTestId('identity-history');
    await history.waitFor();
    expect(await history.locator('[data-kind="review-case-opened"]').count()).toBe(1);
    // The scan's case is named as the Review cases page names it, and its score is the identity's weakest link.
    expect(await history.locator('[data-kind="review-case-opened"]').innerText()).toMatch(
      /a link quality review case rc-[0-9a-f]+ opened on its weakest link, scored \d\.\d{4} \(profile v1\)/,
    );
    expect(await history.locator('[data-kind="identity-created"], [data-kind="record-joined"]').count()).toBe(2);
    // Who the identity is: its canonical record, each surviving value beside the record it came from (one of its own).
    const familyName = page.getByTestId('canonical-record').locator('tr[data-field="familyName"] td');
    expect(await familyName.first().innerText()).toMatch(/^[a-z][a-z' -]*$/);
    const [system, localId] = (await familyName.nth(1).innerText()).split('/');
    const records = await page
      .getByRole('table', { name: "The identity's records" })
      .locator('tbody tr')
      .allInnerTexts();
    expect(records.filter((row) => row.startsWith(`${system ?? '-'}\t${localId ?? '-'}\t`))).toHaveLength(1);
    // The false link above moved two records in by hand, past survivorship: the card says so and what rebuilds it.
    expect(await page.getByRole('region', { name: 'Canonical record' }).innerText()).toMatch(
      /Built from 2 records when it was last rebuilt; the identity has 4 now, and the next reconciliation rebuilds it/,
    );
    // The fields the canonical record has no value for, with why (the records it was built from give none).
    expect(await page.getByTestId('canonical-missing').innerText()).toMatch(
      /^Without a value: [a-z ,]+ \(none of the records it was built from gives one\)\.$/,
    );
    // The records side by side: the four records, and the other person's values, moved in by hand, marked as
    // differing from the canonical record (the record the family name came from differs on nothing of the name's).
    const sideBySide = page.getByTestId('identity-records');
    expect(await sideBySide.locator('thead th').count()).toBe(5);
    const marked = await sideBySide.locator('td[data-differs="true"]').count();
    expect(marked).toBeGreaterThan(1);
    expect(await page.getByRole('region', { name: 'The records side by side' }).textContent()).toContain(
      `${String(marked)} values differ from the canonical record`,
    );
    const sourceColumn = (await sideBySide.locator('thead th').allInnerTexts()).findIndex((text) =>
      text.endsWith(`${system ?? '-'} / ${localId ?? '-'}`),
    );
    expect(sourceColumn).toBeGreaterThan(0);
    for (const field of ['familyName', 'givenName', 'birthDate'])
      expect(
        await sideBySide.locator(`tr[data-field="${field}"] > *`).nth(sourceColumn).getAttribute('data-differs'),
      ).toBeNull();
    await expectAccessible(page, 'identity-history');
    await screenshot(page, '47-identity-history');
    // An identity of four records in the narrowest window: its records side by side scroll in their own region, and
    // nothing else is cut.
    await expectFitsNarrowWindow(page, '47-identity-history');

    // From a record to its identity, as an analyst starts from a complaint: the Review cases page opens the identity
    // of a source's local ID, and says plainly when no record has it.
    const identityAddress = page.url();
    await page
      .getByRole('link', { name: /^Review cases/ })
      .first()
      .click();
    const find = page.getByRole('region', { name: /^Open a record.s identity$/ });
    // The source is chosen or typed (a source the profile does not list sends records too).
    await find.getByLabel('Source').fill(system ?? '-');
    await find.getByRole('textbox', { name: 'Local ID' }).fill(`${localId ?? ''}9`);
    await find.getByRole('button', { name: 'Open its identity' }).click();
    expect(await find.getByTestId('find-identity-error').innerText()).toMatch(
      new RegExp(
        `No record of ${system ?? '-'} has that local ID in this registry\\. Check the source, and the ID exactly`,
      ),
    );
    await expectAccessible(page, 'find-identity-not-found');
    await screenshot(page, '47b-find-identity-not-found');
    await find.getByRole('textbox', { name: 'Local ID' }).fill(localId ?? '');
    await find.getByRole('button', { name: 'Open its identity' }).click();
    await page.getByTestId('identity-history').waitFor();
    expect(page.url()).toBe(identityAddress);
    // The sources offered are the profile's, then those only the registry's records name (one since dropped from the
    // profile): chosen from the list, it opens its record's identity.
    await page
      .getByRole('link', { name: /^Review cases/ })
      .first()
      .click();
    await find.getByLabel('Source').click();
    await find.getByLabel('Source').fill('');
    await page.getByRole('option', { name: DROPPED_SOURCE, exact: true }).waitFor();
    expect(await page.getByRole('option').allInnerTexts()).toEqual([...SOURCE_NAMES, DROPPED_SOURCE]);
    await expectAccessible(page, 'find-identity-sources');
    await screenshot(page, '47c-find-identity-sources');
    await page.getByRole('option', { name: DROPPED_SOURCE, exact: true }).click();
    await find.getByRole('textbox', { name: 'Local ID' }).fill(reconciliation.droppedRecord);
    await find.getByRole('button', { name: 'Open its identity' }).click();
    await page.getByTestId('identity-history').waitFor();
    expect(await page.getByTestId('identity-history').innerText()).toContain(
      `${DROPPED_SOURCE}/${reconciliation.droppedRecord} arrived`,
    );

    // Health: thirteen ingests (the sandbox's load, two more a source and the risen one), the reconciliation and the
    // worker's daily sample; charts with a line per source.
    await page.getByRole('link', { name: /^Health/ }).click();
    await page.getByTestId('health-flags').waitFor();
    // Each shift flagged says, in percent, what moved and what to do about it.
    const flags = page.getByTestId('health-flag');
    expect(await flags.count()).toBeGreaterThan(0);
    for (const text of await flags.allInnerTexts())
      expect(text).toMatch(/ from [\d.,]+%? to [\d.,]+%? \(z -?\d+\.\d\)\n+What to do: \S.+/);
    // How a shift is judged folds under one line, and opens on a click.
    const judged = page.getByTestId('health-rule');
    expect(await judged.getAttribute('open')).toBeNull();
    await judged.getByText('How a shift is judged').click();
    await judged.getByText(/two-proportion z-test/).waitFor();
    const figures = page.getByRole('table', { name: 'Health figures, newest first' });
    await figures.waitFor();
    expect(await figures.locator('tbody tr').count()).toBe(15);
    expect(await figures.getByText('Daily figures').count()).toBe(1);
    // In the narrowest window the figures show every column, the holds under each count included.
    await expectFitsNarrowWindow(page, '46-health', [figures]);
    // The sandbox's load, each source's first ingest, with its review cases and their rate.
    const load = figures.locator('tbody tr').last().locator('td');
    expect(await load.nth(1).innerText()).toMatch(/^Ingest from /);
    // Under them, what held them, most first, adding up to the cases.
    const loadCases = await load.nth(4).innerText();
    expect(loadCases).toMatch(/^\d+ \([\d.]+ per 1,000\)\n+[a-z ]+ \d+(, [a-z ]+ \d+)*$/);
    const [opened = '', heldBy = ''] = loadCases.split(/\n+/);
    const heldCounts = heldByCounts(heldBy);
    expect(heldCounts.reduce((a, b) => a + b, 0)).toBe(Number(/^\d+/.exec(opened)?.[0]));
    expect(heldCounts).toEqual([...heldCounts].sort((a, b) => b - a));
    // The daily sample: the registry's records with grouping; it opens no review cases, so "—", not a 0 that reads
    // like a measurement.
    const daily = figures.getByRole('row', { name: /Daily figures/ }).locator('td');
    expect(await daily.nth(3).innerText()).toMatch(/^\d,\d{3}$/);
    expect(await daily.nth(4).innerText()).toBe('—');
    await page.locator('figure[aria-label^="Review cases per 1,000"] .recharts-line-curve').first().waitFor();
    // What held the review cases: a bar per ingest or job that opened cases, split by hold, the latest in words; a
    // bar's tooltip says which ingest or job it is.
    const holdChart = page.getByTestId('health-holds').locator('figure');
    expect(await holdChart.getAttribute('aria-label')).toMatch(
      /^Review cases each ingest and job opened, by what held them, in percent of its cases, oldest first; the latest: .+, \d+ cases?: (No rule|Possible twin|Names only|Link quality)[^:]* \d+/,
    );
    // A bar's drawn piece (a hold with no case in a bar draws none).
    const pieces = holdChart.locator('path.recharts-rectangle');
    await pieces.first().waitFor();
    await pieces.last().hover();
    await page
      .getByTestId('health-holds')
      .getByText(/^(Ingest from [a-z-]+ \(ingest \d+\)|[a-z-]+ completed): \d+ cases?$/)
      .waitFor();
    // Fields are named in words; choosing one draws its share.
    await page.getByRole('radiogroup', { name: 'Field' }).getByText('Phone', { exact: true }).click();
    await page
      .locator('figure[aria-label^="Share of records created with phone filled in, in percent"] .recharts-line-curve')
      .first()
      .waitFor();
    // What matching met: the last ingest's pairs by score band, a rule's candidates per record, identities by size.
    await page
      .locator('figure[aria-label^="Compared pairs of the last ingest by score band"] .recharts-bar-rectangle')
      .first()
      .waitFor({ state: 'attached' });
    await page.getByRole('combobox', { name: 'Blocking rule' }).click();
    await page.getByRole('option', { name: 'phone', exact: true }).click();
    await page
      .locator('figure[aria-label^="Candidate identities per record created found by blocking rule phone"]')
      .waitFor();
    expect(
      await page.locator('figure[aria-label^="Identities by their number of records"]').getAttribute('aria-label'),
    ).toMatch(/^Identities by their number of records, in percent: 1: [\d.]+% \(\d+\), 2: /);
    await expectAccessible(page, 'health');
    await screenshot(page, '48-health');

    // A job's review cases open from its row: the list of that job's cases.
    await figures
      .getByRole('row', { name: /reconciliation completed/ })
      .getByRole('link')
      .click();
    await page.getByTestId('job-filter').waitFor();
    expect(await page.getByTestId('job-filter').innerText()).toBe(`Opened by job ${shortJob}`);
    // Every case it opened, as the count says, the decided one above among them.
    expect(await page.getByLabel('Status', { exact: true }).first().inputValue()).toBe('All');
    await page.locator('[data-testid="review-cases"][aria-busy="false"]').waitFor();
    expect(await rows.count()).toBe(Math.min(50, reconciliation.cases));
    // The risen review cases open from their flag: the cases that source's latest ingest opened (those opened after
    // its ingest before), newest first, whatever the list showed before.
    await page.getByRole('link', { name: /^Health/ }).click();
    const risenFlag = flags.filter({ hasText: `${RISEN_SOURCE}: the review cases per 1,000 records created rose` });
    await risenFlag.getByRole('link', { name: `Open the cases of ${RISEN_SOURCE}'s latest ingest` }).click();
    await page.locator('[data-testid="review-cases"][aria-busy="false"]').waitFor();
    expect(await page.getByTestId('job-filter').count()).toBe(0);
    expect(await page.getByLabel('Kind', { exact: true }).first().inputValue()).toBe('Ingestion');
    expect(await page.getByLabel('Ingested from', { exact: true }).first().inputValue()).toBe(RISEN_SOURCE);
    expect(await page.getByLabel('Order', { exact: true }).first().inputValue()).toBe('Newest first');
    expect(await page.getByTestId('opened-after-filter').innerText()).toMatch(/^Opened after \S.+\d/);
    const risenRows = await rows.locator('td:nth-child(2)').allInnerTexts();
    expect(reconciliation.risenCases).toBeGreaterThan(0);
    expect(risenRows).toHaveLength(reconciliation.risenCases);
    for (const origin of risenRows) expect(origin).toMatch(new RegExp(`^Ingestion\\n+from ${RISEN_SOURCE}$`));
    // All held as names only, as the ingest's records carry nothing else.
    expect(await page.getByLabel('Held by', { exact: true }).first().inputValue()).toBe(
      `Any, held or not (${String(reconciliation.risenCases)})`,
    );
    expect(await rows.filter({ hasText: /names only/i }).count()).toBe(reconciliation.risenCases);
    await expectAccessible(page, 'health-risen-cases');
    await screenshot(page, '48b-health-risen-cases');
    // Without the time, every case of the source: the older ingests' too.
    await page.getByRole('button', { name: 'Show the cases opened at any time' }).click();
    await page.getByTestId('opened-after-filter').waitFor({ state: 'detached' });
    await page.locator('[data-testid="review-cases"][aria-busy="false"]').waitFor();
    expect(await rows.count()).toBeGreaterThan(reconciliation.risenCases);
    expect(typeof firstRecord).toBe('string');
    expect(pageErrors).toEqual([]);
  });
});

/** The focused element's tag and text, as a check of where the keyboard is. */
function focusedText(page: Page): Promise<string> {
  return page.evaluate<string>(
    "(document.activeElement?.tagName ?? '') + ' ' + (document.activeElement?.textContent ?? '')",
  );
}
