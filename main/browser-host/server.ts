/**
 * The browser host's HTTP server on 127.0.0.1: the built renderer, the operations (POST /api/op/NAME, JSON
 * in, a Reply out) and the pushes (GET /api/events, server-sent events), every API request guarded by the
 * per-launch session (session-guard.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorKind } from '../../engine/contract/errors.ts';
import type { ConsoleBackend } from '../backend/console-backend.ts';
import { contentSecurityPolicy } from '../backend/content-security-policy.ts';
import { SessionGuard, type Refusal } from './session-guard.ts';
import { staticFile } from '../backend/static-files.ts';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../net/json-depth.ts';

const MAX_BODY_BYTES = 8 * 1024 * 1024;
const HEARTBEAT_MS = 15_000;

const STATUS_OF: Record<ErrorKind, number> = {
  validation: 400,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  remote_http: 502,
  internal: 500,
};

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=(), payment=()',
} as const;

export interface BrowserHostOptions {
  readonly backend: ConsoleBackend;
  /** The built renderer (index.html and assets/). */
  readonly staticDir: string;
  /** 0 (default): a free port chosen by the system. */
  readonly port?: number;
}

export interface BrowserHost {
  /** The address to open once: it carries the launch token. */
  readonly launchUrl: string;
  readonly origin: string;
  readonly guard: SessionGuard;
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, headers: Record<string, string>, body?: string | Buffer): void {
  response.writeHead(status, { ...SECURITY_HEADERS, ...headers });
  response.end(body);
}

function refuse(response: ServerResponse, refusal: Refusal): void {
  const kind: ErrorKind = refusal.status === 400 ? 'validation' : 'forbidden';
  send(
    response,
    refusal.status,
    { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    JSON.stringify({ ok: false, error: { type: 'EngineError', kind, message: refusal.reason, issues: [] } }),
  );
}

async function readJson(
  request: IncomingMessage,
): Promise<
  { ok: true; value: unknown } | { ok: false; refusal: Refusal & { status: 400 } } | { ok: false; tooLarge: true }
> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return { ok: false, tooLarge: true };
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, refusal: { status: 400, reason: 'the request body is not valid JSON' } };
  }
  return nestedDeeperThan(value)
    ? {
        ok: false,
        refusal: { status: 400, reason: `the request body nests deeper than ${String(MAX_JSON_DEPTH)} levels` },
      }
    : { ok: true, value };
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const { backend } = options;
  const streams = new Set<ServerResponse>();
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The guard needs the port; requests are handled from the next turn of the event loop, after this.
  const guard = new SessionGuard((server.address() as AddressInfo).port);

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', guard.origin);
    const method = request.method ?? 'GET';

    if (url.pathname.startsWith('/api/')) {
      const refusal = guard.checkApi(method, request.headers);
      if (refusal !== null) {
        refuse(response, refusal);
        return;
      }
      if (url.pathname === '/api/events' && method === 'GET') {
        openStream(response);
        return;
      }
      if (url.pathname.startsWith('/api/op/') && method === 'POST') {
        if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
          send(response, 415, { 'content-type': 'text/plain; charset=utf-8' }, 'operations take application/json');
          return;
        }
        const body = await readJson(request);
        if (!body.ok) {
          if ('tooLarge' in body)
            send(
              response,
              413,
              { 'content-type': 'text/plain; charset=utf-8', connection: 'close' },
              'request body too large',
            );
          else refuse(response, body.refusal);
          return;
        }
        const reply = await backend.send(url.pathname.slice('/api/op/'.length), body.value);
        send(
          response,
          reply.ok ? 200 : STATUS_OF[reply.error.kind],
          { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
          JSON.stringify(reply),
        );
        return;
      }
      send(response, 404, { 'content-type': 'text/plain; charset=utf-8' }, 'no such API route');
      return;
    }

    const hostRefusal = guard.checkHost(request.headers);
    if (hostRefusal !== null) {
      send(response, 403, { 'content-type': 'text/plain; charset=utf-8' }, hostRefusal.reason);
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      send(response, 405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }, 'method not allowed');
      return;
    }
    if (url.pathname === '/open') {
      if (!guard.acceptsToken(url.searchParams.get('token'))) {
        send(
          response,
          403,
          { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
          'This link is not valid for this console. Open the address printed by `npm start`.',
        );
        return;
      }
      // 303 to the app: the token leaves the address bar and the history.
      send(response, 303, { location: '/', 'set-cookie': guard.sessionCookie(), 'cache-control': 'no-store' });
      return;
    }
    const file = await staticFile(options.staticDir, url.pathname);
    if (file === undefined) {
      send(response, 404, { 'content-type': 'text/plain; charset=utf-8' }, 'not found');
      return;
    }
    send(
      response,
      200,
      {
        'content-type': file.type,
        'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        ...(file.type.startsWith('text/html') ? { 'content-security-policy': contentSecurityPolicy() } : {}),
      },
      method === 'HEAD' ? undefined : file.body,
    );
  };

  const openStream = (response: ServerResponse): void => {
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    response.write('retry: 2000\n\n');
    streams.add(response);
    const unsubscribe = backend.subscribe((event, payload) => {
      response.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
    });
    const heartbeat = setInterval(() => {
      response.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    heartbeat.unref();
    response.once('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(response);
    });
  };

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) send(response, 500, { 'content-type': 'text/plain; charset=utf-8' }, 'internal error');
      else response.destroy();
    });
  });

  return {
    launchUrl: guard.launchUrl,
    origin: guard.origin,
    guard,
    close: async () => {
      for (const stream of streams) stream.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
