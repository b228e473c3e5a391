import { describe, expect, it } from 'vitest';
import { oneNameWithinTheOther } from '../../../engine/comparators/compound-name.ts';
import { normaliseFamilyName } from '../../../engine/normalise/name.ts';

/** Two family names as a source sends them, normalised as ingestion normalises them. */
const within = (a: string, b: string): boolean => {
  const x = normaliseFamilyName(a);
  const y = normaliseFamilyName(b);
  if (x === null || y === null) throw new Error('a test name normalised to nothing');
  return oneNameWithinTheOther(x, y);
};

describe('oneNameWithinTheOther', () => {
  it('finds either name of a compound used alone, and its names in another order', () => {
    for (const [a, b] of [
      ['García López', 'López'],
      ['García López', 'Garcia'],
      ['Smith-Jones', 'Jones'],
      ['Smith-Jones', 'Smith'],
      ['Jones-Smith', 'Smith Jones'],
      ['van der Berg', 'Berg'],
      ['de la Cruz', 'Cruz'],
      ['Pereira dos Santos', 'Santos'],
      ['Pereira dos Santos', 'Pereira Santos'],
    ] as const) {
      expect(within(a, b), `${a} ${b}`).toBe(true);
      expect(within(b, a), `${b} ${a}`).toBe(true);
    }
  });

  it('finds nothing in one name, the same name, a particle alone or a part that differs', () => {
    for (const [a, b] of [
      ['Jones', 'Jonas'],
      ['Lopez', 'Lopez'],
      ['Smith-Jones', 'Smith-Jones'],
      // A particle names no one: "de" and "van" alone, or a compound that shares only its particle.
      ['de la Cruz', 'De'],
      ['van der Berg', 'van Dijk'],
      // A part with a typo is the comparators' (Jaro-Winkler), not this rule's.
      ['García López', 'Lopes'],
      ['García López', 'García Pérez'],
      ['Smith-Jones', 'Smith-Brown'],
    ] as const) {
      expect(within(a, b), `${a} ${b}`).toBe(false);
      expect(within(b, a), `${b} ${a}`).toBe(false);
    }
  });
});
