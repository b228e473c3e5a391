/**
 * Twins told apart by their birth order (FHIR Patient.multipleBirthInteger; HL7 v2 PID-25). Same-sex twins whose given
 * names are spelt a letter apart (Jayden and Jaydon, Aidan and Aiden) agree Strong on the given name, and the twin rule
 * leaves such a pair to the model (holding every Strong given name under one sex cost far more true pairs than it
 * caught: scoring/possible-twin.ts), which links them at one address and phone. When both records carry a birth order
 * and the orders differ, the records are two people of one multiple birth: the given names count as Different
 * (field-comparison.ts markMultipleBirths), so the twin rule holds the pair for review. One baby's records with one
 * order still link; an order on one record only says nothing; a value that is not a birth order is ignored, with a
 * warning, and the record kept. When both records say a multiple birth (multipleBirthBoolean, or an order) and the
 * orders do not settle it, given names a letter apart are held for review too (scoring/possible-twin.ts).
 */
import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import { validatePatient } from '../../../engine/fhir/patient.ts';
import { matchFieldsOf } from '../../../engine/normalise/record.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import type { MatchingProfile } from '../../../engine/contract/profile.ts';
import { explainPair, householdRecord } from '../../helpers/household-patient.ts';

const modelProfile: MatchingProfile = defaultProfile([{ SourceSystem: 'a' }]);
const weightedProfile: MatchingProfile = {
  ...modelProfile,
  MatchingRules: { Thresholds: { Certain: 0.92, Probable: 0.75 }, FellegiSunter: null },
};

/** One twin's record: the family's name, birth date, address and phone; the sex and birth order when given. */
function twin(given: string, order?: unknown, gender: 'male' | null = 'male', multiple?: unknown): MatchFields {
  return householdRecord({
    id: 't',
    name: [{ family: 'Okonkwo', given: [given] }],
    ...(gender === null ? {} : { gender }),
    birthDate: '2019-06-14',
    ...(order === undefined ? {} : { multipleBirthInteger: order }),
    ...(multiple === undefined ? {} : { multipleBirthBoolean: multiple }),
  });
}

const decide = explainPair;

describe('birth order', () => {
  it('is read from multipleBirthInteger when it is a birth order, and ignored with a warning otherwise', () => {
    expect(twin('Jayden', 2).birthOrder).toBe(2);
    expect(twin('Jayden').birthOrder).toBeUndefined();
    expect('birthOrder' in twin('Jayden')).toBe(false);
    for (const bad of [0, -1, 2.5, '2', true, 10]) {
      const v = validatePatient({ resourceType: 'Patient', multipleBirthInteger: bad });
      expect(v.ok).toBe(true);
      if (!v.ok) continue;
      expect(v.warnings).toEqual([
        {
          path: 'multipleBirthInteger',
          message: 'is not a birth order (a whole number from 1 to 9); ignored for matching',
        },
      ]);
      expect(matchFieldsOf(v.patient, {}).birthOrder).toBeUndefined();
    }
  });

  // Under the model the twin rule holds them for review; under weighted similarity the given names' weight is lost
  // and the household's fields count for nothing, so they stay apart.
  for (const [name, profile, decision] of [
    ['the default model', modelProfile, 'probable'],
    ['weighted similarity', weightedProfile, 'no-match'],
  ] as const) {
    it(`never links same-sex twins spelt a letter apart under ${name} when their birth orders differ`, () => {
      // Without birth orders they are linked: the given names agree Strong by spelling.
      expect(decide(profile, twin('Jayden'), twin('Jaydon')).decision).toBe('certain');
      const apart = decide(profile, twin('Jayden', 1), twin('Jaydon', 2));
      expect(apart.decision).toBe(decision);
      if (decision === 'probable') expect(apart.limitedBy).toBe('PossibleTwin');
      const given = apart.evidence.find((e) => e.field === 'givenName');
      expect(given?.band).toBe('Different');
      expect(given?.level).toBe('birth-order-differs');
      // Exact given names with other birth orders are two people too (or a record filed under the other twin).
      expect(decide(profile, twin('Jayden', 1), twin('Jayden', 2)).decision).toBe(decision);
    });

    it(`keeps one twin's records linked under ${name}: one birth order, or an order on one record only`, () => {
      expect(decide(profile, twin('Jayden', 2), twin('Jaydon', 2)).decision).toBe('certain');
      expect(decide(profile, twin('Jayden', 2), twin('Jayden')).decision).toBe('certain');
    });
  }

  it('holds a pair spelt a letter apart for review when both records say a multiple birth without settling which', () => {
    expect(twin('Jayden', undefined, 'male', true).multipleBirth).toBe(true);
    expect(twin('Jayden', 2).multipleBirth).toBe(true);
    expect('multipleBirth' in twin('Jayden', undefined, 'male', false)).toBe(false);
    const both = decide(modelProfile, twin('Jayden', undefined, 'male', true), twin('Jaydon', undefined, 'male', true));
    expect(both.decision).toBe('probable');
    expect(both.limitedBy).toBe('PossibleTwin');
    // An order on one record and the flag on the other do not settle it either.
    expect(decide(modelProfile, twin('Jayden', 1), twin('Jaydon', undefined, 'male', true)).limitedBy).toBe(
      'PossibleTwin',
    );
    // Exact given names are one twin's records; two equal orders say one twin, whose name was mistyped.
    expect(
      decide(modelProfile, twin('Jayden', undefined, 'male', true), twin('Jayden', undefined, 'male', true)).decision,
    ).toBe('certain');
    expect(decide(modelProfile, twin('Jayden', 2), twin('Jaydon', 2)).decision).toBe('certain');
    // Without a recorded sex too: the records say twins are there.
    expect(
      decide(modelProfile, twin('Jayden', undefined, null, true), twin('Jaydon', undefined, null, true)).limitedBy,
    ).toBe('PossibleTwin');
    // The flag on one record only says nothing about the other.
    expect(decide(modelProfile, twin('Jayden', undefined, 'male', true), twin('Jaydon')).decision).toBe('certain');
    // A value that is not true or false is ignored, with a warning.
    const v = validatePatient({ resourceType: 'Patient', multipleBirthBoolean: 'yes' });
    expect(v.ok && v.warnings).toEqual([
      { path: 'multipleBirthBoolean', message: 'is not true or false; ignored for matching' },
    ]);
  });

  it('leaves twins without a recorded sex and other birth orders unlinked: the family name is household evidence', () => {
    const result = decide(modelProfile, twin('Jayden', 1, null), twin('Jaydon', 2, null));
    expect(result.decision).toBe('no-match');
  });
});
