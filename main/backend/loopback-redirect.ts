/**
 * The one-shot loopback redirect listener of a native-app sign-in (RFC 8252 §7.3): an HTTP server on
 * 127.0.0.1 (never 0.0.0.0) on a port the OS chooses, waiting for the identity provider to send the browser
 * back to `/callback`. The first request to `/callback` is the only one used: its `state` must equal the one
 * this sign-in sent (RFC 6749 §10.12, CSRF), and whatever it carries the listener closes after it. Other paths
 * (a browser's favicon request) get a 404 and change nothing. A timeout closes it when nobody comes back.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EngineError } from '../../engine/contract/errors.ts';

export const CALLBACK_PATH = '/callback';

const PAGE = (title: string, text: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;line-height:1.5"><h1>${title}</h1><p>${text}</p></body></html>`;

export interface LoopbackRedirect {
  /** http://127.0.0.1:PORT/callback */
  readonly redirectUri: string;
  /** The full callback URL the browser came back with (state checked), or the reason it failed. */
  readonly callback: Promise<URL>;
  /** Stops waiting (the user cancelled, or another sign-in began). */
  cancel(): void;
  /** Resolves when the listener has closed. */
  readonly closed: Promise<void>;
}

export async function listenForRedirect(expectedState: string, timeoutMs: number): Promise<LoopbackRedirect> {
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve();
    });
  });
  const redirectUri = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}${CALLBACK_PATH}`;
  let settle: { resolve: (url: URL) => void; reject: (error: Error) => void } | undefined;
  const callback = new Promise<URL>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // The caller may never await it (a cancelled sign-in): an unobserved rejection must not crash the process.
  callback.catch(() => undefined);
  const closed = new Promise<void>((resolve) => server.once('close', resolve));

  const finish = (outcome: { url: URL } | { error: Error }): void => {
    if (settle === undefined) return;
    const { resolve, reject } = settle;
    settle = undefined;
    clearTimeout(timer);
    server.close();
    server.closeIdleConnections();
    if ('url' in outcome) resolve(outcome.url);
    else reject(outcome.error);
  };
  const timer = setTimeout(() => {
    finish({
      error: new EngineError(
        'forbidden',
        `the sign-in was not completed within ${String(Math.round(timeoutMs / 1000))} s; sign in again`,
      ),
    });
  }, timeoutMs);
  timer.unref();

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', redirectUri);
    const headers = {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'close',
      'referrer-policy': 'no-referrer',
    };
    if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH || settle === undefined) {
      response.writeHead(404, headers).end(PAGE('Not found', 'This address only receives one sign-in.'));
      return;
    }
    const state = url.searchParams.get('state');
    if (state !== expectedState) {
      response
        .writeHead(400, headers)
        .end(
          PAGE(
            'Sign-in refused',
            'This answer does not belong to the sign-in the console started. Return to the console and sign in again.',
          ),
        );
      finish({
        error: new EngineError(
          'forbidden',
          'the sign-in answer did not carry the state the console sent (a stale or forged answer); sign in again',
        ),
      });
      return;
    }
    const error = url.searchParams.get('error');
    if (error !== null) {
      response
        .writeHead(200, headers)
        .end(PAGE('Sign-in not completed', 'Return to the console: it says what happened.'));
      // The error code is a registered OAuth value; its free-text description is not echoed.
      finish({
        error: new EngineError(
          'forbidden',
          `the identity provider ended the sign-in (${/^[a-z_]{1,64}$/.test(error) ? error : 'error'}); sign in again`,
        ),
      });
      return;
    }
    response.writeHead(200, headers).end(PAGE('Signed in', 'You can close this tab and return to the MPI Console.'));
    finish({ url: new URL(url.href) });
  });

  return {
    redirectUri,
    callback,
    closed,
    cancel: () => {
      finish({ error: new EngineError('conflict', 'the sign-in was cancelled') });
    },
  };
}
