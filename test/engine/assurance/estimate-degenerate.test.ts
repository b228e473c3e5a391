import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { createTenant } from '../../../engine/operations/sandbox.ts';
import { ingestStream } from '../../../engine/operations/ingest.ts';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import { defaultModel } from '../../../engine/scoring/default-model.ts';
import { registryPrior } from '../../../engine/scoring/fellegi-sunter.ts';
import { EXTRACT_SOURCE, generateExtract } from '../../../engine/synthetic/extract.ts';
import type { CallContext } from '../../../engine/contract/operations.ts';
import type { FellegiSunterModel, MatchingProfile } from '../../../engine/contract/profile.ts';

/** A tenant holding a names-and-birth-dates extract of 3,000 records under the given profile. */
async function extractTenant(
  engine: LocalEngine,
  tenantId: string,
  duplicateShare: number,
  profile: MatchingProfile,
): Promise<CallContext> {
  const ctx = { tenantId, actor: 'test' };
  createTenant(engine.env, ctx, profile);
  const extract = generateExtract({
    records: 3_000,
    duplicateShare,
    seed: 5,
    fields: 'names-dates',
    errors: 'typical',
  });
  await ingestStream(engine.env, ctx, EXTRACT_SOURCE, extract.records.map((r) => JSON.stringify(r.patient)).join('\n'));
  return ctx;
}

/** A model whose m equals its u on every field: EM started there has nothing to tell matches from non-matches. */
function flatModel(comparatorVersion: string): FellegiSunterModel {
  const model = defaultModel(comparatorVersion);
  const fields: FellegiSunterModel['fields'] = {};
  for (const [field, p] of Object.entries(model.fields))
    fields[field as keyof typeof fields] = { m: { ...p.u }, u: { ...p.u } };
  return { ...model, modelVersion: 'flat', fields };
}

describe('matching/estimate when the fit is made to fail', () => {
  it('a start with m equal to u: the report says the fit failed, claims no convergence and keeps the profile thresholds', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'flat.db') });
    const base = defaultProfile([{ SourceSystem: EXTRACT_SOURCE }]);
    const profile: MatchingProfile = {
      ...base,
      MatchingRules: { ...base.MatchingRules, FellegiSunter: flatModel(base.Comparators.Version) },
    };
    const ctx = await extractTenant(engine, 'flat', 0.1, profile);
    const { report } = await engine.call('matching/estimate', { modelVersion: 'em-flat', randomPairs: 50_000 }, ctx);
    const fit = report.fit;
    expect(fit).toBeDefined();
    if (fit === undefined) return;
    // Every start begins where EM cannot move m away from u (or its perturbations of it); none passes the checks.
    expect(fit.attempts.length).toBeGreaterThanOrEqual(3);
    expect(fit.status).toBe('fallback');
    expect(fit.attempts.every((a) => !a.passed)).toBe(true);
    expect(fit.fallback).toMatch(/default model's m/);
    expect(report.convergence.converged).toBe(false);
    // m left equal to u cannot rank a name's bands, nor expect the pairs exact agreement on name and date proves.
    expect(fit.checks.filter((c) => !c.passed).map((c) => c.check)).toEqual(
      expect.arrayContaining(['band-order', 'anchor-lower']),
    );
    expect(report.suggestedThresholds).toEqual(profile.MatchingRules.Thresholds);
    expect(report.suggestion).toMatch(/^No thresholds are suggested: the fit did not pass its checks/);
    // Nor any figure: a refused fit's mixture is no estimate of precision or recall (it gave 0.0000 at every
    // threshold on a names-and-birth-dates extract), and no review band.
    expect(report.thresholds).toEqual([]);
    expect(report.suggestedThresholdsAt).toEqual([]);
    expect(report.reviewBand).toBeUndefined();
    expect(report.suggestion).toMatch(/no precision or recall is estimated/);
    // The fallback model is the default model's m: exact names and dates count for a match, as for a new tenant.
    const { model } = await engine.call('matching/estimate', { modelVersion: 'em-flat-2', randomPairs: 50_000 }, ctx);
    for (const field of ['familyName', 'givenName', 'birthDate'] as const) {
      const p = model.fields[field];
      expect(p === undefined ? 0 : Math.log(p.m.Exact / p.u.Exact)).toBeGreaterThan(2);
    }
  }, 120_000);

  it('an extract without duplicates: nothing to fit, and nothing unsafe suggested', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'none.db') });
    const profile = defaultProfile([{ SourceSystem: EXTRACT_SOURCE }]);
    const ctx = await extractTenant(engine, 'none', 0, profile);
    const { model, report } = await engine.call(
      'matching/estimate',
      { modelVersion: 'em-none', randomPairs: 50_000 },
      ctx,
    );
    // Without duplicates the candidates are relatives and strangers: EM finds no band order among them, says so,
    // and the fallback keeps the profile's prior (about 1e-4 of all pairs) rather than a fitted λ.
    expect(report.fit?.status).toBe('fallback');
    expect(report.convergence.converged).toBe(false);
    expect(report.fit?.anchor.exactPairs).toBe(0);
    expect(report.priorMatchProbability).toBeCloseTo(
      profile.MatchingRules.FellegiSunter?.priorMatchProbability ?? 1e-4,
      5,
    );
    expect(report.suggestedThresholds).toEqual(profile.MatchingRules.Thresholds);
    expect(report.thresholds).toEqual([]);
    // Never thresholds below the profile's: a failed or empty fit cannot argue for linking more.
    expect(report.suggestedThresholds.Certain).toBeGreaterThanOrEqual(profile.MatchingRules.Thresholds.Certain);
    // Applied, the fallback scores as the profile's model in a registry of any size. Until 2026-11-30 it re-stated
    // the prior at these 3,000 records, so the prior was lowered past 3,000 where the profile's is lowered only past
    // the 20,000 it was set for: a fresh registry of 50,000 names-and-dates records ingested under such a fallback
    // linked 0.021 of F1 less than under the default.
    const profileModel = profile.MatchingRules.FellegiSunter ?? defaultModel(profile.Comparators.Version);
    for (const records of [1_000, 3_000, 20_000, 50_000, 1_000_000])
      expect(registryPrior(model.priorMatchProbability, model.priorRecords, records)).toBeCloseTo(
        registryPrior(profileModel.priorMatchProbability, profileModel.priorRecords, records),
        12,
      );
  }, 120_000);
});
