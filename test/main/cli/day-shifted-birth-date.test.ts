import { describe, expect, it } from 'vitest';
import { dayShiftedPatients } from '../../helpers/repeated-patient.ts';
import { ingestIntoSandbox } from '../../helpers/cli.ts';

const PEOPLE = 6;

// A source that sends every birth date a day early, on days where that changes two digits or more (10 March becomes
// 9 March, 1 May becomes 30 April). A day off is one error however the digits fall, as 3 and 4 March always were;
// these pairs were held for review as two children of one home born months apart.
describe('people at one home whose second source sends their birth date a day early', () => {
  it('are linked, one identity each', async () => {
    const { report, identities } = await ingestIntoSandbox(dayShiftedPatients(PEOPLE, false), 'DH');
    expect(identities).toBe(PEOPLE);
    expect(report).toMatchObject({ created: 2 * PEOPLE, autoLinked: PEOPLE, reviewCasesCreated: 0 });
  });
});
