/**
 * The client of one configured FHIR source: reads its secret (secrets.ts), authenticates (None, a bearer
 * token, or OAuth client credentials with one token refetch on a 401), fetches search pages with bounded
 * retries of transient failures, and checks every next link before it is followed. It holds no registry
 * state: the importing phase (engine/jobs/import-phase.ts) owns the durable cursor.
 *
 * It is polite and bounded against a source that is somebody else's production server: requests (pages and
 * tokens) start at most MaxRequestsPerSecond; each has the overall deadline RequestTimeoutSeconds; a next link
 * naming a page this client already read (a loop: page 1 → 2 → 1) fails the import; a page body is bounded by
 * what PageSize entries can weigh. Every request and every backoff wait is abandoned at once when the caller's
 * signal aborts.
 */
import { createHash } from 'node:crypto';
import type { FhirSource } from '../config/fhir-sources.ts';
import { MAX_RESOURCE_BYTES } from '../fhir/patient.ts';
import { readSecret } from './secrets.ts';
import { OTHER_ENTRIES_ALLOWED, readSearchPage, type SearchPage } from './bundle.ts';
import { checkedNextLink, firstPageUrl, type SearchWindow } from './search-url.ts';
import { retryAfterMs } from '../net/transient.ts';
import { SourceAborted, SourceError, statusFailure } from './source-error.ts';
import { abortableWait, DEFAULT_RETRY, withRetries, type RetryPolicy } from './retry.ts';
import { TokenSource } from './token.ts';
import { MAX_BODY_BYTES, Transport } from './transport.ts';

export interface SourceClientOptions {
  readonly allowInsecureHttp: boolean;
  /** Where the entry is in the configuration file, for errors: `Maintenance.FhirSources[2]`. */
  readonly key: string;
  readonly retry?: RetryPolicy;
  readonly onRetry?: (message: string, attempt: number, delayMs: number) => void;
}

export interface CheckedPage extends SearchPage {
  /** The validated next link, or null on the last page. */
  readonly nextUrl: string | null;
}

type Authorizer =
  | { readonly kind: 'none' }
  | { readonly kind: 'bearer'; readonly token: string }
  | { readonly kind: 'client-credentials'; readonly tokens: TokenSource };

const WHAT = 'the FHIR server';
/** What a Bundle entry carries beside its resource (fullUrl, search), and the Bundle's own envelope. */
const ENTRY_OVERHEAD_BYTES = 4 * 1024;
const ENVELOPE_BYTES = 64 * 1024;

export class FhirSourceClient {
  private readonly transport: Transport;
  private readonly authorizer: Authorizer;
  /** SHA-256 of every page URL read: a next link to one of them is a loop. */
  private readonly pagesRead = new Set<string>();
  /** When the next request may start (MaxRequestsPerSecond). */
  private nextStart = 0;

  constructor(
    readonly source: FhirSource,
    private readonly options: SourceClientOptions,
  ) {
    const auth = source.Authentication;
    const authKey = `${options.key}.Authentication`;
    this.transport = new Transport({
      trustedCaFile: source.TrustedCaFile,
      caKey: `${options.key}.TrustedCaFile`,
      requestTimeoutMs: source.RequestTimeoutSeconds * 1000,
    });
    switch (auth.Type) {
      case 'None':
        this.authorizer = { kind: 'none' };
        break;
      case 'BearerToken':
        this.authorizer = {
          kind: 'bearer',
          token: readSecret({
            key: `${authKey}.${auth.TokenFile === undefined ? 'TokenEnv' : 'TokenFile'}`,
            file: auth.TokenFile,
            env: auth.TokenEnv,
          }),
        };
        break;
      case 'ClientCredentials': {
        const clientSecret = readSecret({
          key: `${authKey}.${auth.ClientSecretFile === undefined ? 'ClientSecretEnv' : 'ClientSecretFile'}`,
          file: auth.ClientSecretFile,
          env: auth.ClientSecretEnv,
        });
        this.authorizer = {
          kind: 'client-credentials',
          tokens: new TokenSource(
            {
              tokenEndpoint: auth.TokenEndpoint,
              clientId: auth.ClientId,
              clientSecret,
              scope: auth.Scope,
              allowInsecureHttp: options.allowInsecureHttp,
            },
            this.transport,
          ),
        };
        break;
      }
    }
  }

  get authenticationType(): FhirSource['Authentication']['Type'] {
    return this.source.Authentication.Type;
  }

