/** A pair's fields at a glance (the review list's squares, the evaluation's error examples): tones and words. */
import { describe, expect, it } from 'vitest';
import { fieldsAtAGlance } from '../../renderer/pages/assurance/field-glance.ts';
import { FIELD_NAMES } from '../../engine/contract/fields.ts';

describe('fieldsAtAGlance', () => {
  it("draws a pair's fields at a glance in the scorer's order, and says the same in words", () => {
    const glance = fieldsAtAGlance([
      { field: 'givenName', band: 'Strong' },
      { field: 'familyName', band: 'Exact' },
      { field: 'birthDate', band: 'Exact' },
      { field: 'sex', band: null },
      { field: 'addressLine', band: 'Different' },
      { field: 'city', band: 'Partial' },
      { field: 'phone', band: 'Exact' },
    ]);
    expect(glance?.tones.map((t) => t.field)).toEqual([...FIELD_NAMES]);
    expect(glance?.tones.slice(0, 6).map((t) => t.tone)).toEqual([
      'exact',
      'strong',
      'exact',
      'none',
      'different',
      'partial',
    ]);
    expect(glance?.text).toBe(
      'Agree: family name, birth date, phone. Nearly agree: given name. Partly agree: city. Differ: address. Not compared: sex, state, postal code, email, identifier.',
    );
    // A newborn's placeholder is not compared, whatever band the evidence carries.
    expect(fieldsAtAGlance([{ field: 'givenName', band: null, level: 'newborn-placeholder' }])?.tones[1]?.tone).toBe(
      'none',
    );
    expect(fieldsAtAGlance([])).toBeNull();
  });
});
