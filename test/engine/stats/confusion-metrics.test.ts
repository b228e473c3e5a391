import { describe, expect, it } from 'vitest';
import { confusionMetrics } from '../../../engine/stats/confusion-metrics.ts';
import { f1Score } from '../../../engine/stats/f1-score.ts';
import { matthewsCorrelation } from '../../../engine/stats/matthews-correlation.ts';

describe('confusionMetrics', () => {
  it('computes every metric of a hand-worked matrix', () => {
    // tp=40 fp=10 tn=45 fn=5 (100 pairs: 45 matches, 55 non-matches)
    // precision   = 40 / (40+10) = 0.8
    // recall      = 40 / (40+5)  = 0.888…
    // specificity = 45 / (45+10) = 0.8181…
    // npv         = 45 / (45+5)  = 0.9
    // F1          = 80 / (80+10+5) = 80/95 = 0.842105…
    // MCC = (40·45 − 10·5) / sqrt(50·45·55·50) = 1750 / sqrt(6 187 500) = 1750 / 2487.4686 = 0.703526…
    // Cross-check: SciPy 1.17.1 pearsonr on the 0/1 vectors (phi coefficient) gives 0.7035264706814487.
    const m = confusionMetrics({ tp: 40, fp: 10, tn: 45, fn: 5 });
    expect(m.precision).toBeCloseTo(0.8, 12);
    expect(m.recall).toBeCloseTo(40 / 45, 12);
    expect(m.specificity).toBeCloseTo(45 / 55, 12);
    expect(m.npv).toBeCloseTo(0.9, 12);
    expect(m.f1).toBeCloseTo(80 / 95, 12);
    expect(m.mcc).toBeCloseTo(0.7035264706814487, 12);
  });

  it('gives 1 for every metric of a perfect classifier', () => {
    // tp=5 fp=0 tn=7 fn=0: 5/5, 5/5, 7/7, 7/7, 10/10, (35−0)/sqrt(5·5·7·7) = 35/35.
    expect(confusionMetrics({ tp: 5, fp: 0, tn: 7, fn: 0 })).toEqual({
      precision: 1,
      recall: 1,
      specificity: 1,
      npv: 1,
      f1: 1,
      mcc: 1,
    });
  });

  it('gives 0 (not null) where the denominators exist but every prediction is wrong', () => {
    // tp=0 fp=3 tn=0 fn=4: 0/3, 0/4, 0/3, 0/4, 0/7; MCC = (0 − 12)/sqrt(3·4·3·4) = −12/12 = −1.
    expect(confusionMetrics({ tp: 0, fp: 3, tn: 0, fn: 4 })).toEqual({
      precision: 0,
      recall: 0,
      specificity: 0,
      npv: 0,
      f1: 0,
      mcc: -1,
    });
  });

  it('is null where a denominator is zero, never 0', () => {
    // tp = fp = 0: nothing predicted a match → precision undefined.
    expect(confusionMetrics({ tp: 0, fp: 0, tn: 5, fn: 3 }).precision).toBeNull();
    // tp = fn = 0: no labelled matches → recall undefined.
    expect(confusionMetrics({ tp: 0, fp: 2, tn: 5, fn: 0 }).recall).toBeNull();
    // tn = fp = 0: no labelled non-matches → specificity undefined.
    expect(confusionMetrics({ tp: 4, fp: 0, tn: 0, fn: 3 }).specificity).toBeNull();
    // tn = fn = 0: nothing predicted a non-match → npv undefined.
    expect(confusionMetrics({ tp: 4, fp: 2, tn: 0, fn: 0 }).npv).toBeNull();
    // 2tp + fp + fn = 0: only true negatives → F1 undefined.
    expect(confusionMetrics({ tp: 0, fp: 0, tn: 9, fn: 0 }).f1).toBeNull();
    // An empty matrix: everything undefined.
    expect(confusionMetrics({ tp: 0, fp: 0, tn: 0, fn: 0 })).toEqual({
      precision: null,
      recall: null,
      specificity: null,
      npv: null,
      f1: null,
      mcc: null,
    });
  });

  it('keeps the defined metrics when another is null', () => {
    // tp=0 fp=0 tn=5 fn=3: recall 0/3 = 0, specificity 5/5 = 1, npv 5/8, F1 0/3 = 0, MCC null.
    expect(confusionMetrics({ tp: 0, fp: 0, tn: 5, fn: 3 })).toEqual({
      precision: null,
      recall: 0,
      specificity: 1,
      npv: 5 / 8,
      f1: 0,
      mcc: null,
    });
  });

  it('rejects counts that are not non-negative integers', () => {
    expect(() => confusionMetrics({ tp: -1, fp: 0, tn: 0, fn: 0 })).toThrow(RangeError);
    expect(() => confusionMetrics({ tp: 1.5, fp: 0, tn: 0, fn: 0 })).toThrow(RangeError);
    expect(() => confusionMetrics({ tp: 0, fp: Number.NaN, tn: 0, fn: 0 })).toThrow(RangeError);
  });
});

