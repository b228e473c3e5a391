/**
 * Two generations of one name (engine/scoring/field-comparison.ts markGenerations): John Smith Jr and John Smith Sr at
 * one address and phone. Their names agree exactly once the suffix is set aside, so with one birth date missing the
 * address and phone linked them at score 1. Both suffixes recorded and different: the given names count as
 * Different, and nothing links them. One suffix alone says nothing, and one person's records still link.
 */
import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import { generationOf } from '../../../engine/normalise/name.ts';
import type { R4HumanName } from '../../../engine/fhir/patient.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import type { MatchingProfile } from '../../../engine/contract/profile.ts';
import { explainPair, householdRecord } from '../../helpers/household-patient.ts';

const modelProfile: MatchingProfile = defaultProfile([{ SourceSystem: 'a' }]);
const weightedProfile: MatchingProfile = {
  ...modelProfile,
  MatchingRules: { Thresholds: { Certain: 0.92, Probable: 0.75 }, FellegiSunter: null },
};

type Named = R4HumanName & { readonly suffix?: unknown };

/** One of the household's records: one address and phone; the birth date when given. */
function household(name: Named, birthDate?: string): MatchFields {
  return householdRecord({
    id: 'h',
    name: [name],
    gender: 'male',
    ...(birthDate === undefined ? {} : { birthDate }),
  });
}

const decide = explainPair;

describe('generational suffixes', () => {
  it('are read from the suffix, or from the end of the family or given names', () => {
    expect(generationOf({ family: 'Smith', given: ['John'], suffix: ['Jr.'] } as R4HumanName)).toBe('jr');
    expect(generationOf({ family: 'Smith', given: ['John'], suffix: ['MD', 'III'] } as R4HumanName)).toBe('iii');
    expect(generationOf({ family: 'Smith Sr', given: ['John'] })).toBe('sr');
    expect(generationOf({ family: 'Smith', given: ['John', 'Jr'] })).toBe('jr');
    // "Junior" is a given name in its own right; a malformed suffix is ignored, never refused.
    expect(generationOf({ family: 'Smith', given: ['Junior'] })).toBeNull();
    expect(generationOf({ family: 'Smith', given: ['John', 'Junior'] })).toBeNull();
    expect(generationOf({ family: 'Smith', given: ['John'], suffix: 'Jr' } as unknown as R4HumanName)).toBeNull();
    expect(generationOf({ family: 'Jr', given: ['John'] })).toBeNull();
    expect(generationOf(undefined)).toBeNull();
    expect(household({ family: 'Smith', given: ['John'], suffix: 'Jr' }).generation).toBeUndefined();
    expect(household({ family: 'Smith', given: ['John'], suffix: ['Jr'] }).generation).toBe('jr');
  });

  for (const [method, profile] of [
    ['default model', modelProfile],
    ['weighted similarity', weightedProfile],
  ] as const) {
    it(`${method}: a Junior and a Senior at one address are not linked, one birth date missing or both recorded`, () => {
      const pairs: [Named, Named][] = [
        [
          { family: 'Smith', given: ['John'], suffix: ['Jr'] },
          { family: 'Smith', given: ['John'], suffix: ['Sr'] },
        ],
        [
          { family: 'Smith Jr', given: ['John'] },
          { family: 'Smith', given: ['John'], suffix: ['Senior'] },
        ],
        [
          { family: 'Smith', given: ['John', 'II'] },
          { family: 'Smith', given: ['John', 'III'] },
        ],
      ];
      for (const [junior, senior] of pairs) {
        for (const juniorBorn of [undefined, '1978-05-06']) {
          const result = decide(profile, household(junior, juniorBorn), household(senior, '1950-02-03'));
          expect(result.decision, JSON.stringify([junior, juniorBorn])).toBe('no-match');
          expect(result.evidence.find((e) => e.field === 'givenName')).toMatchObject({
            band: 'Different',
            level: 'generation-differs',
          });
        }
      }
    });
  }

  it("one person's records still link: the same suffix, or a suffix on one record only", () => {
    const junior = { family: 'Smith', given: ['John'], suffix: ['Jr'] };
    expect(decide(modelProfile, household(junior), household(junior, '1978-05-06')).decision).toBe('certain');
    const plain = { family: 'Smith', given: ['John'] };
    expect(decide(modelProfile, household(plain, '1978-05-06'), household(junior, '1978-05-06')).decision).toBe(
      'certain',
    );
  });
});
