/**
 * A sandbox copied to another folder without its configuration file, opened in the console: the Maintenance page says
 * which blocking key is missing, what still works, and which file to bring beside the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync } from 'node:fs';
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

let dir: string;
let host: HostProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  ({ dir } = await prepareSandbox({
    prefix: 'mpi-e2e-moved-',
    file: 'made.db',
    tenantId: 'moved',
    people: 60,
    seed: 3,
  }));
  copyFileSync(join(dir, 'made.db'), join(dir, 'moved.db'));
  ({ host, browser, context, page } = await openConsole(join(dir, 'data'), pageErrors));
});

afterAll(async () => {
  await closeConsole(context, browser, host, dir);
});

describe('a sandbox opened without its configuration file', () => {
  it('says on the Maintenance page which key is missing and which file to bring', async () => {
    await page.goto(host.launchUrl);
    await page.getByLabel('Sandbox file').fill(join(dir, 'moved.db'));
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const alert = page.getByTestId('missing-key');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(
      /^The blocking key is missing\s+The configuration file holds no secret for blocking key "k1" of tenant moved\. The records already here can be read, scored and reviewed, but nothing that needs the key can run: matching new records, re-index and reconciliation, evaluation, the estimate and comparing records' values\. Open the sandbox with the configuration file it was made with: its file name with \.config\.json in place of \.db, in the same folder\./,
    );
    await expectAccessible(page, 'missing-key');
    await screenshot(page, '05-missing-key');
    expect(pageErrors).toEqual([]);
  });
});
