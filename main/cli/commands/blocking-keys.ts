/**
 * HMAC blocking keys of a tenant in the configuration file (never in the database, never printed): list the
 * versions, add a new version with a fresh random secret, remove a version the active profile no longer
 * uses. These are the key steps of the staged blocking change (docs/maintenance.md).
 */
import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { json, table } from '../format.ts';
import { EngineError } from '../../../engine/contract/errors.ts';
import { newSecret } from '../../../engine/config/settings.ts';
import { activeProfile } from '../../../engine/store/profiles.ts';
import { requireTenant } from '../../../engine/store/tenants.ts';
import { writeAudit } from '../../../engine/store/audit.ts';

const VERSION_PATTERN = /^[A-Za-z0-9._-]{1,32}$/;

export function blockingKey(cli: CliContext): Promise<number> {
  const [action, version, ...extra] = cli.positionals;
  const env = cli.engine.env;
  const { tenantId, actor } = cli.call;
  requireTenant(env.store, tenantId);
  const blocking = activeProfile(env.store, tenantId).profile.Blocking;
  const settings = env.settings();
  let keys: Record<string, string> = { ...(settings.BlockingKeys[tenantId] ?? {}) };
  const roleOf = (v: string): string => (v === blocking.ActiveKeyVersion ? 'active' : v === blocking.InactiveKeyVersion ? 'inactive' : 'not used by the active profile');
  if (action === 'list' && version === undefined) {
    const rows = Object.keys(keys).sort().map((v) => ({ version: v, role: roleOf(v) }));
    cli.write(cli.json ? json({ rows }) : table(['version', 'role'], rows.map((r) => [r.version, r.role])));
    return Promise.resolve(0);
  }
  if ((action !== 'add' && action !== 'remove') || version === undefined || extra.length > 0) {
    throw usage('blocking-key list | blocking-key add VERSION | blocking-key remove VERSION');
  }
  if (!VERSION_PATTERN.test(version)) throw usage('a key version is 1-32 letters, digits, dot, dash or underscore');
  if (action === 'add') {
    if (keys[version] !== undefined) throw new EngineError('conflict', `blocking key version "${version}" already exists for tenant "${tenantId}"`);
    keys[version] = newSecret();
  } else {
    if (keys[version] === undefined) throw new EngineError('not_found', `blocking key version "${version}" does not exist for tenant "${tenantId}"`);
    if (version === blocking.ActiveKeyVersion || version === blocking.InactiveKeyVersion) {
      throw new EngineError(
        'conflict',
        `blocking key version "${version}" is the ${roleOf(version)} key of the active profile; apply a Blocking section without it first`,
      );
    }
    keys = Object.fromEntries(Object.entries(keys).filter(([v]) => v !== version));
  }
  env.saveSettings({ ...settings, BlockingKeys: { ...settings.BlockingKeys, [tenantId]: keys } });
  env.store.write(() => {
    writeAudit(env.store, tenantId, { actor, action: `blocking-key.${action}`, subject: `blocking-key/${version}`, detail: { keyVersion: version } });
  });
  if (cli.json) cli.write(json({ version, action }));
  else cli.write(action === 'add' ? `Blocking key version "${version}" added (secret written to ${env.settingsPath}).\n` : `Blocking key version "${version}" removed.\n`);
  return Promise.resolve(0);
}
