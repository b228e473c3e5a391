/**
 * The `Api` section of the configuration file: how `mpi-console serve` validates bearer tokens. Production
 * names the identity provider (Issuer, Audience; JwksUri when the issuer publishes no metadata); the
 * tenant comes from a token claim (TenantClaim, default `mpi_tenant`). DevAuth holds the signing key of
 * `serve --dev-auth` and `mpi-console token` (loopback only); like the blocking secrets, it lives only in this
 * file (mode 0600) and never appears in logs, errors or responses.
 */
import { z } from 'zod';
import { isPostgresUrl } from '../store/location.ts';

/** Asymmetric JWS algorithms only: `none` and HMAC (a shared secret an API could be tricked into using) are never accepted. */
export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;
export const DEFAULT_TENANT_CLAIM = 'mpi_tenant';
export const DEFAULT_CLOCK_SKEW_SECONDS = 30;

const Base64Url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'base64url');

export const DevAuthSettingsSchema = z.strictObject({
  /** ES256 private key (JWK) of the development issuer. */
  PrivateKey: z.strictObject({
    kty: z.literal('EC'),
    crv: z.literal('P-256'),
    x: Base64Url,
    y: Base64Url,
    d: Base64Url,
    kid: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  }),
  CreatedAt: z.string(),
});
export type DevAuthSettings = z.infer<typeof DevAuthSettingsSchema>;

export const ApiSettingsSchema = z.strictObject({
  /** The identity provider's issuer identifier: its metadata (/.well-known/openid-configuration) names the JWKS. */
  Issuer: z.url().optional(),
  /** The `aud` value tokens for this registry carry. */
  Audience: z.string().min(1).max(500).optional(),
  /** Where the issuer's signing keys are, when its metadata does not say. */
  JwksUri: z.url().optional(),
  TenantClaim: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'a claim name is 1-100 letters, digits, dot, colon, dash or underscore')
    .default(DEFAULT_TENANT_CLAIM),
  /** A subset of the asymmetric algorithms; default: all of them. */
  Algorithms: z.array(z.enum(ASYMMETRIC_ALGORITHMS)).min(1).optional(),
  ClockSkewSeconds: z.number().int().min(0).max(300).default(DEFAULT_CLOCK_SKEW_SECONDS),
  /** Development only: fetch issuer metadata and keys over plain HTTP from a host that is not loopback. */
  AllowInsecureHttp: z.boolean().default(false),
  DevAuth: DevAuthSettingsSchema.optional(),
  /**
   * The PostgreSQL registry the replicas sharing this file serve (postgres://USER@HOST:PORT/DB); `--database`
   * overrides it. Give the password in PGPASSWORD or ~/.pgpass rather than in the URL.
   */
  Database: z.string().max(2000).refine(isPostgresUrl, 'a PostgreSQL URL: postgres://USER@HOST:PORT/DB').optional(),
});
export type ApiSettings = z.infer<typeof ApiSettingsSchema>;
