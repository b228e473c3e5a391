/**
 * HTTP to an external source, over undici: one connection pool per source, trusting the system's CAs plus an
 * optional TrustedCaFile. Redirects are never followed (undici's request does not follow them, and the fetch
 * handed to the OAuth client asks for `redirect: manual`), so a token or a client secret never reaches another
 * origin. A response body is read up to a bound; a larger one is refused rather than held in memory.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, fetch as undiciFetch, request } from 'undici';
import { validationError } from '../contract/errors.ts';
import { networkFailure, SourceError } from './source-error.ts';

export const MAX_BODY_BYTES = 64 * 1024 * 1024;
const CONNECT_TIMEOUT_MS = 10_000;
const RESPONSE_TIMEOUT_MS = 60_000;

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
}

function trustedCas(options: TransportOptions): string[] | undefined {
  if (options.trustedCaFile === undefined) return undefined;
  let pem: string;
  try {
    pem = readFileSync(options.trustedCaFile, 'utf8');
  } catch {
    throw validationError(`${options.caKey ?? 'TrustedCaFile'}: the CA file ${options.trustedCaFile} cannot be read`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw validationError(`${options.caKey ?? 'TrustedCaFile'}: ${options.trustedCaFile} holds no PEM certificate`);
  return [...rootCertificates, pem];
}

export class Transport {
  private readonly agent: Agent;

  constructor(options: TransportOptions = {}) {
    const ca = trustedCas(options);
    this.agent = new Agent({
      connect: { timeout: CONNECT_TIMEOUT_MS, ...(ca === undefined ? {} : { ca }) },
      headersTimeout: RESPONSE_TIMEOUT_MS,
      bodyTimeout: RESPONSE_TIMEOUT_MS,
      keepAliveTimeout: 10_000,
    });
  }

  /** One GET; what is a network failure becomes a SourceError (transient or not), never with the URL in it. */
  async get(url: string, headers: Record<string, string>, what: string): Promise<HttpResponse> {
    let response;
    try {
      response = await request(url, { method: 'GET', headers, dispatcher: this.agent });
    } catch (error) {
      throw networkFailure(error, what);
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
        if (size > MAX_BODY_BYTES) {
          response.body.destroy();
          throw new SourceError(`${what}: the response is larger than ${String(MAX_BODY_BYTES / 1024 / 1024)} MiB; lower PageSize`, false);
        }
        chunks.push(buffer);
      }
    } catch (error) {
      throw networkFailure(error, what);
    }
    return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') };
  }

  /** A fetch for the OAuth client: this pool, redirects returned rather than followed. */
  readonly fetch = (url: string, init: Parameters<typeof undiciFetch>[1]): ReturnType<typeof undiciFetch> =>
    undiciFetch(url, { ...init, dispatcher: this.agent, redirect: 'manual' });

  close(): Promise<void> {
    return this.agent.close();
  }
}
