/**
 * The configuration fingerprint of a job: SHA-256 over what the job's results depend on and what the
 * specification names (matching rules, source trust, blocking rules, key versions) plus, per configured key
 * version, an HMAC of a fixed label under that key's secret. A changed or rotated secret changes the
 * fingerprint, yet neither the fingerprint nor the job record reveals or lets anyone test a secret.
 * Recorded when a job starts and compared at every batch boundary.
 */
import { createHash, createHmac } from 'node:crypto';
import type { MatchingProfile } from '../contract/profile.ts';
import { blockingSecret, type Settings } from '../config/settings.ts';
import type { SettingsSource } from '../config/settings-file.ts';
import { canonicalJson } from '../ingest/payload-digest.ts';
import type { Store } from '../store/store.ts';
import { activeProfile } from '../store/profiles.ts';

const KEY_DIGEST_LABEL = 'mpi-console/maintenance/blocking-key-fingerprint/v1';

export function configurationFingerprint(profile: MatchingProfile, settings: Settings, tenantId: string): string {
  const { Blocking } = profile;
  const versions = [
    Blocking.ActiveKeyVersion,
    ...(Blocking.InactiveKeyVersion === undefined ? [] : [Blocking.InactiveKeyVersion]),
  ];
  const keys = versions.map((version) => {
    const secret = blockingSecret(settings, tenantId, version);
    return {
      version,
      digest: secret === undefined ? 'missing' : createHmac('sha256', secret).update(KEY_DIGEST_LABEL).digest('hex'),
    };
  });
  // Which identifiers are trusted or personal changes what matches: in the material when set (a profile without
  // them keeps the fingerprint it had before they were counted).
  const identifiers =
    profile.TrustedIdentifierSystems.length === 0 && (profile.PersonalIdentifierSystems ?? []).length === 0
      ? {}
      : {
          identifierSystems: {
            trusted: profile.TrustedIdentifierSystems,
            personal: profile.PersonalIdentifierSystems ?? [],
          },
        };
  const material = canonicalJson({
    matchingRules: profile.MatchingRules,
    sourceTrust: profile.SourceTrust,
    ...identifiers,
    blocking: { version: Blocking.Version, rules: Blocking.Rules },
    keys,
  });
  return createHash('sha256').update(material).digest('hex');
}

/**
 * The tenant's current fingerprint, recomputed only when the active profile version or the configuration
 * (its stamp: size, modification time and inode of the file) changed since the last call; cheap enough for
 * every batch.
 */
export class FingerprintProbe {
  private cachedKey = '';
  private cachedValue = '';

  constructor(
    private readonly store: Store,
    private readonly tenantId: string,
    private readonly config: SettingsSource,
  ) {}

  current(): string {
    const version = this.store
      .statement('SELECT profile_version FROM matching_profile WHERE tenant_id = ? AND is_active = 1')
      .pluck()
      .get(this.tenantId) as number | undefined;
    const key = `${String(version)}|${this.config.stamp()}`;
    if (key !== this.cachedKey) {
      this.cachedValue = configurationFingerprint(
        activeProfile(this.store, this.tenantId).profile,
        this.config.read(),
        this.tenantId,
      );
      this.cachedKey = key;
    }
    return this.cachedValue;
  }
}
