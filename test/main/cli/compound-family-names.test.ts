import { describe, expect, it } from 'vitest';
import { compoundNamePatients } from '../../helpers/repeated-patient.ts';
import { ingestIntoSandbox } from '../../helpers/cli.ts';

const PEOPLE = 12;

describe('people registered under a compound family name and under one of its names', () => {
  it('are each one identity after ingestion, linked automatically', async () => {
    const { report, identities } = await ingestIntoSandbox(compoundNamePatients(PEOPLE), 'CF');
    // Each moved between the two registrations: only the person's own name, sex and birth date agree.
    expect(identities).toBe(PEOPLE);
    expect(report).toMatchObject({ created: 2 * PEOPLE, autoLinked: PEOPLE, reviewCasesCreated: 0 });
  });
});
