import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { isEngineError } from '../../../engine/contract/errors.ts';
import { FellegiSunterModelSchema } from '../../../engine/contract/profile.ts';
import { listAudit } from '../../../engine/store/audit.ts';
import { neutralUnseenBands, priorFromCandidates } from '../../../engine/assurance/estimate.ts';
import { estimatedThresholdMetrics, suggestThresholds } from '../../../engine/assurance/estimated-metrics.ts';

describe('matching/estimate on a synthetic sandbox', () => {
  it('answers the model object calibration answers, never activated, and profile apply takes it unchanged', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'estimate.db') });
    const ctx = { tenantId: 'syn', actor: 'test' };
    await engine.call('sandbox/create', { syntheticPeople: 500, seed: 4 }, ctx);
    const before = await engine.call('profile/get', {}, ctx);
    const { model, report } = await engine.call('matching/estimate', { modelVersion: 'em-1', randomPairs: 50_000 }, ctx);

    expect(FellegiSunterModelSchema.parse(model)).toEqual(model);
    expect(model).toMatchObject({ kind: 'fellegi-sunter-model', modelVersion: 'em-1', bands: ['Exact', 'Strong', 'Partial', 'Different'] });
    expect(model.trainedAgainst).toEqual({ matchingProfileVersion: before.matchingProfileVersion, comparatorVersion: before.profile.Comparators.Version, scoreMethodVersion: 'default-fs-1' });
    expect(report.activated).toBe(false);
    expect((await engine.call('profile/get', {}, ctx)).matchingProfileVersion).toBe(before.matchingProfileVersion);

    // EM converged, and found a match share among candidates strictly inside (0, 1).
    expect(report.convergence.converged).toBe(true);
    expect(report.convergence.iterations).toBeGreaterThan(1);
    expect(Math.abs(report.convergence.finalObjectiveChange)).toBeLessThan(1e-3);
    expect(report.candidateMatchShare).toBeGreaterThan(0.05);
    expect(report.candidateMatchShare).toBeLessThan(0.95);
    expect(report.candidates.modelled + report.candidates.decidedByTrustedIdentifier + report.candidates.decidedByHardConflict).toBe(report.candidates.compared);
    expect(report.randomPairs.compared).toBe(50_000);
    // About prior × compared random pairs are one person, and u leaves them out: a few here (500 people).
    expect(report.randomPairs.matchesWeightedOut).toBeGreaterThan(0);
    expect(report.randomPairs.matchesWeightedOut).toBeLessThan(10 * report.priorMatchProbability * 50_000 + 5);
    // The prior is a random-pair prior: expected true pairs over all record pairs.
    expect(report.priorMatchProbability).toBeCloseTo(report.expectedMatches / ((report.records * (report.records - 1)) / 2), 12);

    // Agreement is evidence for a match and disagreement against it, on the fields the sandbox carries.
    for (const field of ['familyName', 'givenName', 'birthDate'] as const) {
      const p = model.fields[field];
      expect(p).toBeDefined();
      if (p === undefined) continue;
      expect(Math.log(p.m.Exact / p.u.Exact)).toBeGreaterThan(2);
      expect(Math.log(p.m.Different / p.u.Different)).toBeLessThan(-1);
    }

    // The model's own precision/recall: TP + FN is the same expected number of true pairs at every threshold.
    const totals = report.thresholds.map((t) => t.expectedTruePositives + t.expectedFalseNegatives);
    for (const total of totals) expect(total).toBeCloseTo(totals[0] ?? 0, 6);
    expect(report.thresholds.map((t) => t.threshold)).toEqual([...report.thresholds.map((t) => t.threshold)].sort((a, b) => a - b));
    expect(report.suggestedThresholds.Probable).toBeLessThanOrEqual(report.suggestedThresholds.Certain);

    const audit = listAudit(engine.env.store, ctx.tenantId).filter((a) => a.action === 'matching.estimate');
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toMatch(/"(familyName|givenName)"/);

    // Applied as a user would: the new profile carries the model unchanged.
    const applied = await engine.call('profile/apply', { document: model, reason: 'estimate' }, ctx);
    expect(applied.matchingProfileVersion).toBe(before.matchingProfileVersion + 1);
    expect((await engine.call('profile/get', {}, ctx)).profile.MatchingRules.FellegiSunter).toEqual(model);
    // And with the suggested thresholds, as one MatchingRules document.
    await engine.call('profile/apply', { document: { MatchingRules: { FellegiSunter: model, Thresholds: report.suggestedThresholds } }, reason: 'estimate with thresholds' }, ctx);
    expect((await engine.call('profile/get', {}, ctx)).profile.MatchingRules.Thresholds).toEqual(report.suggestedThresholds);
    engine.close();
  }, 120_000);

  it('gives the same model for the same seed and records, and u moves with the seed', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'estimate.db') });
    const ctx = { tenantId: 'syn', actor: 'test' };
    await engine.call('sandbox/create', { syntheticPeople: 200, seed: 9 }, ctx);
    const a = await engine.call('matching/estimate', { modelVersion: 'a', seed: 5, randomPairs: 5_000 }, ctx);
    const b = await engine.call('matching/estimate', { modelVersion: 'a', seed: 5, randomPairs: 5_000 }, ctx);
    const c = await engine.call('matching/estimate', { modelVersion: 'a', seed: 6, randomPairs: 5_000 }, ctx);
    expect(b.model).toEqual(a.model);
    expect(c.model.fields.givenName?.u).not.toEqual(a.model.fields.givenName?.u);
    expect(c.model.datasetDigest).toBe(a.model.datasetDigest);
    engine.close();
  }, 60_000);

  it('refuses a tenant with too few records, naming why, and writes nothing', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'estimate.db') });
    const ctx = { tenantId: 'empty', actor: 'test' };
    await engine.call('sandbox/create', { syntheticPeople: 0 }, ctx);
    const error = await engine.call('matching/estimate', { modelVersion: 'x' }, ctx).catch((e: unknown) => e);
    expect(isEngineError(error) && error.kind).toBe('validation');
    expect(isEngineError(error) && error.issues[0]?.message).toMatch(/0 records/);
    expect(listAudit(engine.env.store, ctx.tenantId).filter((a) => a.action === 'matching.estimate')).toHaveLength(0);
    const bad = await engine.call('matching/estimate', { modelVersion: 'x', randomPairs: 10 }, ctx).catch((e: unknown) => e);
    expect(isEngineError(bad) && bad.issues.map((i) => i.path)).toEqual(['randomPairs']);
    engine.close();
  });
});

