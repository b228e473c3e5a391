/**
 * Possible twins in the console, each case of the twin rule with its own words on the review case page:
 *  - Newborn twins registered before they are named: "Baby Boy A" and "Baby Boy B" under one family name, birth date,
 *    address and phone (test/helpers/repeated-patient.ts). They were linked at score 1; now their pair is a review
 *    case held as possible twins, and the comparison viewer says why the given names were not compared.
 *  - "J Smith" beside "John Smith" of one birth date, who moved: no match before (the initial counted as another
 *    name); now a case held as possible twins, the initial Strong beside the name (level initial-of-name).
 *  - "J Doe" beside "Robert James Doe" of one birth date, who may go by James: the initial Strong beside the middle
 *    name (level initial-of-middle-name), held as the initial beside a given name is.
 */
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectFitsNarrowWindow, screenshot } from './helpers.ts';
import { consoleOnSandbox } from './held-case.ts';
import { newbornTwins } from '../helpers/repeated-patient.ts';
import { johnSmith, jSmith } from '../helpers/registry.ts';
import type { ReviewListRow } from '../../engine/contract/reviews.ts';

/** John Smith of 4 Elm Street, and J Smith of his birth date at another home, as lines of NDJSON. */
function johnAndJ(): string {
  return `${JSON.stringify(johnSmith('john-1', '1956-04-02'))}\n${JSON.stringify(jSmith('j-1', '1956-04-02', true))}\n`;
}

/** Robert James Doe, born 1971-08-15, and J Doe of his birth date at another home: a man who may go by James. */
function robertJames(): string {
  const robert = { ...johnSmith('robert-1', '1971-08-15'), name: [{ family: 'Doe', given: ['Robert', 'James'] }] };
  const j = { ...jSmith('j-2', '1971-08-15', true), name: [{ family: 'Doe', given: ['J'] }] };
  return `${JSON.stringify(robert)}\n${JSON.stringify(j)}\n`;
}

const twins = consoleOnSandbox(
  { prefix: 'mpi-e2e-twins-', file: 'newborns.db', tenantId: 'newborns', people: 40, seed: 3 },
  async (engine, ctx) => {
    const ndjson = newbornTwins(1) + johnAndJ() + robertJames();
    const report = await engine.call('records/ingest', { sourceSystem: 'st-marys-hospital', ndjson }, ctx);
    expect(report.autoLinked).toBe(0);
    return (await engine.call('reviews/list', { sourceSystem: 'st-marys-hospital' }, ctx)).rows;
  },
);

/** The ID of the one case whose given names compared at `level` (or, with no level given, were not compared). */
function caseAt(level: string): string {
  const rows = twins.prepared.filter(
    (row: ReviewListRow) => row.evidence.find((e) => e.field === 'givenName')?.level === level,
  );
  expect(rows, level).toHaveLength(1);
  return rows[0]?.caseId ?? '';
}

describe('possible twins on the review case page', () => {
  it('newborn twins registered before they are named: the viewer says the given names were not compared', async () => {
    const { page, pageErrors } = twins;
    await twins.openCase(caseAt('newborn-placeholder'));
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
    // Twins at one home: in the narrowest window every column shows, each "0 (with the address)" included.
    expect(await records.getByText('0 (with the address)').count()).toBeGreaterThan(0);
    await expectFitsNarrowWindow(page, '46c-newborn-twins', [
      page.getByRole('table', { name: "The two records side by side, with each field's band and contribution" }),
    ]);
    expect(pageErrors).toEqual([]);
  });

  it('an initial beside a name of its letter: Strong, and held whatever else agrees', async () => {
    const { page, pageErrors } = twins;
    await twins.openCase(caseAt('initial-of-name'));
    const given = page.getByTestId('pair-records').getByRole('row', { name: /^Given name/ });
    expect(await given.innerText()).toMatch(/john\s+j\s+Strong: an initial alone and a name of that letter/);
    await page
      .getByTestId('pair-records')
      .getByText(/gives an initial alone \(J\), which agrees with every name of its letter \(John, James, Jane\)/)
      .waitFor();
    expect(await page.getByRole('row', { name: /^Score/ }).innerText()).toMatch(
      /Held at the Probable threshold when opened \(possible twin; its fields scored 0\.9\d{3}\): One of the records gives an initial alone/,
    );
    await expectAccessible(page, 'initial-beside-name');
    await screenshot(page, '46g-initial-beside-name');
    expect(pageErrors).toEqual([]);
  });

  it('an initial beside a middle name of its letter: Strong, and held as possible twins', async () => {
    const { page, pageErrors } = twins;
    await twins.openCase(caseAt('initial-of-middle-name'));
    const given = page.getByTestId('pair-records').getByRole('row', { name: /^Given name/ });
    expect(await given.innerText()).toMatch(
      /robert\s+j\s+Strong: an initial alone and the other record's middle name of that letter/,
    );
    expect(await page.getByRole('row', { name: /^Score/ }).innerText()).toMatch(
      /Held at the Probable threshold when opened \(possible twin; its fields scored 0\.\d{4}\): One of the records gives an initial alone/,
    );
    await expectAccessible(page, 'initial-beside-middle-name');
    await screenshot(page, '46h-initial-beside-middle-name');
    expect(pageErrors).toEqual([]);
  });
});
