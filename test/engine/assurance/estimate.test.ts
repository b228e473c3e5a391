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
    const { model, report } = await engine.call(
      'matching/estimate',
      { modelVersion: 'em-1', randomPairs: 50_000 },
      ctx,
    );

    expect(FellegiSunterModelSchema.parse(model)).toEqual(model);
    expect(model).toMatchObject({
      kind: 'fellegi-sunter-model',
      modelVersion: 'em-1',
      bands: ['Exact', 'Strong', 'Partial', 'Different'],
    });
    expect(model.trainedAgainst).toEqual({
      matchingProfileVersion: before.matchingProfileVersion,
      comparatorVersion: before.profile.Comparators.Version,
      scoreMethodVersion: 'default-fs-2',
    });
    expect(report.activated).toBe(false);
    expect((await engine.call('profile/get', {}, ctx)).matchingProfileVersion).toBe(before.matchingProfileVersion);

    // EM converged, and found a match share among candidates strictly inside (0, 1).
    expect(report.convergence.converged).toBe(true);
    expect(report.convergence.iterations).toBeGreaterThan(1);
    expect(Math.abs(report.convergence.finalObjectiveChange)).toBeLessThan(1e-3);
    expect(report.candidateMatchShare).toBeGreaterThan(0.05);
    expect(report.candidateMatchShare).toBeLessThan(0.95);
    expect(
      report.candidates.modelled +
        report.candidates.decidedByTrustedIdentifier +
        report.candidates.decidedByHardConflict,
    ).toBe(report.candidates.compared);
    expect(report.randomPairs.compared).toBe(50_000);
    // About prior × compared random pairs are one person, and u leaves them out: a few here (500 people).
    expect(report.randomPairs.matchesWeightedOut).toBeGreaterThan(0);
    expect(report.randomPairs.matchesWeightedOut).toBeLessThan(10 * report.priorMatchProbability * 50_000 + 5);
    // The prior is a random-pair prior: expected true pairs over all record pairs.
    expect(report.priorMatchProbability).toBeCloseTo(
      report.expectedMatches / ((report.records * (report.records - 1)) / 2),
      12,
    );

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
    expect(report.thresholds.map((t) => t.threshold)).toEqual(
      [...report.thresholds.map((t) => t.threshold)].sort((a, b) => a - b),
    );
    expect(report.suggestedThresholds.Probable).toBeLessThanOrEqual(report.suggestedThresholds.Certain);

    const audit = listAudit(engine.env.store, ctx.tenantId).filter((a) => a.action === 'matching.estimate');
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toMatch(/"(familyName|givenName)"/);

    // Applied as a user would: the new profile carries the model unchanged.
    const applied = await engine.call('profile/apply', { document: model, reason: 'estimate' }, ctx);
    expect(applied.matchingProfileVersion).toBe(before.matchingProfileVersion + 1);
    expect((await engine.call('profile/get', {}, ctx)).profile.MatchingRules.FellegiSunter).toEqual(model);
    // And with the suggested thresholds, as one MatchingRules document.
    await engine.call(
      'profile/apply',
      {
        document: { MatchingRules: { FellegiSunter: model, Thresholds: report.suggestedThresholds } },
        reason: 'estimate with thresholds',
      },
      ctx,
    );
    expect((await engine.call('profile/get', {}, ctx)).profile.MatchingRules.Thresholds).toEqual(
      report.suggestedThresholds,
    );
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
  });

  it("estimates a registry larger than maxRecords on a seeded sample of its records, scaled back to the registry's pairs", async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'estimate-sample.db') });
    const ctx = { tenantId: 'syn', actor: 'test' };
    await engine.call('sandbox/create', { syntheticPeople: 1_500, seed: 6 }, ctx);
    const input = { modelVersion: 'em-sample', randomPairs: 50_000 };
    const fullRun = await engine.call('matching/estimate', input, ctx);
    const full = fullRun.report;
    const records = full.records;
    expect(full.sampledRecords).toBeUndefined();
    const half = Math.floor(records / 2);
    const sampled = await engine.call('matching/estimate', { ...input, maxRecords: half }, ctx);
    const again = await engine.call('matching/estimate', { ...input, maxRecords: half }, ctx);
    const report = sampled.report;

    // The report names the registry and the sample; the same seed draws the same sample and gives the same model.
    expect(report.records).toBe(records);
    expect(report.sampledRecords).toBe(half);
    expect(again.model).toEqual(sampled.model);
    // Counts grouped as every other figure of the report is ("of the 1,650 records").
    expect(records).toBeGreaterThanOrEqual(1_000);
    expect(report.prior).toContain(
      `a seeded sample of ${half.toLocaleString('en-US')} of the ${records.toLocaleString('en-US')} records`,
    );
    // Only pairs of sampled records are candidates: about a quarter of the registry's.
    expect(report.candidates.enumerated).toBeGreaterThan(full.candidates.enumerated * 0.15);
    expect(report.candidates.enumerated).toBeLessThan(full.candidates.enumerated * 0.35);
    // Scaled back by the share of record pairs the sample holds, the true pairs and the prior are the registry's
    // (unscaled they would be a quarter of them), and so is the review load per 1,000 records.
    expect(report.fit?.status).toBe('fitted');
    expect(report.expectedMatches / full.expectedMatches).toBeGreaterThan(0.8);
    expect(report.expectedMatches / full.expectedMatches).toBeLessThan(1.25);
    expect(report.priorMatchProbability / full.priorMatchProbability).toBeGreaterThan(0.8);
    expect(report.priorMatchProbability / full.priorMatchProbability).toBeLessThan(1.25);
    expect(report.priorMatchProbability).toBeCloseTo(report.expectedMatches / ((records * (records - 1)) / 2), 12);
    const load = (r: typeof report): number => r.reviewBand?.pairsPerThousandRecords ?? Number.NaN;
    expect(Math.abs(load(report) - load(full))).toBeLessThan(Math.max(5, 0.5 * load(full)));
    // The model's weights are those of the full estimate, within sampling error.
    for (const field of ['familyName', 'givenName', 'birthDate'] as const)
      expect(
        Math.abs((sampled.model.fields[field]?.m.Exact ?? 0) - (fullRun.model.fields[field]?.m.Exact ?? 0)),
      ).toBeLessThan(0.1);
    engine.close();
  }, 120_000);

  it('refuses a tenant with too few records, naming why, and writes nothing', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'estimate.db') });
    const ctx = { tenantId: 'empty', actor: 'test' };
    await engine.call('sandbox/create', { syntheticPeople: 0 }, ctx);
    const error = await engine.call('matching/estimate', { modelVersion: 'x' }, ctx).catch((e: unknown) => e);
    expect(isEngineError(error) && error.kind).toBe('validation');
    expect(isEngineError(error) && error.issues[0]?.message).toMatch(/0 records/);
    expect(listAudit(engine.env.store, ctx.tenantId).filter((a) => a.action === 'matching.estimate')).toHaveLength(0);
    const bad = await engine
      .call('matching/estimate', { modelVersion: 'x', randomPairs: 10 }, ctx)
      .catch((e: unknown) => e);
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

  it("narrows the review band from the profile's thresholds: Certain down to the precision target (never below 0.5), Probable up to the recall target", () => {
    // Precision at 0.98: 1.99/2 = 0.995; at 0.7: 2.89/3 = 0.963; at 0.6: 3.39/4 = 0.85. Recall (of 3.59) at 0.6: 0.944; at 0.7: 0.805.
    // Each cut is the simplest number down to the next lower score: Certain at the 0.98 pair is 0.9, which links the
    // same pairs (nothing scores between 0.7 and 0.98). Probable's cut at the 0.6 pair reaches down to the 0.3 pair,
    // so the profile's 0.5 already reviews the same pairs and stays.
    /** The model-estimated figures at a simple cut are those at the score it stands for. */
    const sameFigures = (cut: number, at: number, scores: Float64Array, posteriors: Float64Array): void => {
      expect(estimatedThresholdMetrics(cut, scores, posteriors)).toEqual({
        ...estimatedThresholdMetrics(at, scores, posteriors),
        threshold: cut,
      });
    };
    const profile = { Certain: 0.99, Probable: 0.5 };
    const suggested = suggestThresholds(score, posterior, { precision: 0.99, recall: 0.9 }, profile);
    expect(suggested).toMatchObject({ Certain: 0.9, Probable: 0.5 });
    expect(suggested.explanation).toMatch(/^Certain 0\.9: the lowest score/);
    sameFigures(0.9, 0.98, score, posterior);
    expect(
      suggestThresholds(score, posterior, { precision: 0.8, recall: 0.5 }, { Certain: 0.99, Probable: 0.5 }),
    ).toMatchObject({ Certain: 0.6, Probable: 0.6 });
    // Scores as a model gives them: the cuts at 0.98765 (precision 1.99/2) and 0.73421 (recall 2.89/3.49 = 0.828) read
    // 0.9 and 0.7, the shortest decimals down to the next lower scores (0.73421 and 0.61), with the same pairs.
    const raw = Float64Array.from([0.999, 0.98765, 0.73421, 0.61, 0.2]);
    const rawPosterior = Float64Array.from([1, 0.99, 0.9, 0.5, 0.1]);
    const simple = suggestThresholds(raw, rawPosterior, { precision: 0.99, recall: 0.8 }, profile);
    expect(simple).toMatchObject({ Certain: 0.9, Probable: 0.7 });
    expect(simple.explanation).toMatch(/^Certain 0\.9: .*; Probable 0\.7: the highest score/);
    sameFigures(0.9, 0.98765, raw, rawPosterior);
    sameFigures(0.7, 0.73421, raw, rawPosterior);
    // The profile's Certain is already lower than the precision target allows, and its Probable already
    // higher than the recall target needs: neither moves.
    const unsure = Float64Array.from([0.99, 0.99, 0.9, 0.5, 0.2, 0]);
    expect(
      suggestThresholds(score, unsure, { precision: 0.995, recall: 0.99 }, { Certain: 0.97, Probable: 0.5 }),
    ).toMatchObject({ Certain: 0.97, Probable: 0.5 });
    expect(
      suggestThresholds(score, posterior, { precision: 0.99, recall: 0.9 }, { Certain: 0.95, Probable: 0.65 }),
    ).toMatchObject({ Certain: 0.95, Probable: 0.65 });
  });

  it('raises Probable to keep the review band within the review budget, saying how many true pairs that leaves unreviewed', () => {
    // The profile band [0.5, 0.99) holds 0.98, 0.7 and 0.6: 3 pairs. 1,000 records at 2 per 1,000 allow 2.
    const budget = (
      perThousandRecords: number,
      pairsPerScoredPair = 1,
      rawScore = score,
      limited = new Uint8Array(rawScore.length),
    ) => ({ perThousandRecords, records: 1000, pairsPerScoredPair, rawScore, limited });
    const two = suggestThresholds(
      score,
      posterior,
      { precision: 0.9999, recall: 0.9999 },
      { Certain: 0.99, Probable: 0.5 },
      budget(2),
    );
    expect(two).toMatchObject({ Certain: 0.99, Probable: 0.7 });
    // Left below Probable: the 0.6 pair, posterior 0.5.
    expect(two.explanation).toMatch(
      /Probable raised to 0\.7 .*2\.0 candidate pairs per 1,000 records instead of 3\.0; the model expects about 1 true pairs/,
    );
    // A budget the band fits leaves Probable where the recall target put it, and says nothing of the budget.
    const roomy = suggestThresholds(
      score,
      posterior,
      { precision: 0.9999, recall: 0.9999 },
      { Certain: 0.99, Probable: 0.5 },
      budget(3),
    );
    expect(roomy).toMatchObject({ Certain: 0.99, Probable: 0.5 });
    expect(roomy.explanation).not.toMatch(/budget/);
    expect(two.reviewBand).toEqual({
      budgetPerThousandRecords: 2,
      pairsPerThousandRecords: 2,
      budgetRaisedProbable: true,
      expectedTruePairsLeftOut: 0.5,
    });
    expect(roomy.reviewBand).toEqual({
      budgetPerThousandRecords: 3,
      pairsPerThousandRecords: 3,
      budgetRaisedProbable: false,
      expectedTruePairsLeftOut: 0,
    });
    expect(
      suggestThresholds(score, posterior, { precision: 0.9999, recall: 0.9999 }, { Certain: 0.99, Probable: 0.5 })
        .reviewBand,
    ).toBeUndefined();
    // Scored pairs standing for 2 candidates each (a sample of half): the band of 3 is 6 pairs; 2 allowed keeps only
    // 0.98, and 0.9, the simplest number above 0.7, keeps the same.
    expect(
      suggestThresholds(
        score,
        posterior,
        { precision: 0.9999, recall: 0.9999 },
        { Certain: 0.99, Probable: 0.5 },
        budget(2, 2),
      ),
    ).toMatchObject({ Probable: 0.9 });
    // A budget of 0 closes the band: Probable goes to Certain.
    const none = suggestThresholds(
      score,
      posterior,
      { precision: 0.9999, recall: 0.9999 },
      { Certain: 0.99, Probable: 0.5 },
      budget(0),
    );
    expect(none).toMatchObject({ Certain: 0.99, Probable: 0.99 });
    expect(none.explanation).toMatch(
      /only the pairs the name-evidence and twin limits hold go to review \(0\.0 per 1,000 records\)/,
    );
    // A pair the twin or name-evidence limit holds is reviewed whenever its raw score reaches Probable, even above
    // Certain: with the 0.999 pair limited, it and the 0.98 pair fill a budget of 2 (Probable 0.9, as above).
    const limited = Uint8Array.from([1, 0, 0, 0, 0, 0]);
    const heldScore = Float64Array.from([0.5, 0.98, 0.7, 0.6, 0.3, 0.1]);
    const held = suggestThresholds(
      heldScore,
      posterior,
      { precision: 0.9999, recall: 0.9999 },
      { Certain: 0.99, Probable: 0.5 },
      budget(2, 1, score, limited),
    );
    expect(held).toMatchObject({ Certain: 0.99, Probable: 0.9 });
    expect(held.explanation).toMatch(/2\.0 candidate pairs per 1,000 records instead of 4\.0/);
    // Ties move together: two pairs at 0.7 with room for one put Probable above both.
    const tied = Float64Array.from([0.999, 0.8, 0.7, 0.7, 0.3]);
    expect(
      suggestThresholds(
        tied,
        Float64Array.from([1, 0.9, 0.6, 0.6, 0]),
        { precision: 0.9999, recall: 0.9999 },
        { Certain: 0.99, Probable: 0.5 },
        budget(2, 1, tied),
      ),
    ).toMatchObject({ Probable: 0.8 });
  });

  it('gives a band that no candidate or random pair fell in no evidence, keeping each distribution summing to 1', () => {
    // One field: Strong never seen; Partial seen among random pairs only.
    const m = Float64Array.from([0.9, 1e-4, 1e-4, 0.0998]);
    const u = Float64Array.from([0.01, 3e-6, 0.2, 0.789997]);
    const { m: outM, u: outU } = neutralUnseenBands(
      m,
      u,
      Float64Array.from([500, 0, 0, 100]),
      Float64Array.from([3000, 0, 60000, 237000]),
    );
    expect(outM[1]).toBe(3e-6);
    expect(outU[1]).toBe(3e-6);
    expect(outM[2]).toBeCloseTo(1e-4, 6);
    expect(outM.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(outU.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(Math.log((outM[0] ?? 0) / (outU[0] ?? 1))).toBeCloseTo(Math.log(0.9 / 0.01), 3);
  });

  it("turns the candidates' expected true pairs into a random-pair prior, within the model bounds", () => {
    expect(priorFromCandidates(5000, 10_000)).toBeCloseTo(5000 / 49_995_000, 15);
    expect(priorFromCandidates(0, 10_000)).toBe(1e-6);
    expect(priorFromCandidates(1, 2)).toBe(1 - 1e-6);
  });
});
