/**
 * Twins of compound given names. Where a child's given name is two names (Maria Fernanda, Jose Luis, Jean-Pierre),
 * twins often share the first: Maria Fernanda and Maria Jose, Jean-Pierre and Jean-Paul. The first word is matched
 * as the given name and the rest as middle names, so the given names agree exactly, and the middle-name rule let an
 * address or phone in common lift its hold: twins at home were linked at a score of 1. Now such a pair, with one
 * family name and birth date and a sex on both records, is held as possible twins.
 */
import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import type { MatchResult } from '../../../engine/contract/matching.ts';
import { explainPair, householdRecord } from '../../helpers/household-patient.ts';

const base = defaultProfile([{ SourceSystem: 'a' }]);
const BORN = '2012-06-14';

/** A record of the Garcia household (one address and phone). */
const garcia = (given: string[], gender: 'male' | 'female' | null, birthDate = BORN) =>
  householdRecord({ name: [{ family: 'Garcia', given }], ...(gender === null ? {} : { gender }), birthDate });
const held = (r: MatchResult) => [r.decision, r.limitedBy];

describe('twins of compound given names', () => {
  it('holds at one home a pair whose first given names agree and whose second name two people', () => {
    const cases: [string, string[], string[], 'male' | 'female'][] = [
      ['Maria Fernanda and Maria Jose', ['Maria', 'Fernanda'], ['Maria', 'Jose'], 'female'],
      ['written as one part', ['Maria Fernanda'], ['Maria Jose'], 'female'],
      ['Jose Luis and Jose Antonio', ['Jose', 'Luis'], ['Jose', 'Antonio'], 'male'],
      ['Jean-Pierre and Jean-Paul', ['Jean-Pierre'], ['Jean-Paul'], 'male'],
    ];
    for (const [what, a, b, sex] of cases) {
      const r = explainPair(base, garcia(a, sex), garcia(b, sex));
      expect(held(r), what).toEqual(['probable', 'PossibleTwin']);
      expect(r.heldFrom, what).toBeGreaterThan(0.99);
    }
  });

  it('still links one person whose second name is left out, shortened to an initial or spelt otherwise', () => {
    for (const other of [['Maria'], ['Maria', 'F'], ['Maria', 'Fernada']]) {
      const r = explainPair(base, garcia(['Maria', 'Fernanda'], 'female'), garcia(other, 'female'));
      expect(held(r), other.join(' ')).toEqual(['certain', undefined]);
    }
  });

  it('leaves to the model pairs without a sex on both records, or born on other days', () => {
    const noSex = explainPair(base, garcia(['Jose', 'Luis'], null), garcia(['Jose', 'Antonio'], null));
    expect(held(noSex)).toEqual(['certain', undefined]);
    // A father and son of one first name at one home: the birth dates say two people.
    const generations = explainPair(
      base,
      garcia(['Jose', 'Luis'], 'male', '1980-02-11'),
      garcia(['Jose', 'Antonio'], 'male'),
    );
    expect(generations.decision).toBe('no-match');
  });
});
