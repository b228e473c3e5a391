import { describe, expect, it } from 'vitest';
import { goesByMiddleName } from '../../../engine/comparators/middle-name-as-given.ts';
import type { MiddleNameParts } from '../../../engine/comparators/middle-names.ts';

/** A record's given name and middle names as prepared (normalised, split). */
const person = (given: string, ...middle: string[]): MiddleNameParts => ({
  given: { text: given },
  middleNames: middle.length === 0 ? null : middle,
});

describe('goesByMiddleName', () => {
  it("finds a given name that is the other record's middle name, either way round", () => {
    for (const [a, b] of [
      [person('jose', 'luis'), person('luis')],
      [person('anne', 'marie'), person('marie')],
      [person('john', 'paul', 'michael'), person('michael')],
    ] as const) {
      expect(goesByMiddleName(a, b)).toBe(true);
      expect(goesByMiddleName(b, a)).toBe(true);
    }
  });

  it('finds the same given names in another order, each given name a middle name of the other', () => {
    for (const [a, b] of [
      [person('maria', 'fernanda'), person('fernanda', 'maria')],
      [person('maria', 'fernanda', 'lucia'), person('fernanda', 'maria')],
    ] as const) {
      expect(goesByMiddleName(a, b)).toBe(true);
      expect(goesByMiddleName(b, a)).toBe(true);
    }
    // One way only: two people's full names.
    expect(goesByMiddleName(person('maria', 'fernanda'), person('fernanda', 'lucia'))).toBe(false);
  });

  it('finds nothing when the record that gives the name carries middle names, by an initial, or by another name', () => {
    // Two people's full names: the middle-name rule judges records that both carry middle names.
    expect(goesByMiddleName(person('john', 'michael'), person('michael', 'thomas'))).toBe(false);
    expect(goesByMiddleName(person('jose', 'luis'), person('l'))).toBe(false);
    expect(goesByMiddleName(person('jose', 'luis'), person('luisa'))).toBe(false);
    expect(goesByMiddleName(person('jose'), person('luis'))).toBe(false);
  });
});
