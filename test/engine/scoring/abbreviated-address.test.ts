/**
 * One address written two ways (Road and Rd, Apt 4 and #4) agrees Exact, as the same text does; a neighbour's house or
 * another flat of the building stays below it (comparators/address-key.ts). Scored as the live scorer does.
 */
import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import type { MatchResult } from '../../../engine/contract/matching.ts';
import { explainPair, householdRecord } from '../../helpers/household-patient.ts';

const profile = defaultProfile([{ SourceSystem: 'a' }]);

/** A record of Agnieszka Kowalczyk at the address line given, no postcode, phone or birth date. */
const at = (line: string) =>
  householdRecord({
    name: [{ family: 'Kowalczyk', given: ['Agnieszka'] }],
    gender: 'female',
    address: [{ use: 'home', line: [line], city: 'Springfield', state: 'ND' }],
    telecom: [],
  });
const address = (r: MatchResult) => r.evidence.find((e) => e.field === 'addressLine');

describe('one address written with other street types and unit designators', () => {
  it('agrees Exact, so a pair of one name at it is judged as at the same text', () => {
    for (const [a, b] of [
      ['27 Alder Road', '27 Alder Rd'],
      ['12 Main Street Apt 4', '12 Main St #4'],
    ] as const) {
      const abbreviated = explainPair(profile, at(a), at(b));
      expect(address(abbreviated)?.band, `${a} / ${b}`).toBe('Exact');
      // Names alone at one address: the line that agrees lifts the names-alone hold, as the same text always did.
      const same = explainPair(profile, at(a), at(a));
      expect([abbreviated.decision, abbreviated.limitedBy], `${a} / ${b}`).toEqual([same.decision, same.limitedBy]);
      expect(abbreviated.decision).toBe('certain');
    }
  });

  it('leaves a neighbour’s house and another flat below Exact, and another street type another street', () => {
    for (const [a, b] of [
      ['9 Elm Court', '11 Elm Court'],
      ['12 Main Street Apt 4', '12 Main Street Apt 7'],
    ] as const) {
      const r = explainPair(profile, at(a), at(b));
      expect(address(r)?.band, `${a} / ${b}`).toBe('Strong');
    }
    // Road and Street are two streets: names alone there stay held for review.
    expect(explainPair(profile, at('27 Alder Road'), at('27 Alder Street')).limitedBy).toBe('NamesOnly');
  });
});
