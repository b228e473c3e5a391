/**
 * HTTP to an external source, over undici: one connection pool per source, trusting the system's CAs plus an
 * optional TrustedCaFile. Redirects are never followed (undici's request does not follow them, and the fetch
 * handed to the OAuth client asks for `redirect: manual`), so a token or a client secret never reaches another
 * origin.
 *
 * Every request has an overall deadline (RequestTimeoutSeconds: connection, headers and the whole body), so a
 * source that trickles its answer a byte at a time cannot hold an import: undici's own timeouts are per idle
 * period and a trickle never idles long enough. A request is also abandoned at once when the caller's signal
 * aborts (a cancelled job, a worker asked to stop). A response body is read up to a bound and must be UTF-8
 * (an invalid byte sequence is refused, never repaired, as in NDJSON files); a larger one is refused rather
 * than held in memory. The pool is made with the first request (LazyAgent): most processes never reach a source.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { fetch as undiciFetch } from 'undici';
import { validationError } from '../contract/errors.ts';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS } from '../config/fhir-sources.ts';
import { networkFailure, SourceAborted, SourceError } from './source-error.ts';
import { LazyAgent } from '../net/lazy-agent.ts';

export const MAX_BODY_BYTES = 64 * 1024 * 1024;
const CONNECT_TIMEOUT_MS = 10_000;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export interface TransportOptions {
  /** PEM file of extra CA certificates (a source's TrustedCaFile). */
  readonly trustedCaFile?: string | undefined;
  /** The configuration key naming that file, for errors. */
  readonly caKey?: string;
  /** The overall deadline of one request, in milliseconds (default: DEFAULT_REQUEST_TIMEOUT_SECONDS). */
  readonly requestTimeoutMs?: number;
}

export interface GetOptions {
  /** Aborts the request at once (a cancelled job, a stopping worker). */
  readonly signal?: AbortSignal | undefined;
  /** The largest body accepted (default MAX_BODY_BYTES), and what to say when it is exceeded. */
  readonly maxBodyBytes?: number;
  readonly tooLarge?: string;
}

function trustedCas(options: TransportOptions): string[] | undefined {
  if (options.trustedCaFile === undefined) return undefined;
  let pem: string;
  try {
    pem = readFileSync(options.trustedCaFile, 'utf8');
  } catch {
    throw validationError(`${options.caKey ?? 'TrustedCaFile'}: the CA file ${options.trustedCaFile} cannot be read`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    throw validationError(`${options.caKey ?? 'TrustedCaFile'}: ${options.trustedCaFile} holds no PEM certificate`);
  return [...rootCertificates, pem];
}

/** A signal that aborts with the caller's, or when the deadline passes; `timedOut` tells which. */
export function deadlineSignal(
  signal: AbortSignal | undefined,
  timeoutMs: number,
): { readonly signal: AbortSignal; readonly timedOut: () => boolean } {
  const deadline = AbortSignal.timeout(timeoutMs);
  return {
    signal: signal === undefined ? deadline : AbortSignal.any([signal, deadline]),
    timedOut: () => deadline.aborted && signal?.aborted !== true,
  };
}

export class Transport {
  private readonly pool: LazyAgent;
  readonly requestTimeoutMs: number;

  constructor(options: TransportOptions = {}) {
    const ca = trustedCas(options);
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_SECONDS * 1000;
    this.pool = new LazyAgent({
      connect: { timeout: Math.min(CONNECT_TIMEOUT_MS, this.requestTimeoutMs), ...(ca === undefined ? {} : { ca }) },
      headersTimeout: this.requestTimeoutMs,
      bodyTimeout: this.requestTimeoutMs,
      keepAliveTimeout: 10_000,
    });
  }

  private timeout(what: string): SourceError {
    return new SourceError(
      `${what}: no complete answer within ${String(this.requestTimeoutMs / 1000)} s (RequestTimeoutSeconds) (transient)`,
      true,
    );
  }

  /** One GET; what is a network failure becomes a SourceError (transient or not), never with the URL in it. */
  async get(
    url: string,
    headers: Record<string, string>,
    what: string,
    options: GetOptions = {},
  ): Promise<HttpResponse> {
    if (options.signal?.aborted === true) throw new SourceAborted();
    const limit = options.maxBodyBytes ?? MAX_BODY_BYTES;
    const { signal, timedOut } = deadlineSignal(options.signal, this.requestTimeoutMs);
    const failure = (error: unknown): SourceError => {
      if (options.signal?.aborted === true) return new SourceAborted();
      if (timedOut()) return this.timeout(what);
      return networkFailure(error, what);
    };
    let response;
    try {
      const { undici, agent } = await this.pool.connections();
      response = await undici.request(url, { method: 'GET', headers, dispatcher: agent, signal });
    } catch (error) {
      throw failure(error);
    }
    if (response.statusCode >= 300) {
      // Not kept: an error body can carry anything, and it is not needed (dump frees the connection).
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      return { status: response.statusCode, headers: response.headers, body: '' };
    }
    let size = 0;
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of response.body) {
        const buffer = chunk as Buffer;
        size += buffer.length;
        if (size > limit) {
          response.body.destroy();
          throw new SourceError(
            `${what}: ${options.tooLarge ?? `the response is larger than ${String(Math.round(limit / 1024 / 1024))} MiB; lower PageSize`}`,
            false,
          );
        }
        chunks.push(buffer);
      }
    } catch (error) {
      throw failure(error);
    }
    let body: string;
    try {
      body = STRICT_UTF8.decode(Buffer.concat(chunks));
    } catch {
      throw new SourceError(
        `${what}: the response is not valid UTF-8; nothing of it was imported (invalid bytes are refused, never repaired)`,
        false,
      );
    }
    return { status: response.statusCode, headers: response.headers, body };
  }

  /**
   * A fetch for the OAuth client: this pool, redirects returned rather than followed, the same overall deadline,
   * and abandoned when `signal()` aborts (the token source's caller).
   */
  fetchFor(
    signal: () => AbortSignal | undefined,
  ): (url: string, init: Parameters<typeof undiciFetch>[1]) => ReturnType<typeof undiciFetch> {
    return async (url, init) => {
      const caller = signal();
      const signals = [
        AbortSignal.timeout(this.requestTimeoutMs),
        ...(caller === undefined ? [] : [caller]),
        ...(init?.signal == null ? [] : [init.signal]),
      ];
      const { undici, agent } = await this.pool.connections();
      return undici.fetch(url, {
        ...init,
        dispatcher: agent,
        redirect: 'manual',
        signal: AbortSignal.any(signals),
      });
    };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
