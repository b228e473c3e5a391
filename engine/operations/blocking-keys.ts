/**
 * HMAC blocking key versions of a tenant in the configuration file (never in the database, never shown):
 * list the versions with their role, add a version with a fresh random secret, remove one the active
 * profile no longer names. These are the key steps of the staged blocking change (docs/maintenance.md).
 * Not part of the contract: a key change belongs to whoever administers the machine holding the file.
 *
 * Add and remove change the file and write their audit row together or not at all, under the configuration
 * lock; the checks that decide them (the version exists or not, the active profile names it or not) run
 * under that lock and inside the registry transaction, so two processes never both succeed on one version.
 */
import type { CallContext } from '../contract/operations.ts';
import { inCallTenant } from '../store/tenant-scope.ts';
import { EngineError, validationError } from '../contract/errors.ts';
import { KEY_VERSION_PATTERN, keyVersionsOf, newSecret, withTenantKeys } from '../config/settings.ts';
import { activeProfile } from '../store/profiles.ts';
import { requireTenant } from '../store/tenants.ts';
import { writeAudit } from '../store/audit.ts';
import type { BlockingConfig } from '../contract/profile.ts';
import type { EngineEnv } from '../env.ts';

export type KeyRole = 'active' | 'inactive' | 'not used by the active profile';

function roleOf(blocking: BlockingConfig, version: string): KeyRole {
  if (version === blocking.ActiveKeyVersion) return 'active';
  return version === blocking.InactiveKeyVersion ? 'inactive' : 'not used by the active profile';
}

export const listBlockingKeys = inCallTenant(function listBlockingKeys(
  env: EngineEnv,
  ctx: CallContext,
): { version: string; role: KeyRole }[] {
  requireTenant(env.store, ctx.tenantId);
  const { Blocking } = activeProfile(env.store, ctx.tenantId).profile;
  return keyVersionsOf(env.settings(), ctx.tenantId).map((version) => ({ version, role: roleOf(Blocking, version) }));
});

function checkVersion(version: string): void {
  if (!KEY_VERSION_PATTERN.test(version))
    throw validationError('a key version is 1-32 letters, digits, dot, dash or underscore');
}

export const addBlockingKey = inCallTenant(function addBlockingKey(
  env: EngineEnv,
  ctx: CallContext,
  version: string,
): void {
  checkVersion(version);
  requireTenant(env.store, ctx.tenantId);
  env.changeSettings((settings) => {
    const keys = new Map(settings.BlockingKeys.get(ctx.tenantId));
    if (keys.has(version))
      throw new EngineError(
        'conflict',
        `blocking key version "${version}" already exists for tenant "${ctx.tenantId}"`,
      );
    keys.set(version, newSecret());
    return {
      next: withTenantKeys(settings, ctx.tenantId, keys),
      commit: (changeId) => {
        requireTenant(env.store, ctx.tenantId);
        writeAudit(env.store, ctx.tenantId, {
          actor: ctx.actor,
          action: 'blocking-key.add',
          subject: `blocking-key/${version}`,
          detail: { keyVersion: version, changeId },
        });
      },
    };
  });
});

export const removeBlockingKey = inCallTenant(function removeBlockingKey(
  env: EngineEnv,
  ctx: CallContext,
  version: string,
): void {
  checkVersion(version);
  requireTenant(env.store, ctx.tenantId);
  env.changeSettings((settings) => {
    const keys = new Map(settings.BlockingKeys.get(ctx.tenantId));
    if (!keys.has(version))
      throw new EngineError(
        'not_found',
        `blocking key version "${version}" does not exist for tenant "${ctx.tenantId}"`,
      );
    keys.delete(version);
    return {
      next: withTenantKeys(settings, ctx.tenantId, keys),
      commit: (changeId) => {
        const { Blocking } = activeProfile(env.store, ctx.tenantId).profile;
        const role = roleOf(Blocking, version);
        if (role !== 'not used by the active profile') {
          throw new EngineError(
            'conflict',
            `blocking key version "${version}" is the ${role} key of the active profile; apply a Blocking section without it first`,
          );
        }
        writeAudit(env.store, ctx.tenantId, {
          actor: ctx.actor,
          action: 'blocking-key.remove',
          subject: `blocking-key/${version}`,
          detail: { keyVersion: version, changeId },
        });
      },
    };
  });
});
