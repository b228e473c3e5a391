/**
 * A personal number shared in a household, in the console: a mother's social-security number copied onto her
 * daughter's record (one address and phone, the number named personal in the profile). They were linked at score 1;
 * now their pair is a review case held for a shared number, and the case says why and what to check.
 */
import { describe, expect, it } from 'vitest';
import { expectAccessible, screenshot } from './helpers.ts';
import { heldCaseConsole } from './held-case.ts';
import { householdPatient } from '../helpers/household-patient.ts';

const SSN = 'http://hl7.org/fhir/sid/us-ssn';

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

const householdConsole = heldCaseConsole(
  { prefix: 'mpi-e2e-shared-number-', file: 'household.db', tenantId: 'household', people: 40, seed: 5 },
  `${lopez('m1', 'Maria', '1985-03-02')}\n${lopez('d1', 'Sofia', '2014-06-01')}\n`,
  'SharedIdentifier',
  async (engine, ctx) => {
    await engine.call(
      'profile/apply',
      { document: { PersonalIdentifierSystems: [SSN] }, reason: 'the social-security number is personal' },
      ctx,
    );
  },
);

describe('a mother and daughter sharing the mother’s number', () => {
  it('are a review case held for a shared number, which says why', async () => {
    const { page, prepared: caseId, pageErrors } = householdConsole;
    expect(caseId).not.toBe('');
    await householdConsole.openCase(caseId);
    await page.getByText(/Held at the Probable threshold when opened \(shared number/).waitFor();
    expect(
      await page.getByText(/a personal identifier agrees, but the given names and birth dates both disagree/).count(),
    ).toBe(1);
    await expectAccessible(page, 'shared-number');
    await screenshot(page, '46d-shared-number');
    expect(pageErrors).toEqual([]);
  });
});
