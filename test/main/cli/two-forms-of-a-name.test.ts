import { describe, expect, it } from 'vitest';
import {
  compoundNamePatients,
  middleNameGivenPatients,
  reorderedGivenNamesPatients,
} from '../../helpers/repeated-patient.ts';
import { ingestIntoSandbox } from '../../helpers/cli.ts';

const PEOPLE = 12;

// Each person moved between the two registrations (another address and phone): only the person's own name, sex and
// birth date agree, which sends the pair to a reviewer, not to an automatic link. Before, the two forms of the name
// disagreed and nobody saw the pair at all.
describe('people registered under two forms of their names, at two homes', () => {
  it('under a compound family name and one of its names: one review case each', async () => {
    const { report, identities } = await ingestIntoSandbox(compoundNamePatients(PEOPLE), 'CF');
    expect(identities).toBe(2 * PEOPLE);
    expect(report).toMatchObject({ created: 2 * PEOPLE, autoLinked: 0, reviewCasesCreated: PEOPLE });
  });

  it('under their given and middle names and the middle name alone: one review case each', async () => {
    const { report, identities } = await ingestIntoSandbox(middleNameGivenPatients(PEOPLE), 'MG');
    expect(identities).toBe(2 * PEOPLE);
    expect(report).toMatchObject({ created: 2 * PEOPLE, autoLinked: 0, reviewCasesCreated: PEOPLE });
  });

  it('under their two given names in one order and the other: one review case each', async () => {
    const { report, identities } = await ingestIntoSandbox(reorderedGivenNamesPatients(PEOPLE), 'RG');
    expect(identities).toBe(2 * PEOPLE);
    expect(report).toMatchObject({ created: 2 * PEOPLE, autoLinked: 0, reviewCasesCreated: PEOPLE });
  });
});
