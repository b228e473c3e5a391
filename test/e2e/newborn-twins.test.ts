/**
 * Newborn twins registered before they are named, in the console: "Baby Boy A" and "Baby Boy B" under one family
 * name, birth date, address and phone (test/helpers/repeated-patient.ts). They were linked at score 1; now their pair
 * is a review case held as possible twins, and the comparison viewer says why the given names were not compared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  closeConsole,
  expectAccessible,
  type HostProcess,
  openConsole,
  prepareHeldCase,
  openReviewCase,
  screenshot,
} from './helpers.ts';
import { newbornTwins } from '../helpers/repeated-patient.ts';

const TENANT = 'newborns';
let dir: string;
let caseId: string;
let host: HostProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  ({ dir, caseId } = await prepareHeldCase(
    { prefix: 'mpi-e2e-newborn-', file: 'newborns.db', tenantId: TENANT, people: 40, seed: 3 },
    newbornTwins(1),
    'PossibleTwin',
  ));
  ({ host, browser, context, page } = await openConsole(join(dir, 'data'), pageErrors));
});

afterAll(async () => {
  await closeConsole(context, browser, host, dir);
});

describe('newborn twins registered before they are named', () => {
  it('are a review case held as possible twins, and the viewer says the given names were not compared', async () => {
    expect(caseId).not.toBe('');
    await openReviewCase(page, host.launchUrl, join(dir, 'newborns.db'), TENANT, caseId);
    await page.getByTestId('pair-records').waitFor();
    const given = page.getByTestId('pair-records').getByRole('row', { name: /^Given name/ });
    expect(await given.innerText()).toMatch(/baby\s+baby\s+not compared: a newborn’s placeholder name/);
    const middle = page.getByTestId('pair-records').getByRole('row', { name: /^Middle names/ });
    expect(await middle.innerText()).toMatch(/boy a\s+boy b\s+not compared: a newborn’s placeholder name/i);
    // Under the records, why this pair was held, not the twin rule's every case (Jayden and Jaydon among them).
    const records = page.getByTestId('pair-records');
    await records
      .getByText(/newborn’s placeholder given name \(Baby Boy, Twin A\).*newborn twins are registered so/)
      .waitFor();
    expect(await records.getByText(/Jayden and Jaydon/).count()).toBe(0);
    // The Score row says it too, as the case recorded it when it was opened.
    expect(await page.getByRole('row', { name: /^Score/ }).innerText()).toMatch(
      /Held at the Probable threshold when opened \(possible twin; its fields scored 1\.0000\): A newborn’s placeholder given name/,
    );
    await expectAccessible(page, 'newborn-twins');
    await screenshot(page, '46c-newborn-twins');
    expect(pageErrors).toEqual([]);
  });
});
