/**
 * A FHIR source and token endpoint that misbehave on purpose, on loopback HTTPS (the test CA): each test sets the
 * handler that answers. It records every request (path, start time) and whether the client hung up on a response
 * still being sent, so a test can tell that a cancel or a shutdown abandoned a request rather than waited it out.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestTls } from './test-ca.ts';

export const HOSTILE_BASE_PATH = '/fhir/R4';
export const HOSTILE_TOKEN_PATH = '/oauth/token';

export type Handler = (request: IncomingMessage, response: ServerResponse, url: URL) => void;

export interface HostileServer {
  readonly origin: string;
  /** The answer to every request until replaced. */
  handle(handler: Handler): void;
  readonly requests: { readonly path: string; readonly at: number }[];
  /** Responses whose client closed the connection before the server finished sending. */
  readonly abandoned: () => number;
  close(): Promise<void>;
}

export async function startHostileServer(tls: TestTls): Promise<HostileServer> {
  let handler: Handler = (_request, response) => {
    response.writeHead(500).end();
  };
  let abandoned = 0;
  const requests: { path: string; at: number }[] = [];
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    const url = new URL(request.url ?? '/', 'https://127.0.0.1');
    requests.push({ path: url.pathname, at: Date.now() });
    response.on('close', () => {
      if (!response.writableFinished) abandoned++;
    });
    handler(request, response, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    handle(next) {
      handler = next;
    },
    requests,
    abandoned: () => abandoned,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** A searchset page: the entries' resources, and a next link when given. */
export function page(resources: readonly unknown[], next?: string): string {
  return JSON.stringify({
    resourceType: 'Bundle',
    type: 'searchset',
    ...(next === undefined ? {} : { link: [{ relation: 'next', url: next }] }),
    entry: resources.map((resource) => ({ resource, search: { mode: 'match' } })),
  });
}

export function sendJson(
  response: ServerResponse,
  body: string | Buffer,
  status = 200,
  headers: Record<string, string> = {},
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  response.writeHead(status, {
    'content-type': 'application/fhir+json',
    'content-length': String(bytes.length),
    ...headers,
  });
  response.end(bytes);
}

/** A token endpoint answer that openid-client accepts. */
export function sendToken(response: ServerResponse): void {
  const body = JSON.stringify({ access_token: 'hostile-test-token', token_type: 'Bearer', expires_in: 300 });
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  response.end(body);
}

/** Headers at once, then one byte of a page every `everyMs`, never finishing (until the client hangs up). */
export function trickle(response: ServerResponse, everyMs: number): void {
  response.writeHead(200, { 'content-type': 'application/fhir+json', 'content-length': '1000000' });
  const body = page([]);
  let at = 0;
  const timer = setInterval(() => {
    if (response.destroyed) {
      clearInterval(timer);
      return;
    }
    response.write(body.charAt(at % body.length));
    at++;
  }, everyMs);
  response.on('close', () => {
    clearInterval(timer);
  });
}
