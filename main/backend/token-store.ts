/**
 * Where a remote registry's tokens are kept between connections. Two implementations: memory only (the
 * browser host: tokens end with the process) and Electron's safeStorage (main/electron/safe-token-store.ts:
 * encrypted with the OS keychain; never written when only the plain-text backend exists). A stored session
 * that cannot be decrypted is "unreadable": the console asks the user to sign in again and forgets it.
 * Tokens live only in the backend's process: never in the renderer, logs or errors.
 */

export interface StoredSession {
  readonly baseUrl: string;
  readonly method: 'sign-in' | 'token';
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** For a refresh: the identity provider, the console's client ID and the API's resource indicator. */
  readonly issuer?: string;
  readonly clientId?: string;
  readonly resource?: string;
  readonly identity: string | null;
}

export type LoadedSession =
  | { readonly state: 'none' }
  | { readonly state: 'ok'; readonly session: StoredSession }
  /** Stored, but it cannot be decrypted or read (another OS user, a changed keychain): sign in again. */
  | { readonly state: 'unreadable'; readonly message: string };

export interface TokenStore {
  /** 'memory': gone when the console stops; 'encrypted': kept, encrypted by the OS. */
  readonly kind: 'memory' | 'encrypted';
  /** Keeps the session; returns false when it was refused (no secure storage), in which case nothing is kept. */
  save(session: StoredSession): boolean;
  load(): LoadedSession;
  clear(): void;
}

export class MemoryTokenStore implements TokenStore {
  readonly kind = 'memory';
  private session: StoredSession | undefined;

  save(session: StoredSession): boolean {
    this.session = session;
    return true;
  }

  load(): LoadedSession {
    return this.session === undefined ? { state: 'none' } : { state: 'ok', session: this.session };
  }

  clear(): void {
    this.session = undefined;
  }
}

const STRING_FIELDS = ['baseUrl', 'accessToken', 'refreshToken', 'issuer', 'clientId', 'resource'] as const;

/** A stored session's JSON, checked field by field; undefined when it is not one. */
export function parseStoredSession(text: string): StoredSession | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.baseUrl !== 'string' || typeof record.accessToken !== 'string') return undefined;
  if (record.method !== 'sign-in' && record.method !== 'token') return undefined;
  if (record.identity !== null && typeof record.identity !== 'string') return undefined;
  for (const field of STRING_FIELDS)
    if (record[field] !== undefined && typeof record[field] !== 'string') return undefined;
  return record as unknown as StoredSession;
}
