/**
 * `Maintenance.FhirSources[]`: the external FHIR R4 servers a reconciliation can import changed Patients from
 * (spec "Maintenance configuration", "Authentication"). The file never holds a secret: a bearer token or a
 * client secret is read when it is needed from a file (mode 0600) or an environment variable the entry names
 * (engine/fhir-source/secrets.ts). A `ClientSecret` or `Token` key in the file is refused, the spec's
 * `<CLIENT_SECRET>` placeholder included, with the keys to use instead; no message quotes a value.
 */
import { z } from 'zod';

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 200;
/** The longest one request to a source or its token endpoint may take, headers and body together. */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 120;
/** Pages one import may read: 20 million Patients at the default PageSize. */
export const DEFAULT_MAX_PAGES = 100_000;
/** Requests a second to one source (pages and tokens): a source is somebody else's production server. */
export const DEFAULT_MAX_REQUESTS_PER_SECOND = 10;
const SOURCE_SYSTEM_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** Search parameters the import sets itself: a configured one would change the window or the paging. */
const RESERVED_PARAMETERS = new Set([
  '_lastUpdated',
  '_count',
  '_sort',
  '_offset',
  '_getpages',
  '_total',
  '_summary',
  '_elements',
  '_include',
  '_revinclude',
]);

const UrlSchema = z
  .string()
  .max(2000)
  .refine((text) => URL.canParse(text), 'not an absolute URL');
const SecretFileSchema = z.string().min(1).max(4096);
const SecretEnvSchema = z
  .string()
  .regex(ENV_NAME_PATTERN, 'an environment variable name is letters, digits and underscores');

const SECRET_IN_FILE =
  'secrets are never kept in the configuration file: name a file (mode 0600) or an environment variable that holds it';

/** A key that must not be present: the value (a placeholder or a pasted secret) is refused without being read. */
const forbidden = (message: string) =>
  z
    .unknown()
    .refine((value) => value === undefined, message)
    .optional();

const NoneSchema = z.strictObject({ Type: z.literal('None') });

const BearerSchema = z
  .strictObject({
    Type: z.literal('BearerToken'),
    TokenFile: SecretFileSchema.optional(),
    TokenEnv: SecretEnvSchema.optional(),
    Token: forbidden(`${SECRET_IN_FILE} (TokenFile or TokenEnv)`),
  })
  .refine((a) => (a.TokenFile === undefined) !== (a.TokenEnv === undefined), {
    message: 'give exactly one of TokenFile or TokenEnv',
    path: ['TokenFile'],
  });

const ClientCredentialsSchema = z
  .strictObject({
    Type: z.literal('ClientCredentials'),
    TokenEndpoint: UrlSchema,
    ClientId: z.string().min(1).max(500),
    ClientSecretFile: SecretFileSchema.optional(),
    ClientSecretEnv: SecretEnvSchema.optional(),
    ClientSecret: forbidden(
      `${SECRET_IN_FILE} (ClientSecretFile or ClientSecretEnv); a <CLIENT_SECRET> placeholder is not resolved here`,
    ),
    Scope: z.string().min(1).max(1000),
  })
  .refine((a) => (a.ClientSecretFile === undefined) !== (a.ClientSecretEnv === undefined), {
    message: 'give exactly one of ClientSecretFile or ClientSecretEnv',
    path: ['ClientSecretFile'],
  });

export const FhirSourceAuthenticationSchema = z.discriminatedUnion('Type', [
  NoneSchema,
  BearerSchema,
  ClientCredentialsSchema,
]);
export type FhirSourceAuthentication = z.infer<typeof FhirSourceAuthenticationSchema>;

export const FhirSourceSchema = z.strictObject({
  TenantId: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'a tenant ID is 1-64 letters, digits, dot, dash or underscore'),
  SourceSystem: z
    .string()
    .regex(SOURCE_SYSTEM_PATTERN, 'a source system is 1-100 letters, digits, dot, dash, colon or underscore'),
  BaseUrl: UrlSchema,
  LocalIdentifierSystem: z.string().min(1).max(500),
  PatientSearchParameters: z
    .record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_:.-]{0,63}$/, 'a search parameter name is letters, digits, _ : . -'),
      z.string().max(500),
    )
    .refine((params) => Object.keys(params).every((name) => !RESERVED_PARAMETERS.has(name.split(':')[0] ?? name)), {
      message: `the import sets ${[...RESERVED_PARAMETERS].join(', ')} itself; remove them`,
    })
    .default({}),
  /** The `_count` asked for per page (the server may return fewer). */
  PageSize: z.number().int('PageSize is a whole number').min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  /** The overall deadline of one request (page or token), headers and body together; a slower answer is a transient failure. */
  RequestTimeoutSeconds: z
    .number()
    .int('RequestTimeoutSeconds is a whole number')
    .min(1)
    .max(3600)
    .default(DEFAULT_REQUEST_TIMEOUT_SECONDS),
  /** The most pages one import reads; a source that pages on past it fails the job. */
  MaxPages: z.number().int('MaxPages is a whole number').min(1).max(10_000_000).default(DEFAULT_MAX_PAGES),
  /** The most requests a second the import sends to this source and its token endpoint. */
  MaxRequestsPerSecond: z.number().min(0.1).max(1000).default(DEFAULT_MAX_REQUESTS_PER_SECOND),
  /** A PEM file of CA certificates trusted for this source besides the system's (an internal CA). */
  TrustedCaFile: z.string().min(1).max(4096).optional(),
  Authentication: FhirSourceAuthenticationSchema,
});
export type FhirSource = z.infer<typeof FhirSourceSchema>;

/** The keys of the schema, shown in configuration errors (anything else is `<key not shown>`). */
export const FHIR_SOURCE_KEYS: readonly string[] = [
  ...Object.keys(FhirSourceSchema.shape),
  'Type',
  'TokenFile',
  'TokenEnv',
  'Token',
  'TokenEndpoint',
  'ClientId',
  'ClientSecretFile',
  'ClientSecretEnv',
  'ClientSecret',
  'Scope',
];

/** Why a URL may not be used for a source, or undefined; HTTP only under AllowInsecureHttp. */
export function transportProblem(url: string, allowInsecureHttp: boolean): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not an absolute URL';
  }
  if (parsed.username !== '' || parsed.password !== '') return 'a URL may not carry a user name or password';
  if (parsed.search !== '' || parsed.hash !== '') return 'a base URL has no query or fragment';
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:')
    return allowInsecureHttp
      ? undefined
      : 'HTTPS is required (plain HTTP only with AllowInsecureHttp, for development)';
  return 'HTTPS is required';
}

/** The source of a tenant with this source system, if configured. */
export function fhirSourceOf(
  sources: readonly FhirSource[],
  tenantId: string,
  sourceSystem: string,
): FhirSource | undefined {
  return sources.find((s) => s.TenantId === tenantId && s.SourceSystem === sourceSystem);
}
