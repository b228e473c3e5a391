/**
 * A compound family name on one record and one of its names alone on another (María García López and María López):
 * scored as the live scorer does (explainPair), each record at its own home, so only the person's own details agree.
 */
import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import { explainPair, householdRecord } from '../../helpers/household-patient.ts';
import type { MatchResult } from '../../../engine/contract/matching.ts';

const profile = defaultProfile([{ SourceSystem: 'a' }]);

/** Two records of one given name and sex, each at its own address and phone. */
function pair(familyA: string, familyB: string, birthDates: readonly [string, string] = ['1980-02-03', '1980-02-03']) {
  const at = (line: string, postalCode: string, phone: string) => ({
    address: [{ use: 'home', line: [line], city: 'Springfield', state: 'ND', postalCode }],
    telecom: [{ system: 'phone', value: phone }],
  });
  return explainPair(
    profile,
    householdRecord({
      name: [{ family: familyA, given: ['María'] }],
      gender: 'female',
      birthDate: birthDates[0],
      ...at('14 Calle Mayor', '72419', '(204) 555-0101'),
    }),
    householdRecord({
      name: [{ family: familyB, given: ['María'] }],
      gender: 'female',
      birthDate: birthDates[1],
      ...at('80 Birch Lane', '58102', '(701) 555-0177'),
    }),
  );
}

const family = (r: MatchResult) => r.evidence.find((e) => e.field === 'familyName');

describe('a compound family name and one of its names alone', () => {
  it('agree Strong, whichever name was kept (at two homes, certain under the default model without name counts)', () => {
    for (const [a, b] of [
      ['García López', 'López'],
      ['Smith-Jones', 'Jones'],
      ['Jones-Smith', 'Smith-Jones'],
    ] as const) {
      const r = pair(a, b);
      expect([r.decision, r.limitedBy], `${a} ${b}`).toEqual(['certain', undefined]);
      expect(family(r), `${a} ${b}`).toMatchObject({ band: 'Strong', level: 'compound-name-part' });
    }
    // The first name of a compound Jaro-Winkler already finds (garcía and garcía lópez 0.90), as before.
    const first = pair('García López', 'García');
    expect([first.decision, family(first)?.band, family(first)?.comparator]).toEqual([
      'certain',
      'Strong',
      'JaroWinkler',
    ]);
  });

  it('is a name shared, not the whole name: never Exact', () => {
    const r = pair('García López', 'López');
    expect(family(r)?.similarity).toBeLessThan(1);
  });

  it('does not make two people of one given name one person when their birth dates disagree', () => {
    const r = pair('García López', 'López', ['1980-02-03', '1991-07-14']);
    expect(r.decision).toBe('no-match');
  });

  it('leaves a particle alone and a part with a typo to the comparators', () => {
    expect(family(pair('de la Cruz', 'De'))?.level).toBeUndefined();
    expect(family(pair('García López', 'Lopes'))?.level).toBeUndefined();
  });
});
