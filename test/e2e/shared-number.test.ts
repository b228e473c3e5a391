/**
 * A personal number shared in a household, in the console: a mother's social-security number copied onto her
 * daughter's record (one address and phone, the number named personal in the profile). They were linked at score 1;
 * now their pair is a review case held for a shared number, and the case says why and what to check.
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
import { householdPatient } from '../helpers/household-patient.ts';

const TENANT = 'household';
const SSN = 'http://hl7.org/fhir/sid/us-ssn';
let dir: string;
let caseId: string;
let host: HostProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

/** One of the Lopez household, carrying the mother's number. */
function lopez(id: string, given: string, birthDate: string): string {
  return JSON.stringify(
    householdPatient({
      id,
      identifier: [{ system: SSN, value: '532-61-8842' }],
      name: [{ family: 'Lopez', given: [given] }],
      gender: 'female',
      birthDate,
    }),
  );
}

beforeAll(async () => {
  ({ dir, caseId } = await prepareHeldCase(
    { prefix: 'mpi-e2e-shared-number-', file: 'household.db', tenantId: TENANT, people: 40, seed: 5 },
    `${lopez('m1', 'Maria', '1985-03-02')}\n${lopez('d1', 'Sofia', '2014-06-01')}\n`,
    'SharedIdentifier',
    async (engine, ctx) => {
      await engine.call(
        'profile/apply',
        { document: { PersonalIdentifierSystems: [SSN] }, reason: 'the social-security number is personal' },
        ctx,
      );
    },
  ));
  ({ host, browser, context, page } = await openConsole(join(dir, 'data'), pageErrors));
});

afterAll(async () => {
  await closeConsole(context, browser, host, dir);
});

describe('a mother and daughter sharing the mother’s number', () => {
  it('are a review case held for a shared number, which says why', async () => {
    expect(caseId).not.toBe('');
    await openReviewCase(page, host.launchUrl, join(dir, 'household.db'), TENANT, caseId);
    await page.getByTestId('pair-records').waitFor();
    await page.getByText(/Held at the Probable threshold when opened \(shared number/).waitFor();
    expect(
      await page.getByText(/a personal identifier agrees, but the given names and birth dates both disagree/).count(),
    ).toBe(1);
    await expectAccessible(page, 'shared-number');
    await screenshot(page, '46d-shared-number');
    expect(pageErrors).toEqual([]);
  });
});
