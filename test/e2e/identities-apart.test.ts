/**
 * A record without a birth date at the home of a father and son of its name, in the console. John Smith, born 1956,
 * and John Smith, born 1986, live at 4 Elm Street; St Mary's Hospital sends a John Smith of that address without a
 * birth date. It is certain against both, and linked to neither: a review case asks about each, held for that reason
 * (IdentitiesApart). The case page says why and what to do, and scores the pair it shows as it did when opened.
 */
import { describe, expect, it } from 'vitest';
import { expectAccessible, screenshot } from './helpers.ts';
import { expectScoredAsWhenOpened, heldCaseConsole, scoreRow } from './held-case.ts';
import { johnSmith } from '../helpers/registry.ts';

/** John Smith of 4 Elm Street as a line of NDJSON. */
const john = (id: string, birthDate?: string): string => JSON.stringify(johnSmith(id, birthDate));

const smithConsole = heldCaseConsole(
  { prefix: 'mpi-e2e-identities-apart-', file: 'smith.db', tenantId: 'smith', people: 40, seed: 7 },
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
);

describe('a record without a birth date at the home of a father and son of its name', () => {
  it('is a review case held for it, which says why and what to do', async () => {
    const { page, prepared: caseId, pageErrors } = smithConsole;
    expect(caseId).not.toBe('');
    await smithConsole.openCase(caseId);
    const score = await scoreRow(page);
    expect(score).toMatch(
      /^Score0\.5000 \(probable under profile version \d+\)Held at the Probable threshold when opened \(fits two people; its fields scored (0\.9\d{3}|1\.0000)\): One of this case’s identities is certain against the other and against one more identity, .+a father and son, .+ then answer same person on that case and different people on the other\.$/,
    );
    await expectScoredAsWhenOpened(page, score);
    await expectAccessible(page, 'identities-apart');
    await screenshot(page, '46f-identities-apart');
    expect(pageErrors).toEqual([]);
  });
});
