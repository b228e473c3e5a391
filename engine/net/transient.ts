/**
 * What makes an HTTP failure worth another attempt, for every client the project has (the FHIR source client in
 * engine/fhir-source and the registry's remote client in main/remote): one list, so both retry the same things.
 */

/** 408, 425, 429 and 5xx are transient (RFC 9110); 501 and 505 are answers about the server, not about this moment. */
export function isTransientStatus(status: number): boolean {
  return (
    status === 408 ||
    status === 425 ||
    status === 429 ||
    (status >= 500 && status <= 599 && status !== 501 && status !== 505)
  );
}

/** Connection-level failures worth another attempt (Node socket and undici codes). */
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

/**
 * The first error code on a thrown error's cause chain (fetch and undici wrap the socket error), when it is shaped
 * like a code: messages are never used, since they can quote the URL.
 */
export function networkErrorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current !== null && typeof current === 'object' && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return /^[A-Z0-9_]{1,40}$/.test(code) ? code : undefined;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isTransientNetworkError(error: unknown): boolean {
  const code = networkErrorCode(error);
  return code !== undefined && TRANSIENT_CODES.has(code);
}

/** Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date, as milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
