/**
 * The registry API server (fastify 5): routes registered from the one route table (main/net/api-routes.ts)
 * over an EngineClient (the local engine). One factory for `mpi-console serve` and the tests.
 *
 * fastify rather than node:http because what the API needs is built in and well kept: content-type parsing
 * that refuses other media types (415), a body limit enforced while reading (413, before any parse), request
 * timeouts, pino logging with a child logger per request id, graceful close (stop accepting, finish
 * in-flight requests, close idle keep-alive connections, 503 while closing) and `inject` for tests.
 *
 * Per request: request id → route → authentication and scope (onRequest, before the body is read: a caller
 * without a valid token never makes the server parse a large body) → body parse (a body over INLINE_BODY_BYTES is
 * left as bytes, and the engine pool parses it on a thread of its own: net/json-body.ts) → input from path, query or
 * body → the engine (validates against the contract) → JSON answer, or problem+json.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { EngineError, isEngineError, validationError } from '../../engine/contract/errors.ts';
import type {
  CallContext,
  EngineClient,
  OperationInput,
  OperationName,
  OperationOutput,
} from '../../engine/contract/operations.ts';
import { fillPath, HTTP_ROUTES, OPENAPI_PATH, queryInput, routeFor, type HttpRoute } from '../net/api-routes.ts';
import { AuthFailure, type Authenticator, type Principal } from './auth/principal.ts';
import { challenge } from './auth/bearer.ts';
import { openApiDocument } from './openapi.ts';
import { COMMON_HEADERS, rawProblem, sendProblem, STATUS_OF_KIND, type ProblemSpec } from './problem.ts';
import { apiLogger } from './logging.ts';
import { unexpectedTrace } from '../../engine/host-side.ts';
import {
  DeferredBody,
  INLINE_BODY_BYTES,
  isMalformedBody,
  parseJsonBody,
  withPathParameters,
  bodyText,
  type BodyBytes,
} from '../net/json-body.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    operation?: OperationName;
  }
}

/** A 10,000-pair dataset with references at their maximum lengths (100 + 200 characters a side) is about 7 MB of JSON. */
export const DEFAULT_BODY_LIMIT = 16 * 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** An engine that can also be told that the caller went away (the engine pool: a run it waits for is cancelled). */
export interface CancellableEngine extends EngineClient {
  callWith<K extends OperationName>(
    name: K,
    input: OperationInput<K>,
    context: CallContext,
    signal?: AbortSignal,
  ): Promise<OperationOutput<K>>;
}

function isCancellable(engine: EngineClient): engine is CancellableEngine {
  return typeof (engine as Partial<CancellableEngine>).callWith === 'function';
}

/** An engine that parses a large body itself, on one of its threads (the engine pool; main/net/json-body.ts). */
export interface BodyEngine extends CancellableEngine {
  callWithBody<K extends OperationName>(
    name: K,
    body: BodyBytes,
    context: CallContext,
    signal?: AbortSignal,
  ): Promise<OperationOutput<K>>;
}

function takesBodies(engine: EngineClient): engine is BodyEngine {
  return typeof (engine as Partial<BodyEngine>).callWithBody === 'function';
}

