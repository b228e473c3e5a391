/**
 * A birth date a source gives as the year (or year and month) only, beside another, scored as the live scorer does
 * (explainPair): a father and son of one name at one home, and one person.
 */
import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import { explainPair, householdRecord } from '../../helpers/household-patient.ts';
import type { MatchResult } from '../../../engine/contract/matching.ts';

const profile = defaultProfile([{ SourceSystem: 'a' }]);

/** Robert Miller of the household, twice, with the given birth dates (undefined: none). */
function pair(a: string | undefined, b: string | undefined): MatchResult {
  const robert = (birthDate: string | undefined) =>
    householdRecord({
      name: [{ family: 'Miller', given: ['Robert'] }],
      gender: 'male',
      ...(birthDate === undefined ? {} : { birthDate }),
    });
  return explainPair(profile, robert(a), robert(b));
}

const birthDate = (r: MatchResult) => r.evidence.find((e) => e.field === 'birthDate');

describe('a partial birth date', () => {
  it('of another year tells a father and son of one name at one home apart', () => {
    for (const father of ['1962', '1962-03']) {
      const r = pair(father, '1992-03-04');
      expect(r.decision, father).toBe('no-match');
      expect(birthDate(r), father).toMatchObject({ band: 'Different', level: 'partial-date-differs' });
    }
    // Both partial, of two years.
    expect(birthDate(pair('1962', '1992-03'))?.level).toBe('partial-date-differs');
  });

  it('that agrees adds nothing: the pair scores as without the date', () => {
    for (const partial of ['1962', '1962-03']) {
      const r = pair(partial, '1962-03-04');
      expect(birthDate(r), partial).toMatchObject({ band: null, level: 'partial-date-agrees' });
      expect([r.decision, r.score], partial).toEqual([
        pair(undefined, '1962-03-04').decision,
        pair(undefined, '1962-03-04').score,
      ]);
    }
  });
});
