import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { ConsoleBackend } from '../../../main/backend/console-backend.ts';
import { contentSecurityPolicy } from '../../../main/backend/content-security-policy.ts';
import { startBrowserHost, type BrowserHost } from '../../../main/browser-host/server.ts';
import { scratchDir } from '../../helpers/temp.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let dir: string;
let backend: ConsoleBackend;
let host: BrowserHost;
let port: number;
let cookie: string;

function call(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${String(port)}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const origin = (): string => `http://127.0.0.1:${String(port)}`;
const api = (headers: Record<string, string> = {}, body = '{}'): Promise<Answer> =>
  call(
    'POST',
    '/api/op/console/status',
    { 'content-type': 'application/json', origin: origin(), cookie, ...headers },
    body,
  );

beforeAll(async () => {
  dir = scratchDir('mpi-host-').dir;
  const staticDir = join(dir, 'renderer');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(dir, 'outside.txt'), 'not served');
  backend = new ConsoleBackend({ dataFolder: join(dir, 'data'), actor: 'console:test' });
  host = await startBrowserHost({ backend, staticDir });
  port = Number(new URL(host.origin).port);
  const opened = await call('GET', new URL(host.launchUrl).pathname + new URL(host.launchUrl).search);
  const setCookie = opened.headers['set-cookie']?.[0] ?? '';
  cookie = setCookie.split(';')[0] ?? '';
});

afterAll(async () => {
  await host.close();
  await backend.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('browser host session guard', () => {
  it('listens on 127.0.0.1 only, on a port the system chose', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(port).toBeGreaterThan(0);
  });

  it('exchanges the launch token for an HttpOnly, SameSite=Strict cookie and drops the token from the address', async () => {
    const url = new URL(host.launchUrl);
    expect(url.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const opened = await call('GET', url.pathname + url.search);
    expect(opened.status).toBe(303);
    expect(opened.headers.location).toBe('/');
    const setCookie = opened.headers['set-cookie']?.[0] ?? '';
    expect(setCookie).toMatch(new RegExp(`^mpi-console-${String(port)}=[A-Za-z0-9_-]{43}; `));
    expect(setCookie.split('; ').slice(1).sort()).toEqual(['HttpOnly', 'Path=/', 'SameSite=Strict']);
    // The cookie is not the token: the printed link alone never authenticates an API request.
    expect(setCookie).not.toContain(url.searchParams.get('token') ?? 'x');
    expect((await api({ cookie: `mpi-console-${String(port)}=${url.searchParams.get('token') ?? ''}` })).status).toBe(
      401,
    );
  });

  it('refuses a wrong or missing launch token without setting a cookie', async () => {
    for (const path of [
      '/open?token=wrong',
      '/open',
      `/open?token=${new URL(host.launchUrl).searchParams.get('token') ?? ''}x`,
    ]) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(403);
      expect(answer.headers['set-cookie'], path).toBeUndefined();
    }
  });

  it('answers an API request with the session cookie, the right Origin and Host', async () => {
    const answer = await api();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: true, value: { connection: null } });
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('refuses API requests without the cookie, with a wrong cookie or from another site', async () => {
    expect((await api({ cookie: '' })).status).toBe(401);
    expect((await api({ cookie: `mpi-console-${String(port)}=forged` })).status).toBe(401);
    expect((await api({ cookie: `mpi-console-${String(port + 1)}=${cookie.split('=')[1] ?? ''}` })).status).toBe(401);
    expect((await api({ origin: 'http://evil.example' })).status).toBe(403);
    expect((await api({ origin: `http://localhost:${String(port)}` })).status).toBe(403);
    expect((await api({ 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const noOrigin = await call('POST', '/api/op/console/status', { 'content-type': 'application/json', cookie }, '{}');
    expect(noOrigin.status).toBe(403);
  });

  it('refuses a rebound DNS name or localhost in the Host header, for the API and for the page', async () => {
    for (const name of ['evil.example', 'localhost', '127.0.0.1.nip.io']) {
      expect((await api({ host: `${name}:${String(port)}` })).status, name).toBe(403);
      expect((await call('GET', '/', { host: `${name}:${String(port)}` })).status, name).toBe(403);
    }
  });

  it('refuses operations sent as a form or text (no CORS-free simple request gets through), oversized and too deeply nested bodies', async () => {
    expect((await api({ 'content-type': 'text/plain' })).status).toBe(415);
    expect((await api({ 'content-type': 'application/x-www-form-urlencoded' }, 'a=1')).status).toBe(415);
    expect((await api({}, '{not json')).status).toBe(400);
    // Nested deeper than anything the console sends: refused before the backend or an engine thread sees it.
    const deep = await api({}, `{"x": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    expect(deep.status).toBe(400);
    expect(deep.body).toContain('nests deeper than 64 levels');
    expect((await api()).status).toBe(200);
    expect((await api({}, JSON.stringify({ padding: 'x'.repeat(9 * 1024 * 1024) }))).status).toBe(413);
  });

  it('guards the event stream like every API request and streams pushes to a session', async () => {
    expect((await call('GET', '/api/events')).status).toBe(401);
    expect((await call('GET', '/api/events', { cookie, origin: 'http://evil.example' })).status).toBe(403);
    const received = await new Promise<string>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/api/events', headers: { host: `127.0.0.1:${String(port)}`, cookie } },
        (res) => {
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
          let text = '';
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
            if (text.includes('event: connection/changed')) {
              req.destroy();
              resolve(text);
            }
          });
          void backend.send('console/close', {});
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(received).toMatch(/event: connection\/changed\ndata: \{"connection":null/);
  });

  it('serves the page with the CSP and security headers, and nothing outside the renderer', async () => {
    const page = await call('GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(contentSecurityPolicy());
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    for (const path of ['/../outside.txt', '/%2e%2e/outside.txt', '/assets/..%2f..%2foutside.txt', '/missing.js']) {
      expect((await call('GET', path)).status, path).toBe(404);
    }
    expect((await call('POST', '/', { origin: origin(), cookie })).status).toBe(405);
  });
});
