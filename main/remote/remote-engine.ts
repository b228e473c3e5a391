/**
 * The remote registry client: the contract's operations over the registry API (undici 7), through the one
 * route table (main/net/api-routes.ts). What it guarantees:
 *
 * - https only, except to a loopback host or with the explicit development switch; no user:password in the
 *   URL; redirects are never followed (a 3xx is an error), so the bearer token never reaches another origin;
 * - the registry validates the input with the operation's schema (its refusal carries the same issues the local
 *   engine gives); the answer is validated here with the output schema, so nothing outside the contract gets in;
 * - errors come back as the same EngineError kinds the local engine throws, with their issues (a problem+json
 *   answer carries them; otherwise the status decides);
 * - timeouts on every attempt; GETs (idempotent) are retried on transient failures (408, 425, 429, 5xx, a
 *   reset or refused connection, a timeout) with exponential backoff, honouring Retry-After; POSTs never;
 * - an operation without a route, or an extension this registry does not list in its OpenAPI document (read
 *   once), fails with "not offered by this registry" before any request; a registry with only the six spec
 *   endpoints offers no extension;
 * - a long assurance operation (estimate, evaluation, calibration, label sample, candidate draw) goes as a tracked
 *   run where the registry offers runs: started, then its state read with a long poll (RUN_WAIT_MS) until it ends, so
 *   no request stays open while it computes and none can time out under it; progress is reported and a cancel (the
 *   caller's signal) reaches the run. A registry without runs gets the synchronous endpoint.
 *
 * The tenant is the token's: CallContext.tenantId and actor are not sent (the registry takes both from the
 * token). The connection pool is made with the first request (LazyAgent), so a command on a local sandbox never
 * loads undici.
 */
import { EngineError, validationError } from '../../engine/contract/errors.ts';
import {
  operations,
  type CallContext,
  type EngineClient,
  type OperationInput,
  type OperationName,
  type OperationOutput,
} from '../../engine/contract/operations.ts';
import { zodIssues } from '../../engine/contract/zod-issues.ts';
import { isFinalRunStatus, isRunOperation, type RunOperation, type RunProgress } from '../../engine/contract/runs.ts';
import {
  HTTP_ROUTES,
  OPENAPI_PATH,
  ProblemSchema,
  routeFor,
  routeRequest,
  SPEC_OPERATIONS,
  type HttpRoute,
  type RouteRequest,
} from '../net/api-routes.ts';
import { transportProblem } from '../net/loopback.ts';
import {
  fullJitterBackoff,
  isTransientNetworkError,
  isTransientStatus,
  LazyAgent,
  networkErrorCode,
  retryAfterMs,
} from '../../engine/host-side.ts';
import type { TokenProvider } from './token-provider.ts';

