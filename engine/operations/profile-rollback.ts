/**
 * Governed rollback (spec Endpoints rule 6, Versioning 2): the previous profile's content becomes a NEW
 * MatchingProfileVersion, so history is never rewritten and review case identifiers (which depend on the
 * version) never repeat. "Previous" is the version just below the active one, i.e. the one that was
 * active before it: a second rollback therefore undoes the first.
 */
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { conflict } from '../contract/errors.ts';
import { activeProfile, insertActiveProfile, profileVersion } from '../store/profiles.ts';
import { requireTenant } from '../store/tenants.ts';
import { writeAudit } from '../store/audit.ts';
import type { EngineEnv } from '../env.ts';

export function rollbackProfile(env: EngineEnv, input: OperationInput<'profile/rollback'>, ctx: CallContext): OperationOutput<'profile/rollback'> {
  const { store } = env;
  requireTenant(store, ctx.tenantId);
  return store.write(() => {
    const current = activeProfile(store, ctx.tenantId);
    if (current.version <= 1) throw conflict('the active matching profile is the first version; there is no previous version to restore');
    const previous = profileVersion(store, ctx.tenantId, current.version - 1);
    const at = new Date().toISOString();
    const reason = input.reason ?? 'rollback';
    const version = insertActiveProfile(store, ctx.tenantId, previous.profile, reason, at);
    writeAudit(
      store,
      ctx.tenantId,
      {
        actor: ctx.actor,
        action: 'profile.rollback',
        subject: `matching-profile/${String(version)}`,
        detail: {
          restoredFrom: previous.version,
          previousVersion: current.version,
          model: previous.profile.MatchingRules.FellegiSunter?.modelVersion ?? null,
        },
      },
      at,
    );
    return { matchingProfileVersion: version, restoredFrom: previous.version, previousVersion: current.version };
  });
}
