/**
 * Structured JSON logs (pino): one line per request with its id, method, route template (never the URL, so
 * nothing a caller put in a path reaches the log), operation, status, duration, tenant and client id. Bodies,
 * tokens and patient values are never logged; the Authorization header is redacted should anything log
 * request headers.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  '*.authorization',
  'token',
  '*.token',
];

/** The longest a line waits in the standard-output buffer before an operator (or a log collector) sees it. */
export const LOG_FLUSH_INTERVAL_MS = 1000;

/** pino's numeric level for error: error and fatal lines are written at once. */
const ERROR_LEVEL = 50;

/**
 * A logger writing to destination, or to standard output through a buffered asynchronous writer.
 *
 * Buffered because one write(2) per request line costs a large share of a small GET's time; a 4 KiB buffer
 * makes it one write per dozen lines. So that buffering never hides a line from an operator: a line waits at
 * most LOG_FLUSH_INTERVAL_MS (a timer armed by the first line after a flush, unref'd so it never keeps the
 * process alive and never wakes an idle server), error and fatal lines are flushed at once, and pino flushes
 * the rest synchronously when the process exits (also after an uncaught exception). Callers flush() after a
 * line that must be seen now (the listening address, shutdown).
 */
export function apiLogger(destination?: DestinationStream, level = 'info'): Logger {
  const options = {
    level,
    base: { service: 'mpi-registry-api' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (destination !== undefined) return pino(options, destination);

  const stdout = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  stdout.once('close', () => {
    closed = true;
    clearTimeout(timer);
  });
  const flushSoon = (): void => {
    if (timer !== undefined || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (!closed) stdout.flush();
    }, LOG_FLUSH_INTERVAL_MS);
    timer.unref();
  };
  return pino(
    {
      ...options,
      hooks: {
        streamWrite: (line: string): string => {
          flushSoon();
          return line;
        },
        logMethod(this: Logger, args: Parameters<Logger['info']>, method: Logger['info'], levelValue: number): void {
          method.apply(this, args);
          if (levelValue >= ERROR_LEVEL) this.flush();
        },
      },
    },
    stdout,
  );
}
