/**
 * The aggregates the Match assurance page draws from, on a real synthetic sandbox: the evaluation's score
 * distribution gives the report's own confusion matrices at its thresholds, and a calibration's held-out
 * distribution and reliability bins account for every validation pair.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { countsAtEdge, edgeOf } from '../../../engine/contract/statistics/score-distribution.ts';

const ctx = { tenantId: 'demo', actor: 'test' };

describe('evaluation and calibration aggregates', () => {
  it('score histograms reproduce the report’s matrices; reliability bins cover the held-out pairs', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 's.db') });
    try {
      await engine.call('sandbox/create', { syntheticPeople: 300, seed: 21 }, ctx);
      const { pairs } = await engine.call('labels/sample', { maxPairs: 1500, seed: 1 }, ctx);
      const report = await engine.call(
        'matching/evaluate',
        { datasetId: 'agg', pairs, thresholds: [0.5, 0.75, 0.92, 0.99], maximumErrorExamples: 20 },
        ctx,
      );
      const distribution = report.scoreDistribution;
      if (distribution === undefined) throw new Error('no distribution');
      expect(distribution.matches.reduce((a, b) => a + b, 0)).toBe(report.labels.matches);
      expect(distribution.nonMatches.reduce((a, b) => a + b, 0)).toBe(report.labels.nonMatches);
      for (const row of report.thresholds) {
        const k = edgeOf(row.threshold);
        if (k === null) throw new Error('threshold off the grid');
        expect(countsAtEdge(distribution, k)).toEqual({ tp: row.tp, fp: row.fp, tn: row.tn, fn: row.fn });
      }
      // The default profile (issue 12): its Fellegi-Sunter model and thresholds.
      expect(report.scoreBasis).toMatchObject({
        scoreMethod: 'fellegi-sunter',
        thresholds: { probable: 0.5, certain: 0.97 },
      });
      for (const example of [...report.errorExamples.falsePositives, ...report.errorExamples.falseNegatives])
        expect(example.decision).toBeDefined();

      const { report: calibration } = await engine.call(
        'matching/calibrate',
        {
          datasetId: 'agg',
          modelVersion: 'm1',
          pairs,
          priorMatchProbability: 0.02,
          smoothing: 1,
          validationFraction: 0.3,
          targetPrecision: 0.9,
        },
        ctx,
      );
      const held = calibration.heldOut;
      const bins = held.reliability ?? [];
      expect(bins).toHaveLength(10);
      expect(bins.reduce((n, b) => n + b.pairs, 0)).toBe(calibration.validation.pairs);
      const heldDistribution = held.scoreDistribution;
      if (heldDistribution === undefined) throw new Error('no held-out distribution');
      expect(heldDistribution.matches.reduce((a, b) => a + b, 0)).toBe(calibration.validation.matches);
      const at05 = held.thresholds.find((t) => t.threshold === 0.5);
      expect(at05).toBeDefined();
      expect(countsAtEdge(heldDistribution, 500)).toEqual({ tp: at05?.tp, fp: at05?.fp, tn: at05?.tn, fn: at05?.fn });
    } finally {
      engine.close();
    }
  });
});
