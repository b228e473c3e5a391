/**
 * The browser host's per-launch guard. Anything on this machine can reach 127.0.0.1, and any web page the
 * user visits can send requests to it, so every request must prove it comes from the console's own page:
 *
 *   launch URL   http://127.0.0.1:PORT/open?token=T      T: 256 random bits, printed once, reusable this launch
 *   exchange     GET /open?token=T → Set-Cookie S; 303 to /   S: another 256 random bits (HttpOnly, SameSite=Strict)
 *   every /api   Host is exactly 127.0.0.1:PORT (DNS rebinding), Origin, when sent, is http://127.0.0.1:PORT
 *                (required on POST), Sec-Fetch-Site, when sent, is same-origin, and the cookie holds S
 *
 * The cookie name carries the port: cookies are not isolated by port, and two consoles must not overwrite
 * each other's session. Secrets are compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export type Refusal = { readonly status: 400 | 401 | 403; readonly reason: string };

function sameSecret(given: string, expected: string): boolean {
  // Digests make the comparison constant-time regardless of the given length.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

export class SessionGuard {
  readonly launchToken: string;
  private readonly session: string;
  readonly origin: string;
  readonly host: string;
  readonly cookieName: string;

  constructor(port: number, secrets: { launchToken?: string; session?: string } = {}) {
    this.launchToken = secrets.launchToken ?? randomBytes(32).toString('base64url');
    this.session = secrets.session ?? randomBytes(32).toString('base64url');
    this.host = `127.0.0.1:${String(port)}`;
    this.origin = `http://${this.host}`;
    this.cookieName = `mpi-console-${String(port)}`;
  }

  get launchUrl(): string {
    return `${this.origin}/open?token=${this.launchToken}`;
  }

  /** The Host header must name this server exactly: a rebound DNS name pointing here is refused. */
  checkHost(headers: IncomingHttpHeaders): Refusal | null {
    return headers.host === this.host ? null : { status: 403, reason: 'wrong Host header' };
  }

  /** Whether the launch token in /open?token= is this launch's. */
  acceptsToken(token: string | null): boolean {
    return token !== null && sameSecret(token, this.launchToken);
  }

  sessionCookie(): string {
    return `${this.cookieName}=${this.session}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** The checks of every API and event-stream request. */
  checkApi(method: string, headers: IncomingHttpHeaders): Refusal | null {
    const host = this.checkHost(headers);
    if (host !== null) return host;
    const origin = headers.origin;
    if (origin !== undefined && origin !== this.origin) return { status: 403, reason: 'cross-origin request' };
    if (method !== 'GET' && origin === undefined)
      return { status: 403, reason: 'a request that changes something must carry an Origin header' };
    const site = headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return { status: 403, reason: 'cross-site request' };
    const cookie = cookieValue(headers.cookie, this.cookieName);
    if (cookie === undefined || !sameSecret(cookie, this.session))
      return { status: 401, reason: 'no console session: open the address printed by npm start' };
    return null;
  }
}
