/**
 * `token --scope "mpi.admin mpi.operations" [--ttl 1h] [--client-id ID]`: prints a token that
 * `serve --dev-auth` accepts, for --tenant. It reads (and, the first time, writes) the development signing
 * key in the configuration file beside --db (the sandbox `serve` runs over).
 */
import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { json } from '../format.ts';
import { SCOPES } from '../../net/api-routes.ts';
import { ApiSettingsSchema } from '../../../engine/index.ts';
import { devSigningKey, devToken, MAX_DEV_TOKEN_SECONDS } from '../../api/auth/dev-auth.ts';

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

function ttlSeconds(text: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(text.trim());
  const seconds =
    match === null ? Number.NaN : Number(match[1]) * (UNIT_SECONDS[match[2] === '' ? 's' : (match[2] ?? 's')] ?? 1);
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > MAX_DEV_TOKEN_SECONDS)
    throw usage('--ttl is a duration from 1s to 7d, e.g. 90s, 30m, 1h, 7d');
  return seconds;
}

export async function tokenCommand(cli: CliContext): Promise<number> {
  if (cli.positionals.length > 0)
    throw usage('token takes no arguments: mpi-console token --scope "mpi.admin mpi.operations" [--ttl 1h]');
  const scopes = cli
    .required('scope')
    .split(/\s+/)
    .filter((s) => s !== '');
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (scopes.length === 0 || unknown.length > 0)
    throw usage(
      `--scope lists scopes among ${SCOPES.join(', ')}${unknown.length > 0 ? ` (unknown: ${unknown.join(', ')})` : ''}`,
    );
  const ttl = ttlSeconds(cli.string('ttl') ?? '1h');
  const file = cli.engine.env;
  const key = await devSigningKey(file);
  const tenantClaim = (file.settings().Api ?? ApiSettingsSchema.parse({})).TenantClaim;
  const token = await devToken(key, {
    tenantId: cli.call.tenantId,
    scopes,
    ttlSeconds: ttl,
    clientId: cli.string('client-id') ?? 'mpi-console-dev',
    tenantClaim,
  });
  cli.write(
    cli.json
      ? json({ access_token: token, token_type: 'Bearer', expires_in: ttl, scope: scopes.join(' ') })
      : `${token}\n`,
  );
  return 0;
}
