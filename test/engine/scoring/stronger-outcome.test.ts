/** The order in which one pair is chosen to stand for two identities (engine/scoring/stronger-outcome.ts). */
import { describe, expect, it } from 'vitest';
import { compareOutcomes, isStronger } from '../../../engine/scoring/stronger-outcome.ts';

const probable = (score: number, heldFrom?: number) =>
  heldFrom === undefined
    ? { score, decision: 'probable' as const }
    : { score, decision: 'probable' as const, heldFrom };

describe('the stronger of two pair outcomes', () => {
  it('is the higher score, whatever a held pair was held from', () => {
    expect(isStronger(probable(0.62), probable(0.5, 0.99))).toBe(true);
    expect(isStronger(probable(0.5, 0.99), probable(0.62))).toBe(false);
  });

  it('on equal scores, is a certain decision, then the pair held on the most evidence', () => {
    // Probable equal to Certain: a held pair at that score is probable; a certain pair there must still win.
    const certain = { score: 0.9, decision: 'certain' as const };
    expect(isStronger(certain, probable(0.9, 0.999))).toBe(true);
    expect(isStronger(probable(0.9, 0.999), certain)).toBe(false);
    expect(isStronger(probable(0.5, 0.93), probable(0.5, 0.6))).toBe(true);
    expect(isStronger(probable(0.5, 0.6), probable(0.5, 0.93))).toBe(false);
    // An unheld pair at the threshold counts its own score.
    expect(isStronger(probable(0.5, 0.51), probable(0.5))).toBe(true);
  });

  it('keeps the first of two equal outcomes and sorts strongest first', () => {
    expect(isStronger(probable(0.5, 0.7), probable(0.5, 0.7))).toBe(false);
    expect(isStronger(probable(0.1), undefined)).toBe(true);
    const sorted = [probable(0.5, 0.6), probable(0.7), probable(0.5, 0.95), probable(0.5)].sort(compareOutcomes);
    expect(sorted).toEqual([probable(0.7), probable(0.5, 0.95), probable(0.5, 0.6), probable(0.5)]);
  });
});
