/**
 * Bounded exponential backoff with full jitter (engine/net/backoff.ts), but never less than the server's
 * Retry-After (RFC 9110 §10.2.3), itself capped. Only transient SourceErrors are retried; after the last
 * attempt the error is thrown with the number of attempts said.
 */
import { fullJitterBackoff } from '../net/backoff.ts';
import { isSourceError, SourceAborted, SourceError } from './source-error.ts';

export interface RetryPolicy {
  readonly attempts: number;
  readonly baseMs: number;
  readonly capMs: number;
  /** The longest Retry-After honoured; a server asking for more is waited this long. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseMs: 250, capMs: 8_000, maxRetryAfterMs: 60_000 };

export function backoffDelay(
  policy: RetryPolicy,
  attempt: number,
  retryAfter: number | undefined,
  random: () => number = Math.random,
): number {
  const jittered = fullJitterBackoff(attempt - 1, policy.baseMs, policy.capMs, random);
  return Math.max(jittered, Math.min(retryAfter ?? 0, policy.maxRetryAfterMs));
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A wait that ends early, with SourceAborted, when the signal aborts: a cancelled job or a stopping worker never
 * sits out a backoff (a Retry-After of hours among them).
 */
export function abortableWait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return sleep(ms);
  if (signal.aborted) return Promise.reject(new SourceAborted());
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new SourceAborted());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export async function withRetries<T>(
  fn: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY,
  onRetry?: (error: SourceError, attempt: number, delayMs: number) => void,
  wait: (ms: number) => Promise<void> = sleep,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!isSourceError(error) || !error.transient) throw error;
      if (attempt >= policy.attempts) {
        throw new SourceError(`${error.message}; gave up after ${String(attempt)} attempts with backoff`, false);
      }
      const delay = backoffDelay(policy, attempt, error.retryAfterMs);
      onRetry?.(error, attempt, delay);
      await wait(delay);
    }
  }
}
