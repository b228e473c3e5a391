/**
 * Governed rollback (spec Endpoints rule 6, Versioning 2): the previous profile's content becomes a NEW
 * MatchingProfileVersion, so history is never rewritten and review case identifiers (which depend on the
 * version) never repeat. "Previous" is the version just below the active one, i.e. the one that was
 * active before it: a second rollback therefore undoes the first. The restored content must still have
 * the secrets of its key versions and overlap the stored blocking index, as for any applied profile.
 */
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { conflict, EngineError } from '../contract/errors.ts';
import { profileContextIssues } from './profile-checks.ts';
import { activeProfile, insertActiveProfile, profileVersion } from '../store/profiles.ts';
import { requireTenant } from '../store/tenants.ts';
import { writeAudit } from '../store/audit.ts';
import type { EngineEnv } from '../env.ts';

export function rollbackProfile(
  env: EngineEnv,
  input: OperationInput<'profile/rollback'>,
  ctx: CallContext,
): OperationOutput<'profile/rollback'> {
  const { store } = env;
  requireTenant(store, ctx.tenantId);
  return env.withSettingsLock(() =>
    store.write(() => {
      const current = activeProfile(store, ctx.tenantId);
      if (current.version <= 1)
        throw conflict('the active matching profile is the first version; there is no previous version to restore');
      const previous = profileVersion(store, ctx.tenantId, current.version - 1);
      // The content comes back as it was, but the keys and the index may have moved on since.
      const issues = profileContextIssues(store, ctx.tenantId, env.settings(), current, previous.profile);
      if (issues.length > 0) {
        throw new EngineError(
          'conflict',
          `profile version ${String(previous.version)} cannot be restored: ${issues.map((i) => i.message).join('; ')}`,
          issues,
        );
      }
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
    }),
  );
}
