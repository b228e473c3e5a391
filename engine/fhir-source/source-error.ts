/**
 * An external source's failure, as typed data: `remote_http` with a message that names the rule or the status,
 * never a URL's query, a response body or a header value (any of them could carry patient values or a token).
 * Transient failures (408, 429, 5xx, a reset or timed-out connection) are retried; the rest fail the job.
 */
import { EngineError } from '../contract/errors.ts';

export class SourceError extends EngineError {
  constructor(
    message: string,
    readonly transient: boolean,
    /** The server's Retry-After, in milliseconds, when it sent one. */
    readonly retryAfterMs?: number,
  ) {
    super('remote_http', message);
  }
}

export function isSourceError(value: unknown): value is SourceError {
  return value instanceof SourceError;
}

/** Connection-level failures worth another attempt (undici and Node socket codes). */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function codeOf(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current !== null && typeof current === 'object' && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A thrown network error as a SourceError: the error code only (messages can quote the URL). */
export function networkFailure(error: unknown, what: string): SourceError {
  if (isSourceError(error)) return error;
  const code = codeOf(error);
  const safeCode = code !== undefined && /^[A-Z0-9_]{1,40}$/.test(code) ? code : undefined;
  if (safeCode !== undefined && TRANSIENT_CODES.has(safeCode)) return new SourceError(`${what}: the connection failed (${safeCode})`, true);
  if (safeCode !== undefined && /^ERR_TLS|CERT|VERIFY|SELF_SIGNED/.test(safeCode)) {
    return new SourceError(`${what}: the server's TLS certificate was not accepted (${safeCode}); trust its CA with TrustedCaFile`, false);
  }
  return new SourceError(`${what}: the request failed (${safeCode ?? (error instanceof Error ? error.name : 'error')})`, false);
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** What a status means for the import. */
export function statusFailure(status: number, what: string, retryAfter: number | undefined): SourceError {
  if (status === 408 || status === 429 || (status >= 500 && status <= 599)) {
    return new SourceError(`${what}: the server answered ${String(status)} (transient)`, true, retryAfter);
  }
  if (status >= 300 && status <= 399) {
    return new SourceError(
      `${what}: the server answered with a redirect (${String(status)}); redirects are never followed, so credentials cannot reach another origin. Set BaseUrl to the server's real address`,
      false,
    );
  }
  if (status === 401) return new SourceError(`${what}: the server refused the credentials (401)`, false);
  if (status === 403) return new SourceError(`${what}: the server refused access (403); check the client's scope`, false);
  return new SourceError(`${what}: the server answered ${String(status)}`, false);
}
