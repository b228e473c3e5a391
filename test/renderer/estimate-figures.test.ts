/**
 * The estimate view's own computations, without a browser: the rows behind the curves and the table (one per
 * distinct threshold, ascending, the suggested ones marked) and EM's convergence in words, on hand-made reports.
 */
import { describe, expect, it } from 'vitest';
import type { EstimatedThreshold, EstimateReport } from '../../engine/contract/estimate.ts';
import {
  convergenceText,
  estimatedRows,
  reviewBandText,
  sampleCaption,
  sessionsText,
} from '../../renderer/pages/assurance/estimate-figures.ts';

const at = (threshold: number, precision: number | null, recall: number | null): EstimatedThreshold => ({
  threshold,
  pairsAtOrAbove: Math.round((1 - threshold) * 1000),
  expectedTruePositives: 10,
  expectedFalsePositives: 1,
  expectedFalseNegatives: 2,
  precision,
  recall,
  f1: null,
});

/** A report's fit that failed its checks (the model is the fallback). */
const FAILED_FIT = {
  status: 'fallback' as const,
  start: null,
  checks: [],
  attempts: [],
  anchor: { fields: [], applies: false, exactPairs: 0, coincidences: 0, lowerBound: 0 },
};

describe('estimatedRows', () => {
  it('merges the report and suggested thresholds into one ascending row per threshold, marking the suggested ones', () => {
    const rows = estimatedRows({
      thresholds: [at(0.9, 0.95, 0.9), at(0.5, 0.8, 0.99), at(0.99, 0.999, 0.7)],
      suggestedThresholdsAt: [at(0.99, 0.999, 0.7), at(0.7, 0.9, 0.95)],
      suggestedThresholds: { Certain: 0.99, Probable: 0.7 },
    });
    expect(rows.map((r) => [r.threshold, r.suggested])).toEqual([
      [0.5, null],
      [0.7, 'Probable'],
      [0.9, null],
      [0.99, 'Certain'],
    ]);
    expect(rows[1]).toMatchObject({ precision: 0.9, recall: 0.95 });
  });

  it('names one row both Certain and Probable when the suggestion closes the review band', () => {
    const rows = estimatedRows({
      thresholds: [at(0.8, 0.99, 0.99)],
      suggestedThresholdsAt: [at(0.8, 0.99, 0.99)],
      suggestedThresholds: { Certain: 0.8, Probable: 0.8 },
    });
    expect(rows.map((r) => r.suggested)).toEqual(['Certain and Probable']);
  });
});

describe('convergenceText', () => {
  const base: EstimateReport['convergence'] = {
    converged: true,
    iterations: 1,
    maxIterations: 1000,
    tolerance: 1e-6,
    logLikelihood: -10,
    finalObjectiveChange: 0,
    finalParameterChange: 4.2e-7,
  };

  it('says a converged fit settled, in how many iterations, and what it still moved', () => {
    expect(convergenceText({ ...base, iterations: 37 })).toBe(
      'Converged after 37 iterations (of at most 1000): in the last iteration no m, u or match share moved by more than 0.000001 (largest change 4.20e-7).',
    );
    expect(convergenceText(base)).toMatch(/^Converged after 1 iteration \(/);
  });

  it('warns when the fit stopped at its limit', () => {
    const text = convergenceText({ ...base, converged: false, iterations: 1000, finalParameterChange: 0.003 });
    expect(text).toMatch(
      /^Did not converge: stopped at the limit of 1000 iterations while a parameter still moved by 3.00e-3, more than the tolerance 0.000001/,
    );
  });

  it('calls no failed fit converged, and says where its first start stopped without claiming a limit it never reached', () => {
    expect(convergenceText({ ...base, converged: false, iterations: 33 }, FAILED_FIT)).toBe(
      "No fit is reported as converged: no start passed every check (above), so the model is the fallback, not a fit of these records. The first start (the profile's model) stopped after 33 iterations.",
    );
    expect(convergenceText({ ...base, converged: false, iterations: 1000 }, FAILED_FIT)).toMatch(
      /stopped at its limit of 1000 iterations\.$/,
    );
  });
});

describe('sessionsText', () => {
  it('names the fields whose m came from sessions and the sessions that were fitted, with their pairs', () => {
    const text = sessionsText({
      fields: ['familyName', 'givenName'],
      sessions: [
        { rule: 'birth-date', pairs: 5966, matchShare: 0.92, iterations: 12, converged: true },
        { rule: 'identifier', pairs: 3, matchShare: null, iterations: 0, converged: false },
      ],
    });
    expect(text).toContain('m of family name and given name from 1 EM session,');
    expect(text).toContain('birth-date: 5,966 pairs');
    expect(text).not.toContain('identifier:');
  });

  it('says when no session had enough pairs and m came from EM over all candidates', () => {
    expect(sessionsText({ fields: [], sessions: [] })).toMatch(/^m from EM over all candidate pairs/);
    // An older registry sends no sessions at all.
    expect(sessionsText(undefined)).toMatch(/did not say how m was estimated/);
  });
});

describe('reviewBandText', () => {
  it('gives the band against the budget, and when the budget raised Probable what the model expects it left out', () => {
    expect(
      reviewBandText({
        reviewBand: {
          budgetPerThousandRecords: 20,
          pairsPerThousandRecords: 12.34,
          budgetRaisedProbable: false,
          expectedTruePairsLeftOut: 0,
        },
      }),
    ).toBe('The suggested thresholds leave 12.3 candidate pairs per 1,000 records for review (budget 20).');
    expect(
      reviewBandText({
        reviewBand: {
          budgetPerThousandRecords: 20,
          pairsPerThousandRecords: 19.8,
          budgetRaisedProbable: true,
          expectedTruePairsLeftOut: 1234.4,
        },
      }),
    ).toMatch(
      /budget 20\)\. The budget raised Probable: the model expects about 1,234 true pairs among the pairs it leaves below/,
    );
    expect(reviewBandText({})).toMatch(/older version/);
  });

  it('says a failed fit estimates no band, whatever band an older report carried', () => {
    const band = {
      budgetPerThousandRecords: 20,
      pairsPerThousandRecords: 3,
      budgetRaisedProbable: false,
      expectedTruePairsLeftOut: 0,
    };
    expect(reviewBandText({ fit: FAILED_FIT, reviewBand: band })).toBe(
      "No review band is estimated: the fit failed its checks, so the profile's thresholds stay as they are.",
    );
  });
});

describe('sampleCaption', () => {
  it('says nothing when every record was read, and names the sample and the registry when not', () => {
    expect(sampleCaption({ records: 4_380 })).toBeNull();
    expect(sampleCaption({ records: 1_000_000, sampledRecords: 100_000 })).toBe(
      'estimated on a seeded sample of 100,000 of the 1,000,000 records',
    );
  });
});