export interface ApiOptions {
  /** The engine pool in a server (main/engine-host/pool.ts): engine work never runs on the thread that answers. */
  readonly engine: EngineClient;
  readonly authenticator: Authenticator;
  readonly logger?: Logger;
  /** The routes served (default: all of HTTP_ROUTES); tests serve the six spec endpoints alone. */
  readonly routes?: readonly HttpRoute[];
  readonly bodyLimitBytes?: number;
  /** Time to receive a whole request (headers and body); slower clients get 408. */
  readonly requestTimeoutMs?: number;
  readonly https?: { readonly key: string | Buffer; readonly cert: string | Buffer };
  readonly tenantClaim?: string;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'] as const;

function isEmptyObject(value: unknown): boolean {
  if (value instanceof DeferredBody) return /^\s*\{\s*\}\s*$/.test(bodyText(value.bytes));
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

/** The operation's input: path parameters, plus the query string or the JSON body. */
function requestInput(route: HttpRoute, request: FastifyRequest): unknown {
  const params = request.params as Record<string, string>;
  switch (route.input) {
    case 'none':
      if (request.body !== undefined && !isEmptyObject(request.body)) {
        throw validationError(`invalid input for ${route.operation}`, [
          { path: '(body)', message: 'this request takes no body' },
        ]);
      }
      if (Object.keys(request.query as object).length > 0) {
        throw validationError(`invalid input for ${route.operation}`, [
          { path: '(query)', message: 'this request takes no query parameters' },
        ]);
      }
      return { ...params };
    case 'query': {
      const query = queryInput(route.operation, request.query as Record<string, string | string[]>);
      return withPathParameters(route.operation, query, params);
    }
    case 'body': {
      // A large body read here only where the engine cannot read it on a thread of its own (an in-process engine).
      const body = request.body instanceof DeferredBody ? parseJsonBody(bodyText(request.body.bytes)) : request.body;
      return withPathParameters(route.operation, body, params);
    }
  }
}

function operationOf(request: FastifyRequest): OperationName | undefined {
  return request.routeOptions.config.operation;
}

function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const operation = operationOf(request);
  const op = operation === undefined ? {} : { operation };
  if (error instanceof AuthFailure) {
    if (error.status !== 503) reply.header('www-authenticate', challenge(error));
    const slug =
      error.status === 503
        ? 'identity-provider-unavailable'
        : (error.error ?? 'authentication-required').replace('_', '-');
    return sendProblem(reply, {
      status: error.status,
      slug,
      kind: error.status === 503 ? 'remote_http' : 'forbidden',
      detail: error.message,
      ...op,
    });
  }
  if (isEngineError(error) && isMalformedBody(error)) {
    return sendProblem(reply, {
      status: 400,
      slug: 'malformed-json',
      kind: 'validation',
      detail: error.message,
      issues: error.issues,
      ...op,
    });
  }
  if (isEngineError(error)) {
    // An internal error made from an unexpected one in this thread: where it happened, never its text. One the engine
    // named (a damaged database file, a full disk) is the operator's to mend, so its words go to the log too.
    if (error.kind === 'internal' && error.cause !== undefined)
      request.log.error({ error: { at: unexpectedTrace(error) } }, 'unexpected failure');
    else if (error.kind === 'internal') request.log.error({ error: { detail: error.message } }, 'internal failure');
    return sendProblem(reply, {
      status: STATUS_OF_KIND[error.kind],
      slug: error.kind.replace('_', '-'),
      kind: error.kind,
      detail: error.message,
      issues: error.issues,
      ...op,
    });
  }
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return sendProblem(reply, {
        status: 413,
        slug: 'body-too-large',
        kind: 'validation',
        detail: `the body is larger than ${String(request.routeOptions.bodyLimit)} bytes`,
        issues: [{ path: '(body)', message: `at most ${String(request.routeOptions.bodyLimit)} bytes` }],
        ...op,
      });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return sendProblem(reply, {
        status: 415,
        slug: 'unsupported-media-type',
        kind: 'validation',
        detail: 'send the body as Content-Type: application/json',
        issues: [{ path: '(content-type)', message: 'expected application/json' }],
        ...op,
      });
    default:
      break;
  }
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return sendProblem(reply, {
      status,
      slug: 'bad-request',
      kind: 'validation',
      detail: 'the request was refused',
      ...op,
    });
  }
  // Never the message: an unexpected error's text can quote data.
  request.log.error(
    {
      error: {
        name: error instanceof Error ? error.name : typeof error,
        code: typeof code === 'string' ? code : undefined,
        at: unexpectedTrace(error),
      },
    },
    'unexpected failure',
  );
  return sendProblem(reply, {
    status: 500,
    slug: 'internal',
    kind: 'internal',
    detail: 'the request failed unexpectedly; the server log has its request id',
    ...op,
  });
}

/**
 * Refusals fastify makes before routing (no route, hence no onRequest hook): as problem+json with the usual
 * headers, never quoting the path back (it is the caller's input, and an unauthenticated one at that).
 */
function frameworkRefusal(error: { code?: string }, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('x-request-id', request.id).headers(COMMON_HEADERS);
  switch (error.code) {
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return sendProblem(reply, {
        status: 414,
        slug: 'path-parameter-too-long',
        kind: 'validation',
        detail: `a path parameter is longer than ${String(MAX_PARAM_LENGTH)} characters`,
        issues: [{ path: '(path)', message: `each parameter at most ${String(MAX_PARAM_LENGTH)} characters` }],
      });
    case 'FST_ERR_BAD_URL':
      return sendProblem(reply, {
        status: 400,
        slug: 'malformed-url',
        kind: 'validation',
        detail: 'the path is not a valid URL path (a malformed percent-encoding)',
        issues: [{ path: '(path)', message: 'malformed percent-encoding' }],
      });
    default:
      return sendProblem(reply, {
        status: 400,
        slug: 'bad-request',
        kind: 'validation',
        detail: 'the request was refused',
      });
  }
}

/** What Node's HTTP parser refused, by its error code (https://nodejs.org/api/http.html#event-clienterror). */
function clientErrorSpec(code: string | undefined): ProblemSpec {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        slug: 'request-timeout',
        kind: 'validation',
        detail: 'the request did not arrive whole in time',
      };
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        slug: 'headers-too-large',
        kind: 'validation',
        detail: 'the request headers are larger than the server accepts',
        issues: [{ path: '(headers)', message: 'too large' }],
      };
    case 'HPE_INVALID_EOF_STATE':
      return {
        status: 400,
        slug: 'incomplete-body',
        kind: 'validation',
        detail: 'the request ended before the length its Content-Length announced',
        issues: [{ path: '(body)', message: 'shorter than Content-Length' }],
      };
    default:
      return {
        status: 400,
        slug: 'malformed-request',
        kind: 'validation',
        detail: 'the request is not valid HTTP/1.1',
      };
  }
}

