/** A pair's fields at a glance (the review list's squares, the evaluation's error examples): tones and words. */
import { describe, expect, it } from 'vitest';
import { fieldsAtAGlance, glancePatterns } from '../../renderer/pages/assurance/field-glance.ts';
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
  it('groups pairs by their pattern, most common first, counting each kind, and leaves out pairs without evidence', () => {
    const twin = [
      { field: 'familyName', band: 'Exact' },
      { field: 'givenName', band: 'Different' },
      { field: 'birthDate', band: 'Exact' },
    ] as const;
    const move = [
      { field: 'familyName', band: 'Exact' },
      { field: 'givenName', band: 'Exact' },
      { field: 'addressLine', band: 'Different' },
    ] as const;
    // The same pattern whatever order the evidence comes in.
    const twinReordered = [twin[2], twin[0], twin[1]];
    const patterns = glancePatterns([
      { kind: 'fp', pairs: [{ evidence: [...move] }, { evidence: [...twin] }, { evidence: [] }] },
      { kind: 'fn', pairs: [{ evidence: twinReordered }, { evidence: [...twin] }] },
    ]);
    expect(patterns.map((p) => [p.glance.text, p.total, Object.fromEntries(p.counts)])).toEqual([
      [fieldsAtAGlance([...twin])?.text, 3, { fp: 1, fn: 2 }],
      [fieldsAtAGlance([...move])?.text, 1, { fp: 1 }],
    ]);
    // Ties keep the order first met.
    expect(
      glancePatterns([{ kind: 'fp', pairs: [{ evidence: [...move] }, { evidence: [...twin] }] }]).map((p) => p.total),
    ).toEqual([1, 1]);
    expect(
      glancePatterns([{ kind: 'fp', pairs: [{ evidence: [...move] }, { evidence: [...twin] }] }])[0]?.glance.text,
    ).toBe(fieldsAtAGlance([...move])?.text);
    expect(glancePatterns([{ kind: 'fp', pairs: [{ evidence: [] }] }])).toEqual([]);
  });
});
