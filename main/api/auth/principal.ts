/** Who is calling: what a verified bearer token says, and how a refusal is answered. */

export interface Principal {
  /** From the tenant claim (default `mpi_tenant`): never from the path or the body. */
  readonly tenantId: string;
  /** `client_id`, else `azp`, else `sub`: recorded as the actor (`api:<clientId>`) in audit records and jobs. */
  readonly clientId: string;
  readonly scopes: ReadonlySet<string>;
  /** Seconds since the epoch (the token's `exp`). */
  readonly expiresAt: number;
}

export type BearerError = 'invalid_token' | 'insufficient_scope';

/**
 * A refusal before the operation runs: 401 (no usable token; RFC 6750 `invalid_token`, or no error code when
 * no bearer token was sent), 403 (`insufficient_scope`, naming the scope) or 503 (the identity provider's
 * keys could not be fetched: not the caller's fault). Messages are fixed texts: never token contents.
 */
export class AuthFailure extends Error {
  constructor(
    readonly status: 401 | 403 | 503,
    readonly error: BearerError | null,
    message: string,
    readonly scope?: string,
  ) {
    super(message);
    this.name = 'AuthFailure';
  }
}

export interface Authenticator {
  /** The principal of a request's Authorization header, or an AuthFailure. */
  authenticate(authorization: string | undefined): Promise<Principal>;
}
