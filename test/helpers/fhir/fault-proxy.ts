/**
 * A fault-injecting HTTPS proxy in front of the FHIR server (the test CA on both sides). A queued fault
 * applies to one request (after `skip` requests pass untouched); without one, requests and responses pass
 * through unchanged (the Host header is kept, so the server's next links name the proxy).
 */
import { request as httpsRequest, createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestTls } from './test-ca.ts';

export type Fault =
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter?: string }
  | { readonly kind: 'reset' }
  | { readonly kind: 'malformed-json' }
  | { readonly kind: 'not-a-bundle' }
  | { readonly kind: 'next-other-origin'; readonly origin: string }
  | { readonly kind: 'next-other-path' }
  | { readonly kind: 'redirect'; readonly location: string };

export interface FaultProxy {
  readonly origin: string;
  /** Queues a fault for one request, after `skip` requests that pass untouched. */
  inject(fault: Fault, skip?: number): void;
  /** Requests seen, and faults applied. */
  readonly seen: { path: string; fault: Fault['kind'] | null }[];
  close(): Promise<void>;
}

interface Upstream {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

function forward(upstreamOrigin: string, ca: string, request: IncomingMessage): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const target = new URL(request.url ?? '/', upstreamOrigin);
    const outgoing = httpsRequest(
      target,
      { method: request.method ?? 'GET', headers: request.headers, ca },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          resolve({ status: incoming.statusCode ?? 502, headers: incoming.headers, body: Buffer.concat(chunks) });
        });
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    request.pipe(outgoing);
  });
}

function sendJson(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    'content-type': 'application/fhir+json',
    'content-length': String(Buffer.byteLength(text)),
  });
  response.end(text);
}

/** The upstream page with its next link moved (another origin, or another base path on this one). */
function movedNext(body: Buffer, move: (next: URL) => string): string {
  const bundle = JSON.parse(body.toString('utf8')) as { link?: { relation: string; url: string }[] };
  const next = bundle.link?.find((l) => l.relation === 'next');
  const url = next === undefined ? undefined : new URL(next.url);
  const moved = move(url ?? new URL('https://127.0.0.1/fhir/R4?_getpages=x'));
  bundle.link = [...(bundle.link ?? []).filter((l) => l.relation !== 'next'), { relation: 'next', url: moved }];
  return JSON.stringify(bundle);
}

export async function startFaultProxy(tls: TestTls, upstreamOrigin: string): Promise<FaultProxy> {
  const queue: { fault: Fault; skip: number }[] = [];
  const seen: FaultProxy['seen'] = [];
  const server: Server = createServer({ key: tls.key, cert: tls.cert });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${String((server.address() as AddressInfo).port)}`;

  function nextFault(): Fault | null {
    const head = queue[0];
    if (head === undefined) return null;
    if (head.skip > 0) {
      head.skip--;
      return null;
    }
    queue.shift();
    return head.fault;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const fault = nextFault();
    seen.push({ path: new URL(request.url ?? '/', origin).pathname, fault: fault?.kind ?? null });
    switch (fault?.kind) {
      case 'status':
        response.writeHead(fault.status, {
          'content-type': 'application/fhir+json',
          ...(fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter }),
        });
        response.end('{"resourceType":"OperationOutcome","issue":[{"severity":"error","code":"transient"}]}');
        return;
      case 'reset':
        request.socket.destroy();
        return;
      case 'malformed-json':
        sendJson(response, 200, '{"resourceType":"Bundle","type":"searchset","entry":[{"resource":');
        return;
      case 'not-a-bundle':
        sendJson(
          response,
          200,
          '{"resourceType":"OperationOutcome","issue":[{"severity":"information","code":"informational"}]}',
        );
        return;
      case 'redirect':
        response.writeHead(302, { location: fault.location, 'content-length': '0' });
        response.end();
        return;
      default:
        break;
    }
    const upstream = await forward(upstreamOrigin, tls.caPem, request);
    if (fault?.kind === 'next-other-origin') {
      sendJson(
        response,
        upstream.status,
        movedNext(upstream.body, (next) => `${fault.origin}${next.pathname}${next.search}`),
      );
      return;
    }
    if (fault?.kind === 'next-other-path') {
      sendJson(
        response,
        upstream.status,
        movedNext(upstream.body, (next) => `${next.origin}/other${next.pathname}${next.search}`),
      );
      return;
    }
    const headers = { ...upstream.headers };
    delete headers['transfer-encoding'];
    headers['content-length'] = String(upstream.body.length);
    response.writeHead(upstream.status, headers);
    response.end(upstream.body);
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) sendJson(response, 502, '{}');
      else response.destroy();
    });
  });

  return {
    origin,
    inject(fault, skip = 0) {
      queue.push({ fault, skip });
    },
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
