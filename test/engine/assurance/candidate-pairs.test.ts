/**
 * labels/candidates (the labelling workbench's read) on a real synthetic sandbox: blocking candidates only,
 * ordered nearest the thresholds, a score range, stable pages, both records' fields and the field evidence,
 * the same seed giving the same pairs, and nothing written.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { tableCounts } from '../../helpers/registry.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { EngineError } from '../../../engine/contract/errors.ts';
import { FIELD_NAMES } from '../../../engine/contract/fields.ts';
import { candidatePairs } from '../../../engine/assurance/candidate-pairs.ts';
import { NO_CONTROL } from '../../../engine/run-control.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';

const ctx = { tenantId: 'demo', actor: 'test' };

describe('labels/candidates', () => {
  it('lists blocking candidates nearest the thresholds with both records and their evidence, in stable pages, writing nothing', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 's.db') });
    try {
      await engine.call('sandbox/create', { syntheticPeople: 400, seed: 9 }, ctx);
      const before = tableCounts(engine, 'demo');
      const { profile } = await engine.call('profile/get', {}, ctx);
      const { Probable, Certain } = profile.MatchingRules.Thresholds;

      const first = await engine.call('labels/candidates', { limit: 40 }, ctx);
      expect(first.population.records).toBeGreaterThan(400);
      expect(first.population.candidatePairs).toBeGreaterThan(first.pairs.length);
      expect(first.population.scoredPairs).toBe(Math.min(first.population.candidatePairs, 20_000));
      expect(first.population.inRange).toBe(first.population.scoredPairs);
      // The default profile scores with its Fellegi-Sunter model (issue 12): the basis carries its prior.
      expect(first.versions).toMatchObject({ matchingProfileVersion: 1, scoreMethod: 'fellegi-sunter' });
      const prior = profile.MatchingRules.FellegiSunter?.priorMatchProbability ?? Number.NaN;
      expect(first.scoreBasis).toMatchObject({
        scoreMethod: 'fellegi-sunter',
        thresholds: { probable: Probable, certain: Certain },
      });
      expect(first.scoreBasis.priorLogOdds).toBeCloseTo(Math.log(prior / (1 - prior)), 9);
      expect(first.pairs).toHaveLength(40);
      const distance = (s: number): number => Math.min(Math.abs(s - Probable), Math.abs(s - Certain));
      const distances = first.pairs.map((p) => distance(p.score));
      expect(distances).toEqual([...distances].sort((a, b) => a - b));

      for (const pair of first.pairs) {
        expect(pair.evidence.map((e) => e.field)).toEqual([...FIELD_NAMES]);
        expect(pair.left.fields).toHaveProperty('familyName');
        expect(`${pair.left.sourceSystem}/${pair.left.localId}`).not.toBe(
          `${pair.right.sourceSystem}/${pair.right.localId}`,
        );
        // The pair's score is the scorer's: the same as explaining the two records.
        const ref = (r: { sourceSystem: string; localId: string }) => ({
          sourceSystem: r.sourceSystem,
          localId: r.localId,
        });
        const explained = await engine.call('matching/explain', { left: ref(pair.left), right: ref(pair.right) }, ctx);
        expect(pair.score).toBe(explained.score);
        // And the rule that set it, with the twin rule's case: the workbench says why as the comparison viewer does.
        expect({ limitedBy: pair.limitedBy, twinReason: pair.twinReason }).toEqual({
          limitedBy: explained.limitedBy,
          twinReason: explained.twinReason,
        });
        // A candidate: the two records share a blocking rule.
        expect(explained.sharedBlockingRules.length).toBeGreaterThan(0);
        // The records' values come only when asked, and are the ones the workbench shows.
        expect(explained.values).toBeUndefined();
        const withValues = await engine.call(
          'matching/explain',
          { left: ref(pair.left), right: ref(pair.right), withValues: true },
          ctx,
        );
        expect(withValues.values).toEqual({ left: pair.left.fields, right: pair.right.fields });
        expect(withValues.score).toBe(explained.score);
      }

      // Pairs held as possible twins sit at Probable, nearest it: some are among the first, each with its case.
      const twins = first.pairs.filter((p) => p.limitedBy === 'PossibleTwin');
      expect(twins.length).toBeGreaterThan(0);
      expect(twins.every((p) => p.twinReason !== undefined)).toBe(true);

      // Pages continue the same order; the same seed gives the same list.
      const second = await engine.call('labels/candidates', { limit: 20, offset: 20 }, ctx);
      expect(second.pairs.map((p) => p.score)).toEqual(first.pairs.slice(20, 40).map((p) => p.score));
      expect((await engine.call('labels/candidates', { limit: 40 }, ctx)).pairs).toEqual(first.pairs);

      // A score range, highest first.
      const high = await engine.call(
        'labels/candidates',
        { minScore: 0.9, maxScore: 1, order: 'highest-first', limit: 200 },
        ctx,
      );
      expect(high.pairs.every((p) => p.score >= 0.9 && p.score <= 1)).toBe(true);
      expect(high.pairs.map((p) => p.score)).toEqual([...high.pairs.map((p) => p.score)].sort((a, b) => b - a));
      expect(high.population.inRange).toBeLessThan(high.population.scoredPairs);

      expect(tableCounts(engine, 'demo')).toEqual(before);
      await expect(engine.call('labels/candidates', { minScore: 0.8, maxScore: 0.2 }, ctx)).rejects.toBeInstanceOf(
        EngineError,
      );
    } finally {
      engine.close();
    }
  });

  it('reads a seeded uniform sample of the records on a registry above its bound: candidates among the sample only', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 's.db') });
    try {
      await engine.call('sandbox/create', { syntheticPeople: 400, seed: 9 }, ctx);
      const draw = (seed: number, maxRecords: number) =>
        withTenant('demo', () =>
          candidatePairs(engine.env, { limit: 200, order: 'highest-first', seed }, ctx, NO_CONTROL, maxRecords),
        );
      const whole = draw(1, 100_000);
      expect(whole.population.sampledRecords).toBeUndefined();
      const records = whole.population.records;

      const sampled = draw(1, 300);
      expect(sampled.population).toMatchObject({ records, sampledRecords: 300, truncated: false });
      // A pair is drawn when both its records are: about (300 / records)² of the registry's candidate pairs.
      const expected = whole.population.candidatePairs * (300 / records) ** 2;
      expect(sampled.population.candidatePairs).toBeGreaterThan(expected / 2);
      expect(sampled.population.candidatePairs).toBeLessThan(expected * 2);
      // Every pair lies among 300 records and is a blocking candidate of the whole registry.
      const key = (r: { sourceSystem: string; localId: string }) => `${r.sourceSystem}/${r.localId}`;
      const seen = new Set(sampled.pairs.flatMap((p) => [key(p.left), key(p.right)]));
      expect(seen.size).toBeLessThanOrEqual(300);
      for (const pair of sampled.pairs.slice(0, 10)) {
        const explained = await engine.call(
          'matching/explain',
          {
            left: { sourceSystem: pair.left.sourceSystem, localId: pair.left.localId },
            right: { sourceSystem: pair.right.sourceSystem, localId: pair.right.localId },
          },
          ctx,
        );
        expect(explained.sharedBlockingRules.length).toBeGreaterThan(0);
        expect(pair.score).toBe(explained.score);
      }
      // The seed chooses the sample: the same seed the same pairs, another seed other records.
      expect(draw(1, 300).pairs).toEqual(sampled.pairs);
      const other = draw(2, 300);
      expect(other.pairs.map((p) => key(p.left))).not.toEqual(sampled.pairs.map((p) => key(p.left)));
    } finally {
      engine.close();
    }
  });
});
