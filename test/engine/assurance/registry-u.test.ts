/**
 * Calibration with u from random pairs of the registry (engine/assurance/registry-u.ts, `uFrom: 'random-pairs'`):
 * m stays the labels', u and the prior describe random record pairs, and the default keeps the specification's way.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { FIELD_NAMES } from '../../../engine/contract/fields.ts';
import { FellegiSunterModelSchema } from '../../../engine/contract/profile.ts';
import { DEFAULT_RANDOM_PAIRS } from '../../../engine/contract/estimate.ts';
import { activeProfile } from '../../../engine/store/profiles.ts';
import { registryU } from '../../../engine/assurance/registry-u.ts';

async function sandbox() {
  const engine = LocalEngine.open({ dbPath: join(tempDir(), 'registry-u.db') });
  const ctx = { tenantId: 'demo', actor: 'test' };
  await engine.call('sandbox/create', { syntheticPeople: 600, seed: 5 }, ctx);
  const sample = await engine.call('labels/sample', { maxPairs: 2000, seed: 3 }, ctx);
  const request = {
    datasetId: 'synthetic-600',
    modelVersion: 'fs-test-1',
    pairs: sample.pairs,
    priorMatchProbability: 0.2,
    smoothing: 1,
    validationFraction: 0.3,
    targetPrecision: 0.99,
  };
  return { engine, ctx, sample, request };
}

describe('calibration with u from random pairs of the registry', () => {
  it('keeps the labels’ m, takes u from random pairs and restates the prior over all record pairs', async () => {
    const { engine, ctx, sample, request } = await sandbox();
    const byDefault = await engine.call('matching/calibrate', request, ctx);
    const fromLabels = await engine.call('matching/calibrate', { ...request, uFrom: 'labels' }, ctx);
    const fromRandom = await engine.call('matching/calibrate', { ...request, uFrom: 'random-pairs' }, ctx);

    // The specification's way stays the default: u from the labels, the prior as given, no registry size.
    expect(byDefault.model).toEqual(fromLabels.model);
    expect(byDefault.report.uSource).toEqual({ from: 'labels' });
    expect(byDefault.model.priorMatchProbability).toBe(0.2);
    expect(byDefault.model.priorRecords).toBeUndefined();

    const model = fromRandom.model;
    expect(FellegiSunterModelSchema.parse(model)).toEqual(model);
    for (const field of FIELD_NAMES) expect(model.fields[field]?.m).toEqual(fromLabels.model.fields[field]?.m);
    // Non-matches among blocking candidates share their birth dates (a rule blocks on it); random pairs almost never.
    const exactDate = (m: typeof model): number => m.fields.birthDate?.u.Exact ?? Number.NaN;
    expect(exactDate(fromLabels.model)).toBeGreaterThan(0.05);
    expect(exactDate(model)).toBeLessThan(0.005);

    // The prior: the share given times the share of all record pairs that blocking makes candidates, at the
    // registry's size (every record read: 600 people's records are fewer than the sample's bound).
    const source = fromRandom.report.uSource;
    if (source?.from !== 'random-pairs') throw new Error('the report does not say u came from random pairs');
    const records = sample.candidates.records;
    expect(source.population).toBe(records);
    expect(source.sampledRecords).toBe(records);
    expect(source.candidatePairs).toBe(sample.candidates.pairs);
    expect(source.truncated).toBe(false);
    // Pairs a trusted identifier or a hard conflict decides stay out of u, as in the labels' counts.
    expect(source.randomPairs).toBeGreaterThan(0.8 * DEFAULT_RANDOM_PAIRS);
    expect(source.randomPairs).toBeLessThanOrEqual(DEFAULT_RANDOM_PAIRS);
    expect(model.priorMatchProbability).toBeCloseTo(
      (0.2 * sample.candidates.pairs) / ((records * (records - 1)) / 2),
      15,
    );
    expect(source.prior).toBe(model.priorMatchProbability);
    expect(model.priorRecords).toBe(records);
    expect(source.explanation).toMatch(/^u comes from [\d,]+ random pairs of the registry's [\d,]+ records/);
    expect(fromRandom.report.estimation).toMatch(/u_b likewise over random pairs of the registry's records/);
    // The live thresholds are still read on the held-out labels with the share given.
    expect(fromRandom.report.liveThresholds?.prior).toBe(0.2);
    // Their false-positive rate over every labelled non-match the model never learned from: with u from the labels the
    // held-out ones; with u from random pairs the model learned from the matches only, so the training ones too.
    const unseen = (r: typeof fromRandom.report) => ({
      nonMatches: r.liveThresholds?.heldOutNonMatches,
      fromTraining: r.liveThresholds?.nonMatchesFromTraining,
    });
    expect(unseen(fromLabels.report)).toEqual({ nonMatches: fromLabels.report.validation.nonMatches, fromTraining: 0 });
    expect(fromRandom.report.training.nonMatches).toBeGreaterThan(0);
    expect(unseen(fromRandom.report)).toEqual({
      nonMatches: fromRandom.report.labels.nonMatches,
      fromTraining: fromRandom.report.training.nonMatches,
    });
    expect(fromRandom.report.liveThresholds?.explanation).toMatch(
      /the false-positive rate over [\d,]+ non-matches the model never learned from: [\d,]+ held out and [\d,]+ of training/,
    );
    expect(fromLabels.report.liveThresholds?.explanation).not.toMatch(/non-matches the model never learned from/);

    // Deterministic: the same labels and registry give the same model.
    const again = await engine.call('matching/calibrate', { ...request, uFrom: 'random-pairs' }, ctx);
    expect(again.model).toEqual(model);
    engine.close();
  }, 120_000);

  it('weighs the random pairs of one person out of u, more of them the higher the prior', async () => {
    const { engine, ctx, request } = await sandbox();
    const { model } = await engine.call('matching/calibrate', { ...request, uFrom: 'labels' }, ctx);
    const stored = activeProfile(engine.env.store, ctx.tenantId);
    const read = (candidateShare: number) =>
      engine.env.store.read(() =>
        registryU(engine.env, ctx, stored, { m: model.fields, candidateShare, smoothing: 1, seed: 1 }),
      );
    const low = read(0.01);
    const high = read(0.5);
    expect(high.prior).toBeCloseTo(50 * low.prior, 15);
    // The pairs of one person agree on their birth date: the more of them the prior expects among the random
    // pairs, the more exact agreement leaves u.
    expect(high.matchesWeightedOut).toBeGreaterThan(low.matchesWeightedOut);
    expect(high.u.birthDate?.Exact ?? 1).toBeLessThan(low.u.birthDate?.Exact ?? 0);
    expect(high.u.birthDate?.Different ?? 0).toBeGreaterThan(low.u.birthDate?.Different ?? 1);
    engine.close();
  }, 120_000);
});