export interface RemoteEngineOptions {
  /** The registry's base URL; routes are under it (`<base>/api/v1/...`). */
  readonly baseUrl: string;
  readonly tokens: TokenProvider;
  /** Development only: allow plain http to a host that is not loopback. */
  readonly allowInsecureHttp?: boolean;
  /** Per attempt: connecting, the answer's headers, and each gap while its body arrives (default 60 s). */
  readonly timeoutMs?: number;
  /** Extra attempts of a GET after a transient failure (default 3). */
  readonly retries?: number;
  /** First backoff ceiling (default 250 ms); doubles per attempt. */
  readonly backoffMs?: number;
  /** A Retry-After longer than this is not waited for: the call fails and says so (default 30 s). */
  readonly maxRetryAfterMs?: number;
  /** Extra trusted CA certificate(s) (PEM) for a registry with a private CA. */
  readonly ca?: string | Buffer;
  /** An answer larger than this is refused (default 64 MiB). */
  readonly maxResponseBytes?: number;
  /** How to wait between attempts (tests record the delays instead of sleeping). */
  readonly sleep?: (ms: number) => Promise<void>;
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** How long one read of a run's state waits for the run to end (a long poll; progress is shown at least this often). */
const RUN_WAIT_MS = 1_000;

export interface RemoteCallOptions {
  /** A run's progress, as the registry reports it. */
  readonly onProgress?: (progress: RunProgress) => void;
  /** Aborting it cancels the run on the registry. */
  readonly signal?: AbortSignal;
  /** Told the run's ID as soon as it is started. */
  readonly onStarted?: (runId: string) => void;
}

export function notOffered(name: OperationName, why: string): EngineError {
  return new EngineError('remote_http', `${name} is not offered by this registry (${why})`, [
    { path: '(operation)', message: 'not offered by this registry' },
  ]);
}

function header(headers: Answer['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export class RemoteEngine implements EngineClient {
  private readonly base: URL;
  private readonly pool: LazyAgent;
  private readonly options: RemoteEngineOptions;
  private offered: Promise<ReadonlySet<OperationName>> | undefined;

  constructor(options: RemoteEngineOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw validationError('the registry URL is not a URL', [
        { path: 'remote', message: 'expected an absolute https URL' },
      ]);
    }
    const problem = transportProblem(base, options.allowInsecureHttp ?? false);
    if (problem !== undefined)
      throw validationError(`the registry URL is refused: ${problem}`, [{ path: 'remote', message: problem }]);
    if (base.search !== '' || base.hash !== '')
      throw validationError('the registry URL must not carry a query or fragment', [
        { path: 'remote', message: 'no ? or #' },
      ]);
    this.base = base;
    this.options = options;
    const timeout = options.timeoutMs ?? 60_000;
    this.pool = new LazyAgent({
      connect: { timeout, ...(options.ca === undefined ? {} : { ca: options.ca }) },
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
  }

  /** The registry's origin and base path (never a token). */
  get url(): string {
    return this.base.href;
  }

  /**
   * The operations this registry offers: the six spec endpoints, plus each extension listed (same method and
   * path) in its OpenAPI document. Read once; a registry without the document offers the spec endpoints only.
   */
  offeredOperations(): Promise<ReadonlySet<OperationName>> {
    this.offered ??= this.readOffered().catch((error: unknown) => {
      this.offered = undefined;
      throw error;
    });
    return this.offered;
  }

  async call<K extends OperationName>(
    name: K,
    input: OperationInput<K>,
    context: CallContext,
  ): Promise<OperationOutput<K>> {
    return this.callWith(name, input, context);
  }

  /** A call whose run, if it is one, reports progress and is cancelled when the signal aborts. */
  async callWith<K extends OperationName>(
    name: K,
    input: OperationInput<K>,
    _context: CallContext,
    options: RemoteCallOptions | AbortSignal = {},
  ): Promise<OperationOutput<K>> {
    const callOptions: RemoteCallOptions = options instanceof AbortSignal ? { signal: options } : options;
    if (isRunOperation(name) && (await this.offeredOperations()).has('runs/start'))
      return (await this.viaRun(name, input, callOptions)) as OperationOutput<K>;
    return this.direct(name, input);
  }

  /** The operation as a tracked run: start, poll until it ends, the output checked against the operation's schema. */
  private async viaRun(operation: RunOperation, input: unknown, options: RemoteCallOptions): Promise<unknown> {
    let state = await this.direct('runs/start', { operation, input });
    options.onStarted?.(state.runId);
    let cancelled = false;
    const cancel = (): void => {
      if (cancelled) return;
      cancelled = true;
      void this.direct('runs/cancel', { runId: state.runId }).catch(() => undefined);
    };
    options.signal?.addEventListener('abort', cancel, { once: true });
    if (options.signal?.aborted === true) cancel();
    try {
      while (!isFinalRunStatus(state.status)) {
        if (state.progress !== null) options.onProgress?.(state.progress);
        state = await this.direct('runs/get', { runId: state.runId, waitMs: RUN_WAIT_MS });
      }
    } finally {
      options.signal?.removeEventListener('abort', cancel);
    }
    if (state.status !== 'completed') {
      const error = state.error ?? {
        kind: 'remote_http' as const,
        message: `the run ended ${state.status} without a reason`,
        issues: [],
      };
      throw new EngineError(error.kind, error.message, error.issues);
    }
    const output = operations[operation].output.safeParse(state.output);
    if (!output.success)
      throw new EngineError(
        'remote_http',
        `the registry's answer to ${operation} does not match the contract`,
        zodIssues(output.error, '', false),
      );
    return output.data;
  }

  private async direct<K extends OperationName>(name: K, input: OperationInput<K>): Promise<OperationOutput<K>> {
    const route = routeFor(name);
    if (route === undefined) throw notOffered(name, 'the registry API has no route for it');
    if (route.extension && !(await this.offeredOperations()).has(name))
      throw notOffered(name, `an extension that ${OPENAPI_PATH} does not list`);
    // Typed callers pass an object; untyped ones (IPC, JavaScript) may not.
    const raw: unknown = input;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw validationError(`invalid input for ${name}`, [{ path: '(root)', message: 'expected object' }]);
    let routed: RouteRequest;
    try {
      routed = routeRequest(route, input);
    } catch {
      throw validationError(`invalid input for ${name}`, [
        { path: '(query)', message: 'query inputs are strings, numbers or booleans' },
      ]);
    }
    // The registry validates the input with the same schema and answers with the same issues; checking it here
    // too would only add its cost (13 ms for 10,000 pairs) to every valid call.
    const answer = await this.send(route, routed, true);
    if (answer.status < 200 || answer.status > 299) throw this.errorOf(route, answer);
    const output = operations[name].output.safeParse(this.json(answer, route));
    if (!output.success) {
      throw new EngineError(
        'remote_http',
        `the registry's answer to ${name} does not match the contract`,
        zodIssues(output.error, '', false),
      );
    }
    return output.data as OperationOutput<K>;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async readOffered(): Promise<ReadonlySet<OperationName>> {
    const offered = new Set<OperationName>(SPEC_OPERATIONS);
    const answer = await this.send({ method: 'GET', path: OPENAPI_PATH }, { path: OPENAPI_PATH }, false);
    if (answer.status !== 200) return offered;
    let paths: Record<string, Record<string, unknown> | undefined>;
    try {
      paths = ((JSON.parse(answer.text) as { paths?: unknown }).paths ?? {}) as typeof paths;
    } catch {
      return offered;
    }
    for (const route of HTTP_ROUTES) {
      if (route.extension && typeof paths[route.path]?.[route.method.toLowerCase()] === 'object')
        offered.add(route.operation);
    }
    return offered;
  }

  private target(request: RouteRequest): URL {
    const url = new URL(this.base.href);
    url.pathname = `${this.base.pathname.replace(/\/+$/, '')}${request.path}`;
    for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, value);
    return url;
  }

  private async send(
    route: Pick<HttpRoute, 'method' | 'path'>,
    routed: RouteRequest,
    authorised: boolean,
  ): Promise<Answer> {
    const idempotent = route.method === 'GET';
    const retries = idempotent ? (this.options.retries ?? 3) : 0;
    const wait = this.options.sleep ?? sleep;
    const body = routed.body === undefined ? undefined : JSON.stringify(routed.body);
    const where = `${route.method} ${routed.path}`;
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { accept: 'application/json, application/problem+json' };
      if (authorised) headers.authorization = `Bearer ${await this.options.tokens.token()}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      let answer: Answer;
      try {
        const { undici, agent } = await this.pool.connections();
        const response = await undici.request(this.target(routed), {
          method: route.method,
          headers,
          body: body ?? null,
          dispatcher: agent,
        });
        answer = {
          status: response.statusCode,
          headers: response.headers,
          text: await this.readBody(response.body, where),
        };
      } catch (error) {
        if (error instanceof EngineError) throw error;
        if (attempt < retries && isTransientNetworkError(error)) {
          await wait(Math.round(fullJitterBackoff(attempt, this.options.backoffMs ?? 250, 10_000)));
          continue;
        }
        throw this.networkError(error, where);
      }
      if (answer.status === 401 && authorised && !refreshed && this.options.tokens.refresh !== undefined) {
        // The registry refused the token before acting: asking again with a fresh one is safe for any method.
        refreshed = true;
        await this.options.tokens.refresh();
        continue;
      }
      if (attempt < retries && isTransientStatus(answer.status)) {
        const after = retryAfterMs(answer.headers['retry-after']);
        const limit = this.options.maxRetryAfterMs ?? 30_000;
        if (after !== undefined && after > limit) {
          throw new EngineError(
            'remote_http',
            `the registry asked to retry ${where} after ${String(Math.ceil(after / 1000))} s (answer ${String(answer.status)}), longer than this client waits`,
          );
        }
        await wait(after ?? Math.round(fullJitterBackoff(attempt, this.options.backoffMs ?? 250, 10_000)));
        continue;
      }
      if (answer.status >= 300 && answer.status <= 399) {
        throw new EngineError(
          'remote_http',
          `the registry answered ${where} with a redirect (${String(answer.status)}); redirects are not followed, so credentials never reach another origin. Use the registry's final URL`,
        );
      }
      return answer;
    }
  }

