import { describe, expect, it } from 'vitest';
import { countsAtThreshold, f1OptimalThreshold } from '../../../engine/stats/threshold-sweep.ts';
import type { ScoredExample } from '../../../engine/stats/threshold-sweep.ts';

const M = true;
const N = false;
const make = (rows: readonly (readonly [number, boolean])[]): ScoredExample[] =>
  rows.map(([score, isMatch]) => ({ score, isMatch }));

// Ten pairs, 5 matches and 5 non-matches, with a tie at 0.9. The table below was produced by a
// brute-force recount at every distinct score (a separate Python loop, not a sweep):
//
//   t     tp fp tn fn   F1       precision  recall
//   0.95   1  0  5  4   0.3333   1.0000     0.2
//   0.9    2  1  4  3   0.5000   0.6667     0.4
//   0.8    3  1  4  2   0.6667   0.7500     0.6
//   0.7    3  2  3  2   0.6000   0.6000     0.6
//   0.6    4  2  3  1   0.7273   0.6667     0.8   ← best F1 = 8/11
//   0.5    4  3  2  1   0.6667   0.5714     0.8
//   0.4    4  4  1  1   0.6154   0.5000     0.8
//   0.3    5  4  1  0   0.7143   0.5556     1.0
//   0.2    5  5  0  0   0.6667   0.5000     1.0
const TEN = make([
  [0.3, M],
  [0.95, M],
  [0.5, N],
  [0.9, N],
  [0.8, M],
  [0.2, N],
  [0.7, N],
  [0.9, M],
  [0.6, M],
  [0.4, N],
]);

describe('countsAtThreshold', () => {
  it('predicts a match when score >= threshold', () => {
    expect(countsAtThreshold(TEN, 0.9)).toEqual({ tp: 2, fp: 1, tn: 4, fn: 3 });
    expect(countsAtThreshold(TEN, 0.6)).toEqual({ tp: 4, fp: 2, tn: 3, fn: 1 });
    expect(countsAtThreshold(TEN, 0.65)).toEqual({ tp: 3, fp: 2, tn: 3, fn: 2 });
    expect(countsAtThreshold(TEN, 1)).toEqual({ tp: 0, fp: 0, tn: 5, fn: 5 });
    expect(countsAtThreshold(TEN, 0)).toEqual({ tp: 5, fp: 5, tn: 0, fn: 0 });
  });

  it('counts nothing for no examples', () => {
    expect(countsAtThreshold([], 0.5)).toEqual({ tp: 0, fp: 0, tn: 0, fn: 0 });
  });

  it('rejects a NaN threshold or score', () => {
    expect(() => countsAtThreshold(TEN, Number.NaN)).toThrow(RangeError);
    expect(() => countsAtThreshold(make([[Number.NaN, M]]), 0.5)).toThrow(RangeError);
  });
});

describe('f1OptimalThreshold', () => {
  it('finds the F1-maximising distinct score', () => {
    // From the table: 0.6, F1 = 2·4/(2·4 + 2 + 1) = 8/11.
    expect(f1OptimalThreshold(TEN)).toEqual({ threshold: 0.6, f1: 8 / 11 });
  });

  it('does not depend on input order', () => {
    expect(f1OptimalThreshold([...TEN].reverse())).toEqual({ threshold: 0.6, f1: 8 / 11 });
  });

  it('breaks ties towards the highest threshold', () => {
    // t=0.9: tp1 fp0 fn1 → 2/3; t=0.5: tp1 fp1 fn1 → 2/4; t=0.4: tp1 fp2 fn1 → 2/5;
    // t=0.3: tp2 fp2 fn0 → 4/6 = 2/3. Tie between 0.9 and 0.3 → 0.9.
    const examples = make([
      [0.3, M],
      [0.4, N],
      [0.5, N],
      [0.9, M],
    ]);
    expect(f1OptimalThreshold(examples)).toEqual({ threshold: 0.9, f1: 2 / 3 });
  });

  it('keeps tied scores together', () => {
    // Two pairs at 0.5 (one match, one non-match) cannot be separated: t=0.5 gives tp1 fp1 fn0 → 2/3.
    expect(
      f1OptimalThreshold(
        make([
          [0.5, M],
          [0.5, N],
        ]),
      ),
    ).toEqual({ threshold: 0.5, f1: 2 / 3 });
  });

  it('returns null without labelled matches', () => {
    expect(f1OptimalThreshold(make([[0.4, N]]))).toBeNull();
    expect(f1OptimalThreshold([])).toBeNull();
  });
});
