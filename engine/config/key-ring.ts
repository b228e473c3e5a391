import type { BlockingConfig } from '../contract/profile.ts';
import { validationError } from '../contract/errors.ts';
import { blockingSecret, type Settings } from './settings.ts';
import type { BlockingKey, KeyRing } from '../blocking/tags.ts';

/** The profile's key versions resolved against the secrets in the configuration file. */
export function keyRingFor(blocking: BlockingConfig, settings: Settings, tenantId: string): KeyRing {
  const versions = [
    blocking.ActiveKeyVersion,
    ...(blocking.InactiveKeyVersion === undefined ? [] : [blocking.InactiveKeyVersion]),
  ];
  const keys: BlockingKey[] = versions.map((version) => {
    const secret = blockingSecret(settings, tenantId, version);
    if (secret === undefined) {
      throw validationError(
        `blocking key version "${version}" of tenant "${tenantId}" is not in the configuration file (BlockingKeys.${tenantId}.${version}): open the registry with the configuration file it was made with (a sandbox's is its file name with .config.json, in its folder; copy it along when the sandbox moves)`,
      );
    }
    return { version, secret };
  });
  return { keys };
}
