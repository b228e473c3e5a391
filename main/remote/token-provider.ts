/**
 * Where the remote client's bearer token comes from. The client asks for the token before every request
 * (so a rotated token file or a refreshed sign-in is picked up) and, when the registry answers 401, calls
 * refresh() once and retries. The console's sign-in will be one more provider.
 */
import { readFileSync } from 'node:fs';
import { EngineError } from '../../engine/contract/errors.ts';

export interface TokenProvider {
  token(): Promise<string>;
  /** Obtain a new token after the registry refused the current one (optional). */
  refresh?(): Promise<void>;
}

const TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

function checked(token: string, source: string): string {
  if (!TOKEN.test(token))
    throw new EngineError(
      'validation',
      `${source} does not hold one bearer token (letters, digits and -._~+/ only, no spaces)`,
    );
  return token;
}

export class StaticTokenProvider implements TokenProvider {
  private readonly value: string;

  constructor(token: string, source = 'the token') {
    this.value = checked(token.trim(), source);
  }

  token(): Promise<string> {
    return Promise.resolve(this.value);
  }
}

/** Reads the file on every request: a token rotated in place is used from the next request on. Keep the file 0600. */
export class TokenFileProvider implements TokenProvider {
  constructor(private readonly path: string) {}

  token(): Promise<string> {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return Promise.reject(
        new EngineError(
          'validation',
          `token file ${this.path} cannot be read (${typeof code === 'string' ? code : 'error'})`,
        ),
      );
    }
    try {
      return Promise.resolve(checked(text.trim(), `token file ${this.path}`));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error('unreadable token'));
    }
  }
}