describe('f1Score', () => {
  it('is 2tp / (2tp + fp + fn)', () => {
    // tp=3 fp=1 fn=2: 6 / (6+1+2) = 2/3; the same as 2PR/(P+R) with P = 3/4, R = 3/5:
    // 2·(9/20)/(27/20) = 18/27 = 2/3.
    expect(f1Score({ tp: 3, fp: 1, fn: 2 })).toBeCloseTo(2 / 3, 15);
  });

  it('is defined (0) when precision alone is undefined', () => {
    // tp=0 fp=0 fn=4: precision 0/0, yet F1 = 0 / 4 = 0.
    expect(f1Score({ tp: 0, fp: 0, fn: 4 })).toBe(0);
  });

  it('is null when 2tp + fp + fn = 0', () => {
    expect(f1Score({ tp: 0, fp: 0, fn: 0 })).toBeNull();
  });
});

describe('matthewsCorrelation', () => {
  it("matches scikit-learn's matthews_corrcoef documentation example", () => {
    // scikit-learn docs, sklearn.metrics.matthews_corrcoef: y_true = [+1, +1, +1, -1],
    // y_pred = [+1, -1, +1, +1] → -0.33…  As a matrix: tp=2 fn=1 fp=1 tn=0.
    // By formula: (2·0 − 1·1) / sqrt(3·3·1·1) = −1/3.
    expect(matthewsCorrelation({ tp: 2, fp: 1, tn: 0, fn: 1 })).toBeCloseTo(-1 / 3, 12);
  });

  it('agrees with the phi coefficient computed by SciPy', () => {
    // Independent implementation: scipy.stats.pearsonr (SciPy 1.17.1) of the labels and
    // predictions expanded to 0/1 vectors, which is the phi coefficient = MCC.
    // tp=13 fp=7 tn=70 fn=10 → 0.4990108793478456
    //   by formula: (13·70 − 7·10)/sqrt(20·23·77·80) = 840/sqrt(2 833 600) = 840/1683.3300 = 0.499011
    // tp=90 fp=4 tn=1 fn=5 → 0.13524203070138513
    //   by formula: (90·1 − 4·5)/sqrt(94·95·5·6) = 70/sqrt(267 900) = 70/517.5906 = 0.135242
    expect(matthewsCorrelation({ tp: 13, fp: 7, tn: 70, fn: 10 })).toBeCloseTo(0.4990108793478456, 12);
    expect(matthewsCorrelation({ tp: 90, fp: 4, tn: 1, fn: 5 })).toBeCloseTo(0.13524203070138513, 12);
  });

  it('is null when any marginal factor is zero (scikit-learn would return 0 here)', () => {
    // tp + fp = 0 (nothing predicted a match)
    expect(matthewsCorrelation({ tp: 0, fp: 0, tn: 5, fn: 3 })).toBeNull();
    // tp + fn = 0 (no labelled matches)
    expect(matthewsCorrelation({ tp: 0, fp: 2, tn: 5, fn: 0 })).toBeNull();
    // tn + fp = 0 (no labelled non-matches)
    expect(matthewsCorrelation({ tp: 4, fp: 0, tn: 0, fn: 3 })).toBeNull();
    // tn + fn = 0 (nothing predicted a non-match)
    expect(matthewsCorrelation({ tp: 4, fp: 2, tn: 0, fn: 0 })).toBeNull();
  });

  it('gives ±1 for perfect agreement and disagreement on large counts, never beyond', () => {
    // (9999·7777)² = 6.05e15 < 2^53, so the denominator's square root is exact.
    expect(matthewsCorrelation({ tp: 9_999, fp: 0, tn: 7_777, fn: 0 })).toBe(1);
    expect(matthewsCorrelation({ tp: 0, fp: 9_999, tn: 0, fn: 7_777 })).toBe(-1);
    // (10⁴·10⁴)² = 10¹⁶ > 2^53: possibly off by an ulp, but clamped to [−1, 1].
    const large = matthewsCorrelation({ tp: 10_000, fp: 0, tn: 10_000, fn: 0 });
    expect(large).toBeCloseTo(1, 15);
    expect(large).toBeLessThanOrEqual(1);
  });
});
