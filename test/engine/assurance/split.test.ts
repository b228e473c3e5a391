import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LabelPair } from '../../../engine/assurance/labels.ts';
import { splitByClass, splitKey } from '../../../engine/assurance/split.ts';

const pairOf = (i: number, isMatch: boolean): LabelPair => ({
  left: { sourceSystem: 'EHR', localId: `A${i}` },
  right: { sourceSystem: 'LAB', localId: `B${i}` },
  isMatch,
});

/** 30 matches and 70 non-matches. */
const DATASET: LabelPair[] = Array.from({ length: 100 }, (_, i) => pairOf(i, i % 10 < 3));

/** A fixed permutation (multiplication by 37 modulo 100, 37 being coprime to 100). */
const shuffled = <T>(items: readonly T[]): T[] =>
  items.map((_, i) => items[(i * 37) % items.length]).filter((item): item is T => item !== undefined);

const ids = (pairs: readonly LabelPair[]): string[] => pairs.map((p) => `${p.left.localId}-${p.right.localId}`);

describe('splitKey', () => {
  it('is the SHA-256 of the four references joined by tabs', () => {
    // printf 'EHR\tA1\tLAB\tB2' | sha256sum computes the same value.
    const expected = createHash('sha256').update('EHR\tA1\tLAB\tB2').digest('hex');
    expect(
      splitKey({
        left: { sourceSystem: 'EHR', localId: 'A1' },
        right: { sourceSystem: 'LAB', localId: 'B2' },
        isMatch: true,
      }),
    ).toBe(expected);
  });

  it('ignores the label', () => {
    expect(splitKey(pairOf(1, true))).toBe(splitKey(pairOf(1, false)));
  });
});

describe('splitByClass', () => {
  it('holds out round(n_class × fraction) of each class', () => {
    const { training, validation } = splitByClass(DATASET, 0.25);
    // matches: round(30 × 0.25) = round(7.5) = 8; non-matches: round(70 × 0.25) = round(17.5) = 18.
    expect(validation.filter((p) => p.isMatch)).toHaveLength(8);
    expect(validation.filter((p) => !p.isMatch)).toHaveLength(18);
    expect(training.filter((p) => p.isMatch)).toHaveLength(22);
    expect(training.filter((p) => !p.isMatch)).toHaveLength(52);
  });

  it('partitions the input', () => {
    const { training, validation } = splitByClass(DATASET, 0.3);
    expect(new Set([...ids(training), ...ids(validation)]).size).toBe(100);
    expect(training.length + validation.length).toBe(100);
  });

  it('is deterministic', () => {
    expect(splitByClass(DATASET, 0.2)).toEqual(splitByClass(DATASET, 0.2));
  });

  it('does not depend on input order', () => {
    const a = splitByClass(DATASET, 0.2);
    const b = splitByClass(shuffled(DATASET), 0.2);
    const c = splitByClass([...DATASET].reverse(), 0.2);
    expect(ids(b.validation)).toEqual(ids(a.validation));
    expect(ids(b.training)).toEqual(ids(a.training));
    expect(ids(c.validation)).toEqual(ids(a.validation));
    expect(ids(c.training)).toEqual(ids(a.training));
  });

  it('takes the pairs with the smallest keys for validation, matches first', () => {
    const matches = DATASET.filter((p) => p.isMatch)
      .map((p) => ({
        p,
        k: createHash('sha256').update(`EHR\t${p.left.localId}\tLAB\t${p.right.localId}`).digest('hex'),
      }))
      .sort((x, y) => (x.k < y.k ? -1 : 1))
      .map(({ p }) => p);
    const { validation } = splitByClass(DATASET, 0.1);
    // round(30 × 0.1) = 3 matches, then round(70 × 0.1) = 7 non-matches.
    expect(ids(validation.slice(0, 3))).toEqual(ids(matches.slice(0, 3)));
    expect(validation.slice(3).every((p) => !p.isMatch)).toBe(true);
  });

  it('keeps everything in training with fraction 0', () => {
    const { training, validation } = splitByClass(DATASET, 0);
    expect(validation).toEqual([]);
    expect(training).toHaveLength(100);
  });

  it('handles an empty dataset and a single class', () => {
    expect(splitByClass([], 0.5)).toEqual({ training: [], validation: [] });
    const { training, validation } = splitByClass([pairOf(1, true), pairOf(2, true)], 0.5);
    // round(2 × 0.5) = 1 each.
    expect(validation).toHaveLength(1);
    expect(training).toHaveLength(1);
  });

  it('rejects a fraction outside [0, 1)', () => {
    expect(() => splitByClass(DATASET, 1)).toThrow(RangeError);
    expect(() => splitByClass(DATASET, -0.1)).toThrow(RangeError);
    expect(() => splitByClass(DATASET, Number.NaN)).toThrow(RangeError);
  });
});
