import { configuredSources } from '../fhir-source/resolve.ts';
import { blockingSecret } from '../config/settings.ts';
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { activeProfile } from '../store/profiles.ts';
import { requireTenant } from '../store/tenants.ts';
import { WEIGHTED_SIMILARITY_VERSION } from '../scoring/weighted-similarity.ts';
import type { EngineEnv } from '../env.ts';

/**
 * The active profile's versions and thresholds: what the Match assurance page shows before a run (spec
 * "Portal label input"). The score method follows the scorer's rule (engine/scoring/scorer.ts): the
 * Fellegi-Sunter model's version when the profile holds one, else the weighted-similarity version.
 */
export function profileSummary(
  env: EngineEnv,
  _input: OperationInput<'profile/summary'>,
  ctx: CallContext,
): OperationOutput<'profile/summary'> {
  requireTenant(env.store, ctx.tenantId);
  const stored = activeProfile(env.store, ctx.tenantId);
  const { Blocking, Comparators, MatchingRules } = stored.profile;
  const model = MatchingRules.FellegiSunter;
  const settings = env.settings();
  const keyVersions = [
    Blocking.ActiveKeyVersion,
    ...(Blocking.InactiveKeyVersion === undefined ? [] : [Blocking.InactiveKeyVersion]),
  ];
  return {
    matchingProfileVersion: stored.version,
    comparatorVersion: Comparators.Version,
    scoreMethod: model === null ? 'weighted-similarity' : 'fellegi-sunter',
    scoreMethodVersion: model === null ? WEIGHTED_SIMILARITY_VERSION : model.modelVersion,
    createdAt: stored.createdAt,
    reason: stored.reason,
    thresholds: { certain: MatchingRules.Thresholds.Certain, probable: MatchingRules.Thresholds.Probable },
    importSources: configuredSources(settings, ctx.tenantId)
      .map((c) => c.source.SourceSystem)
      .filter((name) => stored.profile.SourceTrust.some((s) => s.SourceSystem === name)),
    missingKeyVersions: keyVersions.filter((version) => blockingSecret(settings, ctx.tenantId, version) === undefined),
  };
}
