/** When a GET may be tried again, and how long to wait first. */

/** 408, 425, 429 and 5xx are transient (spec "Errors", rule 5); anything else is the answer. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
}

const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

export function errorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current !== null && typeof current === 'object' && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isTransientNetworkError(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && TRANSIENT_CODES.has(code);
}

/** Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Exponential backoff with full jitter: a random wait up to base·2^attempt, capped. */
export function backoffMs(attempt: number, baseMs: number, capMs = 10_000): number {
  return Math.round(Math.random() * Math.min(capMs, baseMs * 2 ** attempt));
}
