/**
 * The remote client's TokenProvider for a console session: the current access token, checked for expiry
 * before each request, and a refresh through the identity provider when the sign-in gave a refresh token.
 * Without one (a pasted token, or a provider that gives none) an expired or refused token means "sign in
 * again", said in those words. A refreshed token is saved back to the token store.
 */
import { EngineError } from '../../engine/contract/errors.ts';
import type { TokenProvider } from '../remote/token-provider.ts';
import { refreshSignIn } from './sign-in.ts';
import type { StoredSession } from './token-store.ts';
import { isExpired, tokenClaims, type TokenClaims } from './token-claims.ts';

export function signInAgain(method: StoredSession['method']): EngineError {
  return new EngineError(
    'forbidden',
    method === 'token'
      ? 'the access token has expired or was refused by the registry: paste a new token'
      : 'your sign-in has expired or was refused by the registry: sign in again',
  );
}

/** A refusal of the token by the registry, with what to do added. */
export function withSignInAdvice(error: unknown, method: StoredSession['method']): unknown {
  if (
    error instanceof EngineError &&
    error.kind === 'forbidden' &&
    error.message.startsWith('the registry refused the access token')
  ) {
    return new EngineError(
      'forbidden',
      `${error.message}. ${method === 'token' ? 'Paste a new token' : 'Sign in again'}`,
      error.issues,
    );
  }
  return error;
}

export class SessionTokens implements TokenProvider {
  private current: StoredSession;
  private claimsOf: TokenClaims;
  /** Present only when the sign-in gave a refresh token: otherwise a refused token is reported, not retried. */
  readonly refresh?: () => Promise<void>;

  constructor(
    session: StoredSession,
    private readonly saved: (session: StoredSession) => void = () => undefined,
  ) {
    this.current = session;
    this.claimsOf = tokenClaims(session.accessToken);
    if (session.refreshToken !== undefined) this.refresh = () => this.renew();
  }

  get session(): StoredSession {
    return this.current;
  }

  get claims(): TokenClaims {
    return this.claimsOf;
  }

  async token(): Promise<string> {
    if (isExpired(this.claimsOf)) await this.renew();
    return this.current.accessToken;
  }

  private async renew(): Promise<void> {
    const { refreshToken, issuer, clientId, resource } = this.current;
    if (refreshToken === undefined || issuer === undefined || clientId === undefined)
      throw signInAgain(this.current.method);
    let next: { accessToken: string; refreshToken?: string };
    try {
      next = await refreshSignIn({ issuer, clientId, ...(resource === undefined ? {} : { resource }) }, refreshToken);
    } catch {
      throw signInAgain(this.current.method);
    }
    const claims = tokenClaims(next.accessToken);
    // A refresh must not move the console to another tenant behind the user's back.
    if (claims.tenantId !== this.claimsOf.tenantId) throw signInAgain(this.current.method);
    this.current = { ...this.current, accessToken: next.accessToken, refreshToken: next.refreshToken ?? refreshToken };
    this.claimsOf = claims;
    this.saved(this.current);
  }
}
