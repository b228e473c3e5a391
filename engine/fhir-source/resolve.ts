/**
 * The configured source of a tenant's source system, with the rules that need the matching profile: the
 * source system must be in the tenant's SourceTrust and, since ingestion takes a record's local identifier by
 * the SourceTrust entry's LocalIdentifierSystem, the source's LocalIdentifierSystem must be the same one
 * (one source system, one rule for its local identifiers, whether its records come by file or by search).
 */
import { validationError } from '../contract/errors.ts';
import type { MatchingProfile } from '../contract/profile.ts';
import { maintenanceSettings } from '../config/maintenance.ts';
import type { FhirSource } from '../config/fhir-sources.ts';
import type { Settings } from '../config/settings.ts';

export interface ConfiguredSource {
  readonly source: FhirSource;
  /** `Maintenance.FhirSources[i]`, for messages. */
  readonly key: string;
  readonly allowInsecureHttp: boolean;
}

export function configuredSources(settings: Settings, tenantId: string): ConfiguredSource[] {
  const maintenance = maintenanceSettings(settings);
  return maintenance.FhirSources.flatMap((source, index) =>
    source.TenantId === tenantId
      ? [{ source, key: `Maintenance.FhirSources[${String(index)}]`, allowInsecureHttp: maintenance.AllowInsecureHttp }]
      : [],
  );
}

/** The source for an import; `path` names the request field for errors (the name itself is not repeated). */
export function sourceForImport(
  settings: Settings,
  profile: MatchingProfile,
  tenantId: string,
  sourceSystem: string,
  path = 'externalSourceSystem',
): ConfiguredSource {
  const trust = profile.SourceTrust.find((s) => s.SourceSystem === sourceSystem);
  if (trust === undefined)
    throw validationError('invalid external source', [
      { path, message: "the source system is not in the tenant's SourceTrust configuration" },
    ]);
  const configured = configuredSources(settings, tenantId).find((c) => c.source.SourceSystem === sourceSystem);
  if (configured === undefined) {
    throw validationError('invalid external source', [
      {
        path,
        message:
          'no external FHIR source is configured for this source system (Maintenance.FhirSources in the configuration file); omit externalSourceSystem for a registry-only reconciliation',
      },
    ]);
  }
  if (trust.LocalIdentifierSystem !== configured.source.LocalIdentifierSystem) {
    throw validationError('invalid external source', [
      {
        path: `${configured.key}.LocalIdentifierSystem`,
        message:
          "must be the LocalIdentifierSystem of the source system's SourceTrust entry in the matching profile, so its records keep one local identifier",
      },
    ]);
  }
  return configured;
}