  private async readBody(body: AsyncIterable<Buffer> & { destroy(): void }, where: string): Promise<string> {
    const limit = this.options.maxResponseBytes ?? 64 * 1024 * 1024;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > limit) {
        body.destroy();
        throw new EngineError('remote_http', `the registry's answer to ${where} is larger than ${String(limit)} bytes`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, size).toString('utf8');
  }

  private networkError(error: unknown, where: string): EngineError {
    const code = networkErrorCode(error) ?? 'error';
    const at = this.base.origin;
    if (code.includes('TIMEOUT') || code === 'ETIMEDOUT') {
      return new EngineError(
        'remote_http',
        `the registry at ${at} did not answer ${where} in time: it may be busy or out of reach. Try again in a minute, or ask its administrator whether it is up (technical detail: ${code})`,
      );
    }
    if (code === 'ECONNREFUSED')
      return new EngineError('remote_http', `nothing is listening at ${at} (connection refused)`);
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return new EngineError('remote_http', `the registry host of ${at} cannot be resolved (${code})`);
    if (code.startsWith('ERR_TLS') || code.includes('CERT') || code.includes('SELF_SIGNED')) {
      return new EngineError(
        'remote_http',
        `the TLS certificate of ${at} is not trusted (${code}); give the registry's CA certificate`,
      );
    }
    return new EngineError(
      'remote_http',
      `the request ${where} to ${at} failed: check the network and the registry URL, then try again (technical detail: ${code})`,
    );
  }

