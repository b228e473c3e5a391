/**
 * The client of one configured FHIR source: reads its secret (secrets.ts), authenticates (None, a bearer
 * token, or OAuth client credentials with one token refetch on a 401), fetches search pages with bounded
 * retries of transient failures, and checks every next link before it is followed. It holds no registry
 * state: the importing phase (engine/jobs/import-phase.ts) owns the durable cursor.
 */
import type { FhirSource } from '../config/fhir-sources.ts';
import { readSecret } from './secrets.ts';
import { readSearchPage, type SearchPage } from './bundle.ts';
import { checkedNextLink, firstPageUrl, type SearchWindow } from './search-url.ts';
import { retryAfterMs } from '../net/transient.ts';
import { SourceError, statusFailure } from './source-error.ts';
import { DEFAULT_RETRY, withRetries, type RetryPolicy } from './retry.ts';
import { TokenSource } from './token.ts';
import { Transport } from './transport.ts';

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

type Authorizer = { readonly kind: 'none' } | { readonly kind: 'bearer'; readonly token: string } | { readonly kind: 'client-credentials'; readonly tokens: TokenSource };

const WHAT = 'the FHIR server';

export class FhirSourceClient {
  private readonly transport: Transport;
  private readonly authorizer: Authorizer;

  constructor(
    readonly source: FhirSource,
    private readonly options: SourceClientOptions,
  ) {
    const auth = source.Authentication;
    const authKey = `${options.key}.Authentication`;
    this.transport = new Transport({ trustedCaFile: source.TrustedCaFile, caKey: `${options.key}.TrustedCaFile` });
    switch (auth.Type) {
      case 'None':
        this.authorizer = { kind: 'none' };
        break;
      case 'BearerToken':
        this.authorizer = { kind: 'bearer', token: readSecret({ key: `${authKey}.${auth.TokenFile === undefined ? 'TokenEnv' : 'TokenFile'}`, file: auth.TokenFile, env: auth.TokenEnv }) };
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
            { tokenEndpoint: auth.TokenEndpoint, clientId: auth.ClientId, clientSecret, scope: auth.Scope, allowInsecureHttp: options.allowInsecureHttp },
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
  async authenticate(): Promise<void> {
    if (this.authorizer.kind === 'client-credentials') {
      const { tokens } = this.authorizer;
      await withRetries(() => tokens.token(), this.options.retry ?? DEFAULT_RETRY);
    }
  }

  private async authorization(fresh: boolean): Promise<Record<string, string>> {
    switch (this.authorizer.kind) {
      case 'none':
        return {};
      case 'bearer':
        return { authorization: `Bearer ${this.authorizer.token}` };
      case 'client-credentials':
        if (fresh) this.authorizer.tokens.invalidate();
        return { authorization: `Bearer ${await this.authorizer.tokens.token()}` };
    }
  }

  private async fetchOnce(url: string): Promise<string> {
    const request = async (fresh: boolean) =>
      this.transport.get(url, { accept: 'application/fhir+json', ...(await this.authorization(fresh)) }, WHAT);
    let response = await request(false);
    if (response.status === 401 && this.authorizer.kind === 'client-credentials') {
      // The token may have been revoked or expired early: one new token, once.
      response = await request(true);
    }
    if (response.status !== 200) throw statusFailure(response.status, WHAT, retryAfterMs(response.headers['retry-after']));
    return response.body;
  }

  /** One search page, its next link checked against BaseUrl. */
  async page(url: string): Promise<CheckedPage> {
    const onRetry = this.options.onRetry;
    const body = await withRetries(
      () => this.fetchOnce(url),
      this.options.retry ?? DEFAULT_RETRY,
      onRetry === undefined ? undefined : (error, attempt, delay) => {
        onRetry(error.message, attempt, delay);
      },
    );
    const page = readSearchPage(body);
    if (page.next === null) return { ...page, nextUrl: null };
    const nextUrl = checkedNextLink(page.next, this.source.BaseUrl);
    if (nextUrl === url) throw new SourceError("the server's next-page link was not followed: it names the page just read", false);
    return { ...page, nextUrl };
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
