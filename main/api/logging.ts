/**
 * Structured JSON logs (pino): one line per request with its id, method, route template (never the URL, so
 * nothing a caller put in a path reaches the log), operation, status, duration, tenant and client id. Bodies,
 * tokens and patient values are never logged; the Authorization header is redacted should anything log
 * request headers.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

export const REDACTED_PATHS = ['req.headers.authorization', 'headers.authorization', 'authorization', '*.authorization', 'token', '*.token'];

/**
 * A logger writing to destination, or to standard output through a buffered asynchronous writer (one write
 * per 4 KiB of lines rather than one per request; call flush() before exiting).
 */
export function apiLogger(destination?: DestinationStream, level = 'info'): Logger {
  const options = { level, base: { service: 'mpi-registry-api' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, timestamp: pino.stdTimeFunctions.isoTime };
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }));
}
