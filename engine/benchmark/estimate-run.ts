/**
 * The unsupervised-estimate run shared by the quality test and `npm run quality`: load a data set (FEBRL, or
 * the synthetic population) with the default profile, estimate a model from its records (matching/estimate,
 * no labels), apply it with profile/apply as a user would, then re-match. Re-matching is a fresh ingestion:
 * reconciliation never links two existing identities (it opens review cases, engine/jobs/reconcile.ts), so
 * every record is ingested again into a fresh tenant whose profile is the applied one, and population-level
 * pairwise quality is measured against the ground truth. Each threshold choice is one re-match: 'profile'
 * applies the model alone (the profile keeps its thresholds), 'suggested' applies the model with the
 * estimate's suggested thresholds (one MatchingRules document).
 */
import type { LocalEngine } from '../local-engine.ts';
import type { CallContext } from '../contract/operations.ts';
import type { EstimateReport } from '../contract/estimate.ts';
import type { FellegiSunterModel, MatchingProfile } from '../contract/profile.ts';
import { createTenant, sandboxProfile } from '../operations/sandbox.ts';
import { ingestStream } from '../operations/ingest.ts';
import { SYNTHETIC_SOURCES } from '../synthetic/sources.ts';
import type { ExtractOptions } from '../synthetic/extract.ts';
import { defaultProfile } from '../profile/default-profile.ts';
import { insertTruth } from '../store/assurance.ts';
import { loadFebrl, febrlProfile, type FebrlSource } from './febrl-run.ts';
import { populationQuality, refKey, type PopulationQuality } from './population-quality.ts';

/** 'unchanged': re-matched under the profile as loaded (no model applied), the same path's baseline. */
export type ThresholdChoice = 'unchanged' | 'profile' | 'suggested';

export interface Rematched {
  /** Pairwise quality of the fresh tenant ingested under the applied profile. */
  readonly population: PopulationQuality;
  readonly rejectedRecords: number;
}

export interface EstimateRun {
  readonly model: FellegiSunterModel;
  readonly report: EstimateReport;
  readonly rematched: Partial<Record<ThresholdChoice, Rematched>>;
}

/** Loads the data set into a new tenant with the given profile; answers the ground truth and rejected records. */
export type Loader = (
  ctx: CallContext,
  profile: MatchingProfile,
) => Promise<{ truth: Map<string, string>; rejected: number }>;

export function febrlLoader(
  engine: LocalEngine,
  sources: readonly FebrlSource[],
): { profile: MatchingProfile; load: Loader } {
  return {
    profile: febrlProfile(sources),
    load: async (ctx, profile) => {
      const { truth, reports } = await loadFebrl(engine, ctx, sources, profile);
      return { truth, rejected: reports.reduce((sum, r) => sum + r.rejected.length, 0) };
    },
  };
}

export async function syntheticLoader(
  engine: LocalEngine,
  people: number,
  seed: number,
): Promise<{ profile: MatchingProfile; load: Loader }> {
  const { generatePopulation } = await import('../synthetic/generate.ts');
  const population = generatePopulation({ people, seed });
  return {
    profile: sandboxProfile(),
    load: async (ctx, profile) => {
      createTenant(engine.env, ctx, profile);
      engine.env.store.write(() => {
        insertTruth(
          engine.env.store,
          ctx.tenantId,
          population.records.map((r) => ({ sourceSystem: r.sourceSystem, localId: r.localId, personId: r.personId })),
        );
      });
      let rejected = 0;
      for (const source of SYNTHETIC_SOURCES) {
        const lines = population.records
          .filter((r) => r.sourceSystem === source.sourceSystem)
          .map((r) => JSON.stringify(r.patient));
        rejected += (await ingestStream(engine.env, ctx, source.sourceSystem, lines.join('\n'))).rejected.length;
      }
      return {
        truth: new Map(population.records.map((r) => [refKey(r.sourceSystem, r.localId), r.personId] as const)),
        rejected,
      };
    },
  };
}

/** A generated extract (synthetic/extract.ts) in one source, under the default profile. */
export async function extractLoader(
  engine: LocalEngine,
  options: ExtractOptions,
): Promise<{ profile: MatchingProfile; load: Loader }> {
  const { generateExtract, EXTRACT_IDENTIFIER_SYSTEM, EXTRACT_SOURCE } = await import('../synthetic/extract.ts');
  const extract = generateExtract(options);
  const profile: MatchingProfile = {
    ...defaultProfile([{ SourceSystem: EXTRACT_SOURCE }]),
    PersonalIdentifierSystems: [EXTRACT_IDENTIFIER_SYSTEM],
  };
  return {
    profile,
    load: async (ctx, applied) => {
      createTenant(engine.env, ctx, applied);
      engine.env.store.write(() => {
        insertTruth(
          engine.env.store,
          ctx.tenantId,
          extract.records.map((r) => ({ sourceSystem: EXTRACT_SOURCE, localId: r.localId, personId: r.personId })),
        );
      });
      const report = await ingestStream(
        engine.env,
        ctx,
        EXTRACT_SOURCE,
        extract.records.map((r) => JSON.stringify(r.patient)).join('\n'),
      );
      return {
        truth: new Map(extract.records.map((r) => [refKey(EXTRACT_SOURCE, r.localId), r.personId] as const)),
        rejected: report.rejected.length,
      };
    },
  };
}

/**
 * `loadedIn`, when given, is a tenant that already holds the data set loaded under `data.profile` (a caller that
 * measured the default there): the estimate runs there, and the model is applied there, instead of loading the
 * same records into a tenant of its own.
 */
export async function estimateRun(
  engine: LocalEngine,
  tenantPrefix: string,
  data: { profile: MatchingProfile; load: Loader },
  choices: readonly ThresholdChoice[] = ['profile'],
  loadedIn?: CallContext,
): Promise<EstimateRun> {
  const ctx = loadedIn ?? { tenantId: `${tenantPrefix}-estimate`, actor: 'estimate-run' };
  if (loadedIn === undefined) await data.load(ctx, data.profile);
  const { model, report } = await engine.call('matching/estimate', { modelVersion: `${tenantPrefix}-em-1` }, ctx);
  const rematched: Partial<Record<ThresholdChoice, Rematched>> = {};
  for (const choice of choices) {
    let applied = data.profile;
    if (choice !== 'unchanged') {
      const document =
        choice === 'profile'
          ? model
          : { MatchingRules: { FellegiSunter: model, Thresholds: report.suggestedThresholds } };
      await engine.call('profile/apply', { document, reason: `unsupervised estimate, ${choice} thresholds` }, ctx);
      applied = (await engine.call('profile/get', {}, ctx)).profile;
    }
    const fresh = { tenantId: `${tenantPrefix}-estimated-${choice}`, actor: 'estimate-run' };
    const { truth, rejected } = await data.load(fresh, applied);
    rematched[choice] = { population: await populationQuality(engine, fresh, truth), rejectedRecords: rejected };
  }
  return { model, report, rematched };
}