/** Longest path parameter accepted (a job ID is at most 80 characters). */
const MAX_PARAM_LENGTH = 100;

export function buildApi(options: ApiOptions): FastifyInstance {
  const routes = options.routes ?? HTTP_ROUTES;
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  const common = {
    loggerInstance: options.logger ?? apiLogger(),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit,
    requestTimeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    requestIdHeader: false as const,
    genReqId: (raw: IncomingMessage) => {
      const given = raw.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    return503OnClosing: true,
    forceCloseConnections: 'idle' as const,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkRefusal,
    clientErrorHandler: (error: Error & { code?: string }, socket: import('node:net').Socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      if (socket.writable) socket.write(rawProblem(clientErrorSpec(error.code), randomUUID()));
      socket.destroy();
    },
  };
  // The HTTPS variant's instance type differs only in its raw server; the routes use neither.
  const app = (options.https === undefined
    ? Fastify(common)
    : Fastify({
        ...common,
        https: { key: options.https.key, cert: options.https.cert },
      })) as unknown as FastifyInstance;
  app.decorateRequest('principal', null);

  app.removeAllContentTypeParsers();
  // A small body is parsed here; a large one is left as bytes for an engine thread to parse (net/json-body.ts).
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length > INLINE_BODY_BYTES) {
      done(null, new DeferredBody(bytes));
      return;
    }
    try {
      done(null, parseJsonBody(bytes.toString('utf8')));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  // While closing, every answer closes its connection: a keep-alive connection whose request was in flight
  // when close began would otherwise hold the server open until its idle timeout.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        operation: operationOf(request) ?? null,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        tenant: request.principal?.tenantId ?? null,
        clientId: request.principal?.clientId ?? null,
      },
      'request',
    );
    done();
  });
  app.setErrorHandler((error, request, reply) => handleError(error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, {
      status: 404,
      slug: 'no-such-route',
      kind: 'not_found',
      detail: `no route ${request.method} on this path; see ${OPENAPI_PATH}`,
    }),
  );

  const document = JSON.stringify(openApiDocument(routes, options.tenantClaim));
  app.get(OPENAPI_PATH, (_request, reply) => reply.type('application/json').send(document));

  for (const route of routes) {
    const location = route.location === undefined ? undefined : routeFor(route.location);
    app.route({
      method: route.method,
      url: route.path.replace(/\{([A-Za-z0-9]+)\}/g, ':$1'),
      config: { operation: route.operation },
      onRequest: async (request) => {
        const principal = await options.authenticator.authenticate(request.headers.authorization);
        if (!principal.scopes.has(route.scope)) {
          request.principal = principal;
          throw new AuthFailure(
            403,
            'insufficient_scope',
            `this operation needs the ${route.scope} scope`,
            route.scope,
          );
        }
        request.principal = principal;
      },
      handler: async (request, reply) => {
        const principal = request.principal;
        if (principal === null) throw new EngineError('internal', 'no principal');
        const ctx = { tenantId: principal.tenantId, actor: `api:${principal.clientId}` };
        // A caller that disconnects before the answer (a synchronous evaluation it gave up on) cancels the run.
        const gone = new AbortController();
        const onClose = (): void => {
          if (!reply.raw.writableFinished) gone.abort();
        };
        reply.raw.once('close', onClose);
        const engine = options.engine;
        const body = request.body;
        const output =
          route.input === 'body' && body instanceof DeferredBody && takesBodies(engine)
            ? await engine.callWithBody(
                route.operation,
                { bytes: body.bytes, params: request.params as Record<string, string> },
                ctx,
                gone.signal,
              )
            : isCancellable(engine)
              ? await engine.callWith(route.operation, requestInput(route, request) as never, ctx, gone.signal)
              : await engine.call(route.operation, requestInput(route, request) as never, ctx);
        reply.raw.off('close', onClose);
        if (location !== undefined) reply.header('location', fillPath(location.path, output));
        return reply.code(route.status).send(output);
      },
    });
  }

  // 405 with Allow for the other methods on every path served.
  const byPath = new Map<string, Set<string>>([[OPENAPI_PATH, new Set(['GET', 'HEAD'])]]);
  for (const route of routes) {
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
    byPath.set(route.path, methods);
  }
  for (const [path, allowed] of byPath) {
    const others = METHODS.filter((m) => !allowed.has(m));
    app.route({
      method: others,
      url: path.replace(/\{([A-Za-z0-9]+)\}/g, ':$1'),
      handler: (request, reply) => {
        reply.header('allow', [...allowed].join(', '));
        return sendProblem(reply, {
          status: 405,
          slug: 'method-not-allowed',
          kind: 'validation',
          detail: `${request.method} is not allowed here; allowed: ${[...allowed].join(', ')}`,
          issues: [{ path: '(method)', message: `one of ${[...allowed].join(', ')}` }],
        });
      },
    });
  }
  return app;
}
