/**
 * HMAC blocking keys of a tenant in the configuration file (never in the database, never printed): list the
 * versions, add a new version with a fresh random secret, remove a version the active profile no longer
 * uses. These are the key steps of the staged blocking change (docs/maintenance.md).
 */
import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { json, table } from '../format.ts';
import { addBlockingKey, listBlockingKeys, removeBlockingKey } from '../../../engine/index.ts';

const VERSION_PATTERN = /^[A-Za-z0-9._-]{1,32}$/;

export function blockingKey(cli: CliContext): Promise<number> {
  const [action, version, ...extra] = cli.positionals;
  if (action === 'list' && version === undefined) {
    const rows = listBlockingKeys(cli.engine.env, cli.call);
    cli.write(
      cli.json
        ? json({ rows })
        : table(
            ['version', 'role'],
            rows.map((r) => [r.version, r.role]),
          ),
    );
    return Promise.resolve(0);
  }
  if ((action !== 'add' && action !== 'remove') || version === undefined || extra.length > 0) {
    throw usage('blocking-key list | blocking-key add VERSION | blocking-key remove VERSION');
  }
  if (!VERSION_PATTERN.test(version)) throw usage('a key version is 1-32 letters, digits, dot, dash or underscore');
  const { env } = cli.engine;
  if (action === 'add') addBlockingKey(env, cli.call, version);
  else removeBlockingKey(env, cli.call, version);
  if (cli.json) cli.write(json({ version, action }));
  else
    cli.write(
      action === 'add'
        ? `Blocking key version "${version}" added (secret written to ${env.settingsPath}).\n`
        : `Blocking key version "${version}" removed.\n`,
    );
  return Promise.resolve(0);
}