describe('model-estimated precision, recall and suggested thresholds', () => {
  const score = Float64Array.from([0.999, 0.98, 0.7, 0.6, 0.3, 0.1]);
  const posterior = Float64Array.from([1, 0.99, 0.9, 0.5, 0.2, 0]);

  it('sums posteriors above and below the threshold', () => {
    const m = estimatedThresholdMetrics(0.65, score, posterior);
    expect(m.pairsAtOrAbove).toBe(3);
    expect(m.expectedTruePositives).toBeCloseTo(2.89, 12);
    expect(m.expectedFalsePositives).toBeCloseTo(0.11, 12);
    expect(m.expectedFalseNegatives).toBeCloseTo(0.7, 12);
    expect(m.precision).toBeCloseTo(2.89 / 3, 12);
    expect(m.recall).toBeCloseTo(2.89 / 3.59, 12);
    expect(estimatedThresholdMetrics(1, score, posterior).precision).toBeNull();
  });

  it('narrows the review band from the profile\'s thresholds: Certain down to the precision target (never below 0.5), Probable up to the recall target', () => {
    // Precision at 0.98: 1.99/2 = 0.995; at 0.7: 2.89/3 = 0.963; at 0.6: 3.39/4 = 0.85. Recall (of 3.59) at 0.6: 0.944; at 0.7: 0.805.
    expect(suggestThresholds(score, posterior, { precision: 0.99, recall: 0.9 }, { Certain: 0.99, Probable: 0.5 })).toMatchObject({ Certain: 0.98, Probable: 0.6 });
    expect(suggestThresholds(score, posterior, { precision: 0.8, recall: 0.5 }, { Certain: 0.99, Probable: 0.5 })).toMatchObject({ Certain: 0.6, Probable: 0.6 });
    // The profile's Certain is already lower than the precision target allows, and its Probable already
    // higher than the recall target needs: neither moves.
    const unsure = Float64Array.from([0.99, 0.99, 0.9, 0.5, 0.2, 0]);
    expect(suggestThresholds(score, unsure, { precision: 0.995, recall: 0.99 }, { Certain: 0.97, Probable: 0.5 })).toMatchObject({ Certain: 0.97, Probable: 0.5 });
    expect(suggestThresholds(score, posterior, { precision: 0.99, recall: 0.9 }, { Certain: 0.95, Probable: 0.65 })).toMatchObject({ Certain: 0.95, Probable: 0.65 });
  });

  it('gives a band that no candidate or random pair fell in no evidence, keeping each distribution summing to 1', () => {
    // One field: Strong never seen; Partial seen among random pairs only.
    const m = Float64Array.from([0.9, 1e-4, 1e-4, 0.0998]);
    const u = Float64Array.from([0.01, 3e-6, 0.2, 0.789997]);
    const { m: outM, u: outU } = neutralUnseenBands(m, u, Float64Array.from([500, 0, 0, 100]), Float64Array.from([3000, 0, 60000, 237000]));
    expect(outM[1]).toBe(3e-6);
    expect(outU[1]).toBe(3e-6);
    expect(outM[2]).toBeCloseTo(1e-4, 6);
    expect(outM.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(outU.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(Math.log((outM[0] ?? 0) / (outU[0] ?? 1))).toBeCloseTo(Math.log(0.9 / 0.01), 3);
  });

  it('turns the candidates\' expected true pairs into a random-pair prior, within the model bounds', () => {
    expect(priorFromCandidates(5000, 10_000)).toBeCloseTo(5000 / 49_995_000, 15);
    expect(priorFromCandidates(0, 10_000)).toBe(1e-6);
    expect(priorFromCandidates(1, 2)).toBe(1 - 1e-6);
  });
});
