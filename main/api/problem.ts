/**
 * Error answers as RFC 9457 problem details (`application/problem+json`), carrying the engine's error kind
 * and issues (paths and rules, never values). The status codes the spec leaves open are chosen here, once;
 * docs/api.md lists them.
 */
import type { FastifyReply } from 'fastify';
import type { ErrorIssue, ErrorKind } from '../../engine/contract/errors.ts';
import { PROBLEM_CONTENT_TYPE, type Problem } from '../net/api-routes.ts';

/** The status of an engine error of each kind. */
export const STATUS_OF_KIND: Readonly<Record<ErrorKind, number>> = {
  validation: 422,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  remote_http: 502,
  internal: 500,
};

const TITLES: Readonly<Record<number, string>> = {
  400: 'Malformed request',
  401: 'Authentication required',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  408: 'Request timeout',
  409: 'Conflict',
  413: 'Content too large',
  414: 'URI too long',
  415: 'Unsupported media type',
  422: 'Invalid request',
  431: 'Request header fields too large',
  500: 'Internal error',
  502: 'Upstream failure',
  503: 'Service unavailable',
};

export interface ProblemSpec {
  readonly status: number;
  /** The problem type's last word: `urn:mpi-console:problem:<slug>`. */
  readonly slug: string;
  readonly kind: ErrorKind;
  readonly detail: string;
  readonly issues?: readonly ErrorIssue[];
  readonly operation?: string;
}

export function problemBody(spec: ProblemSpec, requestId: string): Problem {
  return {
    type: `urn:mpi-console:problem:${spec.slug}`,
    title: TITLES[spec.status] ?? 'Error',
    status: spec.status,
    detail: spec.detail,
    instance: `urn:mpi-console:request:${requestId}`,
    kind: spec.kind,
    issues: [...(spec.issues ?? [])],
    ...(spec.operation === undefined ? {} : { operation: spec.operation }),
  };
}

/** The headers every answer carries (the API's onRequest hook sets them; refusals made before it need them too). */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/**
 * A problem answer written straight to a socket, for refusals made by Node's HTTP parser before any request
 * exists (a header block too large, a body shorter than its Content-Length, a client too slow): the same
 * problem+json and headers as every other answer, a fresh request id, nothing of the request quoted back.
 */
export function rawProblem(spec: ProblemSpec, requestId: string): string {
  const body = JSON.stringify(problemBody(spec, requestId));
  const headers = [
    `HTTP/1.1 ${String(spec.status)} ${TITLES[spec.status] ?? 'Error'}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
    `Content-Length: ${String(Buffer.byteLength(body))}`,
    ...Object.entries(COMMON_HEADERS).map(([name, value]) => `${name}: ${value}`),
    `X-Request-Id: ${requestId}`,
    'Connection: close',
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

export function sendProblem(reply: FastifyReply, spec: ProblemSpec): FastifyReply {
  return reply
    .code(spec.status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(problemBody(spec, reply.request.id)));
}
