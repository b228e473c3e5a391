/**
 * An external source's failure, as typed data: `remote_http` with a message that names the rule or the status,
 * never a URL's query, a response body or a header value (any of them could carry patient values or a token).
 * Transient failures (engine/net/transient.ts: 408, 425, 429, most 5xx, a reset or timed-out connection) are retried;
 * the rest fail the job.
 */
import { EngineError } from '../contract/errors.ts';
import { isTransientNetworkError, isTransientStatus, networkErrorCode } from '../net/transient.ts';

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

/**
 * A request abandoned because its caller's signal aborted (the job was cancelled, the worker is stopping): not a
 * failure of the source, never retried, and the job is not failed for it.
 */
export class SourceAborted extends SourceError {
  constructor() {
    super('the request to the source was abandoned: the job was cancelled or the worker is stopping', false);
  }
}

export function isSourceError(value: unknown): value is SourceError {
  return value instanceof SourceError;
}

/** A thrown network error as a SourceError: the error code only (messages can quote the URL). */
export function networkFailure(error: unknown, what: string): SourceError {
  if (isSourceError(error)) return error;
  const safeCode = networkErrorCode(error);
  if (isTransientNetworkError(error)) return new SourceError(`${what}: the connection failed (${safeCode})`, true);
  if (safeCode !== undefined && /^ERR_TLS|CERT|VERIFY|SELF_SIGNED/.test(safeCode)) {
    return new SourceError(
      `${what}: the server's TLS certificate was not accepted (${safeCode}); trust its CA with TrustedCaFile`,
      false,
    );
  }
  return new SourceError(
    `${what}: the request failed (${safeCode ?? (error instanceof Error ? error.name : 'error')})`,
    false,
  );
}

/** What a status means for the import. */
export function statusFailure(status: number, what: string, retryAfter: number | undefined): SourceError {
  if (isTransientStatus(status)) {
    return new SourceError(`${what}: the server answered ${String(status)} (transient)`, true, retryAfter);
  }
  if (status >= 300 && status <= 399) {
    return new SourceError(
      `${what}: the server answered with a redirect (${String(status)}); redirects are never followed, so credentials cannot reach another origin. Set BaseUrl to the server's real address`,
      false,
    );
  }
  if (status === 401) return new SourceError(`${what}: the server refused the credentials (401)`, false);
  if (status === 403)
    return new SourceError(`${what}: the server refused access (403); check the client's scope`, false);
  return new SourceError(`${what}: the server answered ${String(status)}`, false);
}
