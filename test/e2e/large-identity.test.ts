/**
 * A link quality case about a very large identity in the console: one patient registered afresh at every visit
 * (test/helpers/repeated-patient.ts), 130 times by one source, is one identity of 130 records.
 * Its case page says how many records the identity holds and that the case compares its oldest 100, and says in words
 * that there are too many to draw, where a graph of 100 records and 4,950 edges was an unreadable blot with 4,950
 * focusable edges. Two records can still be chosen and compared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  closeConsole,
  expectAccessible,
  type HostProcess,
  openConsole,
  prepareSandbox,
  screenshot,
} from './helpers.ts';
import { repeatedPatient } from '../helpers/repeated-patient.ts';

const TENANT = 'large';
let dir: string;
let caseId: string;
let host: HostProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  const sandbox = await prepareSandbox(
    { prefix: 'mpi-e2e-large-', file: 'large.db', tenantId: TENANT, people: 40, seed: 3 },
    async (engine, ctx) => {
      await engine.call('records/ingest', { sourceSystem: 'st-marys-hospital', ndjson: repeatedPatient(130) }, ctx);
      await engine.call('links/scan', {}, ctx);
      const cases = await engine.call('reviews/list', { kind: 'LinkQuality', sort: 'most-doubtful' }, ctx);
      return cases.rows[0]?.caseId ?? '';
    },
  );
  dir = sandbox.dir;
  caseId = sandbox.filled ?? '';
  ({ host, browser, context, page } = await openConsole(join(dir, 'data'), pageErrors));
});

afterAll(async () => {
  await closeConsole(context, browser, host, dir);
});

describe('a link quality case about a very large identity', () => {
  it('counts all its records, says why no graph is drawn, compares the two chosen, and pages its records and history', async () => {
    const file = join(dir, 'large.db');
    await page.goto(host.launchUrl);
    await page.getByLabel('Sandbox file').fill(file);
    await page.getByLabel('Tenant').fill(TENANT);
    // A look at Review cases before opening (the console shows the Sandboxes page until one is open): the form keeps
    // what was typed.
    await page.getByRole('link', { name: /Review cases/ }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/reviews');
    expect(await page.getByLabel('Sandbox file').inputValue()).toBe(file);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
    await page.getByRole('link', { name: /Review cases/ }).click();
    await page.getByRole('link', { name: caseId.slice(3, 11) }).click();
    await page.getByTestId('graph-too-large').waitFor();
    expect(await page.getByText(/· 130 records \(the case compares its oldest 100\) · version/).count()).toBe(1);
    expect(await page.getByTestId('graph-too-large').innerText()).toBe(
      'This identity holds 130 records (the case compares its oldest 100): too many to draw pair by pair (the graph shows an identity of up to 20 records, the most the scan takes for one person).',
    );
    expect(await page.getByTestId('record-graph').count()).toBe(0);
    expect(await page.getByTestId('shown-first').innerText()).toMatch(/ Choose two records to compare others\.$/);
    // Any two of the records it carries can be compared.
    await page.getByLabel('Second record', { exact: true }).first().click();
    await page.getByRole('option', { name: 'st-marys-hospital / RPT00099' }).click();
    await page.getByRole('columnheader', { name: 'st-marys-hospital / RPT00099' }).waitFor();
    await expectAccessible(page, 'large-identity');
    await screenshot(page, '46b-large-identity');

    // The identity's page sets its first 20 records side by side, says so, and scrolls them sideways (a region the
    // keyboard reaches too: axe checks it).
    await page
      .getByRole('link', { name: /^Identity [0-9a-f-]+: its records and history$/ })
      .first()
      .click();
    const sideBySide = page.getByTestId('identity-records');
    await sideBySide.waitFor();
    expect(await sideBySide.locator('thead th').count()).toBe(21);
    expect(await page.getByRole('region', { name: 'The records side by side' }).innerText()).toContain(
      'The first 20 of 130 records are shown; the link-quality scan reads them all.',
    );
    const scroller = page.getByTestId('identity-records-scroll');
    // (The tests' types have no DOM: the element's widths are named in a cast, which the browser never sees.)
    const overflows = await scroller.evaluate((e) => {
      const w = e as unknown as { scrollWidth: number; clientWidth: number };
      return w.scrollWidth > w.clientWidth;
    });
    expect(overflows).toBe(true);
    await expectAccessible(page, 'large-identity-page');
    await screenshot(page, '46b2-large-identity-page');

    // Its 130 records and their history are drawn 50 at a time, each with a pager a person turns.
    const links = page.getByRole('table', { name: "The identity's records", exact: true });
    expect(await links.locator('tbody tr').count()).toBe(50);
    expect(await page.getByTestId('records-range').innerText()).toBe('Records 1–50 of 130');
    expect(await page.getByRole('button', { name: 'Previous records' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Next records' }).click();
    await page.getByRole('button', { name: 'Next records' }).click();
    await expect.poll(() => page.getByTestId('records-range').innerText()).toBe('Records 101–130 of 130');
    expect(await links.locator('tbody tr').count()).toBe(30);
    expect(await links.locator('tbody tr').last().innerText()).toContain('RPT00129');
    expect(await page.getByRole('button', { name: 'Next records' }).isDisabled()).toBe(true);
    const history = page.getByTestId('identity-history');
    const events = Number(/^Events 1–50 of (\d+)$/.exec(await page.getByTestId('events-range').innerText())?.[1]);
    expect(events).toBeGreaterThanOrEqual(130);
    expect(await history.locator('[data-kind]').count()).toBe(50);
    const firstShown = await history.locator('[data-kind]').first().innerText();
    await page.getByRole('button', { name: 'Next events' }).click();
    await expect.poll(() => page.getByTestId('events-range').innerText()).toBe(`Events 51–100 of ${String(events)}`);
    expect(await history.locator('[data-kind]').count()).toBe(50);
    expect(await history.locator('[data-kind]').first().innerText()).not.toBe(firstShown);
    await expectAccessible(page, 'large-identity-paged');
    await screenshot(page, '46b3-large-identity-paged');
    expect(pageErrors).toEqual([]);
  });
});
