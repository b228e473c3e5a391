/**
 * The external FHIR sources of a tenant (`mpi-console sources list|check NAME`): what is configured, never a
 * secret (only where it is read from), and a check of one source: the secret can be read, a token obtained
 * (client credentials), and a first search page read. Each step's outcome is reported, as the error of the
 * step that failed (which names the rule or status, never a value).
 */
import type { CallContext } from '../contract/operations.ts';
import { inCallTenant } from '../store/tenant-scope.ts';
import { isEngineError, validationError } from '../contract/errors.ts';
import type { FhirSource } from '../config/fhir-sources.ts';
import { FhirSourceClient } from '../fhir-source/client.ts';
import { configuredSources, sourceForImport } from '../fhir-source/resolve.ts';
import { activeProfile } from '../store/profiles.ts';
import { requireTenant } from '../store/tenants.ts';
import type { EngineEnv } from '../env.ts';

export interface SourceSummary {
  readonly sourceSystem: string;
  readonly baseUrl: string;
  readonly authentication: string;
  /** Where the secret comes from (a file path or an environment variable name), never the secret. */
  readonly secretFrom: string | null;
  readonly localIdentifierSystem: string;
  readonly pageSize: number;
}

function secretFrom(source: FhirSource): string | null {
  const auth = source.Authentication;
  switch (auth.Type) {
    case 'None':
      return null;
    case 'BearerToken':
      return auth.TokenFile !== undefined ? `file ${auth.TokenFile}` : `environment variable ${auth.TokenEnv ?? '?'}`;
    case 'ClientCredentials':
      return auth.ClientSecretFile !== undefined
        ? `file ${auth.ClientSecretFile}`
        : `environment variable ${auth.ClientSecretEnv ?? '?'}`;
  }
}

export const listSources = inCallTenant(function listSources(env: EngineEnv, ctx: CallContext): SourceSummary[] {
  requireTenant(env.store, ctx.tenantId);
  return configuredSources(env.settings(), ctx.tenantId).map(({ source }) => ({
    sourceSystem: source.SourceSystem,
    baseUrl: source.BaseUrl,
    authentication:
      source.Authentication.Type === 'ClientCredentials'
        ? `ClientCredentials (${source.Authentication.ClientId} at ${source.Authentication.TokenEndpoint})`
        : source.Authentication.Type,
    secretFrom: secretFrom(source),
    localIdentifierSystem: source.LocalIdentifierSystem,
    pageSize: source.PageSize,
  }));
});

export type StepOutcome = 'ok' | 'failed' | 'not run' | 'not needed';

export interface SourceCheck {
  readonly sourceSystem: string;
  readonly configuration: StepOutcome;
  readonly token: StepOutcome;
  readonly firstPage: StepOutcome;
  /** Entries on the first page (asked with _count=1), and whether a next page was offered. */
  readonly entries: number | null;
  readonly hasNextPage: boolean | null;
  readonly error: string | null;
}

function messageOf(error: unknown): string {
  if (!isEngineError(error)) return `unexpected ${error instanceof Error ? error.name : 'error'}`;
  return [error.message, ...error.issues.map((i) => `${i.path}: ${i.message}`)].join('; ');
}

export const checkSource = inCallTenant(async function checkSource(
  env: EngineEnv,
  ctx: CallContext,
  sourceSystem: string,
): Promise<SourceCheck> {
  requireTenant(env.store, ctx.tenantId);
  const result = {
    sourceSystem,
    configuration: 'not run',
    token: 'not run',
    firstPage: 'not run',
    entries: null,
    hasNextPage: null,
    error: null,
  } as {
    -readonly [K in keyof SourceCheck]: SourceCheck[K];
  };
  if (!configuredSources(env.settings(), ctx.tenantId).some((c) => c.source.SourceSystem === sourceSystem)) {
    throw validationError(
      'no external FHIR source of this tenant has this source system; `mpi-console sources list` shows them',
      [{ path: 'NAME', message: 'not configured' }],
    );
  }
  let client: FhirSourceClient;
  try {
    const configured = sourceForImport(
      env.settings(),
      activeProfile(env.store, ctx.tenantId).profile,
      ctx.tenantId,
      sourceSystem,
      'NAME',
    );
    client = new FhirSourceClient(configured.source, {
      allowInsecureHttp: configured.allowInsecureHttp,
      key: configured.key,
    });
    result.configuration = 'ok';
  } catch (error) {
    result.configuration = 'failed';
    result.error = messageOf(error);
    return result;
  }
  try {
    if (client.authenticationType === 'ClientCredentials') {
      result.token = 'failed';
      await client.authenticate();
      result.token = 'ok';
    } else result.token = 'not needed';
    result.firstPage = 'failed';
    const page = await client.page(
      client.firstPageUrl({ changedSince: null, upTo: new Date().toISOString(), pageSize: 1 }),
    );
    result.firstPage = 'ok';
    result.entries = page.entries.length;
    result.hasNextPage = page.nextUrl !== null;
  } catch (error) {
    result.error = messageOf(error);
  } finally {
    await client.close();
  }
  return result;
});