  private json(answer: Answer, route: HttpRoute): unknown {
    try {
      return JSON.parse(answer.text);
    } catch {
      throw new EngineError(
        'remote_http',
        `the registry's answer to ${route.operation} is not JSON (status ${String(answer.status)})`,
      );
    }
  }

  /** A refusal as the EngineError the local engine would have thrown. */
  private errorOf(route: HttpRoute, answer: Answer): EngineError {
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      parsed = undefined;
    }
    const problem = ProblemSchema.safeParse(parsed);
    // A 404 or 405 that no operation answered: the registry does not know this route.
    if (
      route.extension &&
      (answer.status === 404 || answer.status === 405) &&
      (!problem.success || problem.data.operation === undefined)
    ) {
      return notOffered(
        route.operation,
        `the registry answered ${String(answer.status)} for ${route.method} ${route.path}`,
      );
    }
    if (answer.status === 401) {
      const detail = problem.success
        ? problem.data.detail
        : (/error_description="([^"]*)"/.exec(header(answer.headers, 'www-authenticate') ?? '')?.[1] ??
          'no reason given');
      return new EngineError('forbidden', `the registry refused the access token: ${detail}`);
    }
    if (problem.success) return new EngineError(problem.data.kind, problem.data.detail, problem.data.issues);
    const text = `the registry answered ${route.method} ${route.path} with ${String(answer.status)}`;
    if (answer.status === 403) return new EngineError('forbidden', text);
    if (answer.status === 404) return new EngineError('not_found', text);
    if (answer.status === 409) return new EngineError('conflict', text);
    if ([400, 413, 415, 422].includes(answer.status)) return new EngineError('validation', text);
    return new EngineError('remote_http', text);
  }
}
