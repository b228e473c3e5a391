/**
 * A person known by a middle name (José Luis and Luis, Anne-Marie and Marie), scored as the live scorer does
 * (explainPair): at one home, and at two homes where only the person's own details agree.
 */
import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import { explainPair, householdRecord } from '../../helpers/household-patient.ts';
import type { MatchResult } from '../../../engine/contract/matching.ts';

const profile = defaultProfile([{ SourceSystem: 'a' }]);
const AWAY = {
  address: [{ use: 'home', line: ['80 Birch Lane'], city: 'Fargo', state: 'ND', postalCode: '58102' }],
  telecom: [{ system: 'phone', value: '(701) 555-0177' }],
};

/** Two records of the Ramírez household's man born 1975-04-05 under the given names, the second at home or away. */
function pair(
  givenA: readonly string[],
  givenB: readonly string[],
  options: { away?: boolean; birthDateB?: string } = {},
): MatchResult {
  const record = (given: readonly string[], birthDate: string, elsewhere: boolean) =>
    householdRecord({
      name: [{ family: 'Ramírez', given }],
      gender: 'male',
      birthDate,
      ...(elsewhere ? AWAY : {}),
    });
  return explainPair(
    profile,
    record(givenA, '1975-04-05', false),
    record(givenB, options.birthDateB ?? '1975-04-05', options.away === true),
  );
}

const given = (r: MatchResult) => r.evidence.find((e) => e.field === 'givenName');

describe('a given name that is the other record’s middle name', () => {
  it('agrees Strong, never Exact: one person at one home is linked, at two homes sent to review', () => {
    for (const [a, b] of [
      [['José', 'Luis'], ['Luis']],
      [['Anne-Marie'], ['Marie']],
      // The same given names in another order.
      [
        ['Juan', 'Carlos'],
        ['Carlos', 'Juan'],
      ],
    ] as const) {
      const home = pair(a, b);
      expect([home.decision, home.limitedBy], `${a.join(' ')} ${b.join(' ')}`).toEqual(['certain', undefined]);
      expect(given(home)).toMatchObject({ band: 'Strong', level: 'middle-name-as-given' });
      // Only the name, sex and birth date agree: a review case, where before it was no match at all.
      expect(pair(a, b, { away: true }).decision).toBe('probable');
    }
  });

  it('is not a twin’s sound-alike name: it does not raise the twin hold', () => {
    expect(pair(['José', 'Luis'], ['Luis']).limitedBy).toBeUndefined();
  });

  it('holds a boy and a girl of one birth date named José María and María José as possible twins', () => {
    const twin = (given: string[], gender: string) =>
      householdRecord({ name: [{ family: 'Ramírez', given }], gender, birthDate: '2012-06-09' });
    const r = explainPair(profile, twin(['José', 'María'], 'male'), twin(['María', 'José'], 'female'));
    expect(given(r)).toMatchObject({ band: 'Strong', level: 'middle-name-as-given' });
    expect([r.decision, r.limitedBy]).toEqual(['probable', 'PossibleTwin']);
  });

  it('does not join two people of one family name whose birth dates differ, nor two full names', () => {
    expect(pair(['José', 'Luis'], ['Luis'], { birthDateB: '2001-09-17' }).decision).toBe('no-match');
    expect(given(pair(['John', 'Michael'], ['Michael', 'Thomas']))?.level).toBeUndefined();
  });
});
