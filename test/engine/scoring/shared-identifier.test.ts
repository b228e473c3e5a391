/**
 * A personal number shared in a household. A social-security number named personal (PersonalIdentifierSystems) says who
 * the person is when it agrees, and lets the household's address and phone count beside it. But one person's number is
 * copied onto a relative's record: a mother's onto her newborn's, a parent's or subscriber's onto a child's, a
 * spouse's. Such pairs were linked at a score of 1 whatever their given names, birth dates and sexes said. Now, when
 * the number agrees but the given names and the birth dates both disagree (or one record is a newborn's placeholder and
 * the birth dates disagree), with a sex on both records, the pair is held for review (`SharedIdentifier`); and a
 * newborn's placeholder or a multiple birth is held as a possible twin whatever number agrees. One person's records
 * with a typo in each still link, and so does a record whose birth date alone was replaced (another given name under
 * one birth date and sex is the twin rule's, as before).
 */
import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import type { MatchingProfile } from '../../../engine/contract/profile.ts';
import type { MatchResult } from '../../../engine/contract/matching.ts';
import { explainPair, householdRecord } from '../../helpers/household-patient.ts';

const SSN = 'http://hl7.org/fhir/sid/us-ssn';
const base = defaultProfile([{ SourceSystem: 'a' }]);
const personal: MatchingProfile = { ...base, PersonalIdentifierSystems: [SSN] };
const trusted: MatchingProfile = { ...base, TrustedIdentifierSystems: [SSN] };

interface Person {
  readonly given: string;
  readonly gender: 'male' | 'female' | null;
  readonly birthDate: string;
  readonly twin?: true;
}

const MARIA: Person = { given: 'Maria', gender: 'female', birthDate: '1985-03-02' };

/** Two records of the Lopez household, both carrying the number 532-61-8842, scored under the profile. */
function pair(a: Person, b: Person, profile = personal): MatchResult {
  const record = (p: Person) =>
    householdRecord({
      name: [{ family: 'Lopez', given: p.given.split(' ') }],
      ...(p.gender === null ? {} : { gender: p.gender }),
      birthDate: p.birthDate,
      identifier: [{ system: SSN, value: '532618842' }],
      ...(p.twin === undefined ? {} : { multipleBirthBoolean: true }),
    });
  return explainPair(profile, record(a), record(b));
}

const held = (r: MatchResult) => [r.decision, r.limitedBy];

describe('a personal number shared in a household', () => {
  it('holds for review a pair whose given names and birth dates both say two people', () => {
    const cases: [string, Person, Person][] = [
      ['a mother and her daughter', MARIA, { given: 'Sofia', gender: 'female', birthDate: '2014-06-01' }],
      ['spouses', { given: 'Juan', gender: 'male', birthDate: '1983-07-11' }, MARIA],
      [
        'sisters born ten months apart',
        { given: 'Ana', gender: 'female', birthDate: '2019-03-02' },
        { given: 'Lucia', gender: 'female', birthDate: '2019-12-20' },
      ],
      ['a mother and her newborn', MARIA, { given: 'Baby Girl', gender: 'female', birthDate: '2024-06-01' }],
    ];
    for (const [what, a, b] of cases) {
      const r = pair(a, b);
      expect(held(r), what).toEqual(['probable', 'SharedIdentifier']);
      expect(r.score, what).toBe(0.5);
      // The number and the household's address would have linked them.
      expect(r.heldFrom, what).toBeGreaterThan(0.97);
      // Without the number named personal, the household's agreement counts for nothing and they are two people.
      expect(pair(a, b, base).decision, what).toBe('no-match');
    }
  });

  it('holds newborn twins and twins the records say are twins, whatever number agrees', () => {
    const baby = (given: string): Person => ({ given, gender: 'male', birthDate: '2024-06-01' });
    expect(held(pair(baby('Baby Boy A'), baby('Baby Boy B')))).toEqual(['probable', 'PossibleTwin']);
    const twin = (given: string): Person => ({ given, gender: 'male', birthDate: '2019-06-14', twin: true });
    expect(held(pair(twin('Jayden'), twin('Jaydon')))).toEqual(['probable', 'PossibleTwin']);
  });

  it('still links one person whose records carry a typo in each, or a birth date replaced', () => {
    const typos = pair(MARIA, { given: 'Mraia', gender: 'female', birthDate: '1985-03-12' });
    const dateReplaced = pair(MARIA, { ...MARIA, birthDate: '1958-08-21' });
    for (const r of [typos, dateReplaced]) expect(held(r)).toEqual(['certain', undefined]);
  });

  it('leaves a pair without a sex on both records to the model, as the twin rule does', () => {
    // An extract without a sex cannot tell a relative from one person's record with a replaced given name and a
    // corrupted birth date (FEBRL's errors).
    const r = pair(MARIA, { given: 'Sofia', gender: null, birthDate: '2014-06-01' });
    expect(held(r)).toEqual(['certain', undefined]);
  });

  it('leaves a trusted number to decide alone, as configured', () => {
    const r = pair(MARIA, { given: 'Sofia', gender: 'female', birthDate: '2014-06-01' }, trusted);
    expect([r.decision, r.decidedBy]).toEqual(['certain', 'trusted-identifier']);
  });
});
