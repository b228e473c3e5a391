import { describe, expect, it } from 'vitest';
import { yearOnlyFathers } from '../../helpers/repeated-patient.ts';
import { ingestIntoSandbox } from '../../helpers/cli.ts';

const PAIRS = 8;

describe('a father whose record gives his year of birth only, and his son of one name at one home', () => {
  it('are two identities: the years tell them apart', async () => {
    const { report, identities } = await ingestIntoSandbox(yearOnlyFathers(PAIRS), 'YF');
    expect(identities).toBe(2 * PAIRS);
    expect(report).toMatchObject({ created: 2 * PAIRS, autoLinked: 0 });
  });
});
