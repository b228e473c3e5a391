/**
 * One family name written with "Saint" or "St" (comparators/family-name-key.ts): the comparators see one name, so a
 * person registered as St John at one source and Saint John at another is scored as if both wrote it alike.
 */
import { describe, expect, it } from 'vitest';
import { familyNameKey } from '../../../engine/comparators/family-name-key.ts';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import { explainPair, householdRecord } from '../../helpers/household-patient.ts';

describe('the family name key', () => {
  it('writes saint and sainte as st and ste, whole words only', () => {
    expect(familyNameKey('saint john')).toBe('st john');
    expect(familyNameKey('sainte marie')).toBe('ste marie');
    expect(familyNameKey('de saint exupery')).toBe('de st exupery');
    expect(familyNameKey('st john')).toBe('st john');
    expect(familyNameKey('saintsbury')).toBe('saintsbury');
    expect(familyNameKey('all saints')).toBe('all saints');
    expect(familyNameKey('saint')).toBe('st');
  });

  it('scores St John and Saint John as one name, moved house or not', () => {
    const profile = defaultProfile([{ SourceSystem: 'a' }]);
    const moved = {
      address: [{ use: 'home', line: ['90 Oak Avenue'], city: 'Fargo', state: 'ND', postalCode: '58102' }],
      telecom: [{ system: 'phone', value: '(701) 555-0199' }],
    };
    const person = (family: string, elsewhere: boolean) =>
      householdRecord({
        name: [{ family, given: ['Oliver'] }],
        gender: 'male',
        birthDate: '1980-05-02',
        ...(elsewhere ? moved : {}),
      });
    for (const elsewhere of [false, true])
      for (const [left, right] of [
        ['St John', 'Saint John'],
        ['St. Clair', 'Saint Clair'],
        ['Ste-Marie', 'Sainte Marie'],
      ] as const) {
        const twoSpellings = explainPair(profile, person(left, false), person(right, elsewhere));
        const oneSpelling = explainPair(profile, person(left, false), person(left, elsewhere));
        expect(twoSpellings.evidence.find((e) => e.field === 'familyName')?.band, `${left}, ${right}`).toBe('Exact');
        expect({ decision: twoSpellings.decision, score: twoSpellings.score }, `${left}, ${right}`).toEqual({
          decision: oneSpelling.decision,
          score: oneSpelling.score,
        });
      }
  });
});