  /** True when the source is reached over plain HTTP (permitted by AllowInsecureHttp only). */
  get insecure(): boolean {
    return new URL(this.source.BaseUrl).protocol === 'http:';
  }

  firstPageUrl(window: SearchWindow): string {
    return firstPageUrl(this.source.BaseUrl, this.source.PatientSearchParameters, window);
  }

  /** An access token now (client credentials), or nothing to do; for `sources check`. */
  async authenticate(signal?: AbortSignal): Promise<void> {
    if (this.authorizer.kind === 'client-credentials') {
      const { tokens } = this.authorizer;
      await withRetries(
        async () => {
          await this.pace(signal);
          return tokens.token(signal);
        },
        this.options.retry ?? DEFAULT_RETRY,
        undefined,
        (ms) => abortableWait(ms, signal),
      );
    }
  }

  /** Waits until a request may start under MaxRequestsPerSecond (abandoned when the signal aborts). */
  private async pace(signal: AbortSignal | undefined): Promise<void> {
    const now = Date.now();
    const start = Math.max(now, this.nextStart);
    this.nextStart = start + 1000 / this.source.MaxRequestsPerSecond;
    if (start > now) await abortableWait(start - now, signal);
  }

  private async authorization(fresh: boolean, signal: AbortSignal | undefined): Promise<Record<string, string>> {
    switch (this.authorizer.kind) {
      case 'none':
        return {};
      case 'bearer':
        return { authorization: `Bearer ${this.authorizer.token}` };
      case 'client-credentials': {
        const { tokens } = this.authorizer;
        if (fresh) tokens.invalidate();
        const cached = tokens.cachedToken();
        if (cached !== undefined) return { authorization: `Bearer ${cached}` };
        await this.pace(signal);
        return { authorization: `Bearer ${await tokens.token(signal)}` };
      }
    }
  }

  /** The largest page body PageSize entries can make: each at most a Patient's size limit, plus the envelope. */
  private get maxPageBytes(): number {
    return Math.min(
      MAX_BODY_BYTES,
      (this.source.PageSize + OTHER_ENTRIES_ALLOWED) * (MAX_RESOURCE_BYTES + ENTRY_OVERHEAD_BYTES) + ENVELOPE_BYTES,
    );
  }

  private async fetchOnce(url: string, signal: AbortSignal | undefined): Promise<string> {
    const request = async (fresh: boolean) => {
      const headers = { accept: 'application/fhir+json', ...(await this.authorization(fresh, signal)) };
      await this.pace(signal);
      return this.transport.get(url, headers, WHAT, {
        signal,
        maxBodyBytes: this.maxPageBytes,
        tooLarge: `a page is larger than ${String(mebibytes(this.maxPageBytes))} MiB, more than ${String(this.source.PageSize)} Patients (PageSize) can weigh; nothing of it was imported`,
      });
    };
    let response = await request(false);
    if (response.status === 401 && this.authorizer.kind === 'client-credentials') {
      // The token may have been revoked or expired early: one new token, once.
      response = await request(true);
    }
    if (response.status !== 200)
      throw statusFailure(response.status, WHAT, retryAfterMs(response.headers['retry-after']));
    return response.body;
  }

  /**
   * One search page, its next link checked against BaseUrl and against the pages already read. The signal
   * abandons the request and any backoff wait at once (SourceAborted).
   */
  async page(url: string, signal?: AbortSignal): Promise<CheckedPage> {
    const onRetry = this.options.onRetry;
    this.pagesRead.add(digest(url));
    const body = await withRetries(
      () => this.fetchOnce(url, signal),
      this.options.retry ?? DEFAULT_RETRY,
      onRetry === undefined
        ? undefined
        : (error, attempt, delay) => {
            onRetry(error.message, attempt, delay);
          },
      (ms) => abortableWait(ms, signal),
    );
    if (signal?.aborted === true) throw new SourceAborted();
    const page = readSearchPage(body, this.source.PageSize);
    if (page.next === null) return { ...page, nextUrl: null };
    const nextUrl = checkedNextLink(page.next, this.source.BaseUrl);
    if (nextUrl === url)
      throw new SourceError("the server's next-page link was not followed: it names the page just read", false);
    if (this.pagesRead.has(digest(nextUrl)))
      throw new SourceError(
        "the server's next-page link was not followed: it names a page this import already read (the pages loop)",
        false,
      );
    return { ...page, nextUrl };
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

function digest(url: string): string {
  return createHash('sha256').update(url).digest('base64');
}

function mebibytes(bytes: number): number {
  return Math.round(bytes / 1024 / 1024);
}
