/**
 * A record without a birth date at the home of a father and son of its name, in the console. John Smith, born 1956,
 * and John Smith, born 1986, live at 4 Elm Street; St Mary's Hospital sends a John Smith of that address without a
 * birth date. It is certain against both, and linked to neither: a review case asks about each, held for that reason
 * (IdentitiesApart). The case page says why and what to do, and scores the pair it shows as it did when opened.
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
import { johnSmith } from '../helpers/registry.ts';

const TENANT = 'smith';
let dir: string;
let caseId: string;
let host: HostProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

/** John Smith of 4 Elm Street as a line of NDJSON. */
const john = (id: string, birthDate?: string): string => JSON.stringify(johnSmith(id, birthDate));

beforeAll(async () => {
  ({ dir, caseId } = await prepareHeldCase(
    { prefix: 'mpi-e2e-identities-apart-', file: 'smith.db', tenantId: TENANT, people: 40, seed: 7 },
    `${john('lab-1')}\n`,
    'IdentitiesApart',
    async (engine, ctx) => {
      const report = await engine.call(
        'records/ingest',
        { sourceSystem: 'northside-gp', ndjson: `${john('f1', '1956-04-02')}\n${john('s1', '1986-09-21')}\n` },
        ctx,
      );
      expect(report.newIdentities).toBe(2);
    },
  ));
  ({ host, browser, context, page } = await openConsole(join(dir, 'data'), pageErrors));
});

afterAll(async () => {
  await closeConsole(context, browser, host, dir);
});

describe('a record without a birth date at the home of a father and son of its name', () => {
  it('is a review case held for it, which says why and what to do', async () => {
    expect(caseId).not.toBe('');
    await openReviewCase(page, host.launchUrl, join(dir, 'smith.db'), TENANT, caseId);
    await page.getByTestId('pair-records').waitFor();
    const score = await page
      .getByRole('table', { name: 'Case details' })
      .getByRole('row', { name: /^Score/ })
      .textContent();
    expect(score).toMatch(
      /^Score0\.5000 \(probable under profile version \d+\)Held at the Probable threshold when opened \(fits two people; its fields scored (0\.9\d{3}|1\.0000)\): One of this case’s identities is certain against the other and against one more identity, .+a father and son, .+ then answer same person on that case and different people on the other\.$/,
    );
    const heldFrom = /its fields scored (\d\.\d{4})/.exec(score ?? '')?.[1] ?? 'none';
    expect(await page.getByTestId('pair-records-note').textContent()).toBe(
      `The records as they are now, scored by the active profile: ${heldFrom}, as in the case when it was opened.`,
    );
    await expectAccessible(page, 'identities-apart');
    await screenshot(page, '46f-identities-apart');
    expect(pageErrors).toEqual([]);
  });
});
