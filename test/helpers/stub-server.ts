/**
 * A plain HTTP server on loopback that answers as the test tells it to: for the failure modes a real
 * registry cannot be made to show on demand (503 with Retry-After, a redirect to another origin, a reset
 * connection, silence, an answer outside the contract). It records every request it receives.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
}

export interface StubServer {
  readonly url: string;
  readonly received: ReceivedRequest[];
  close(): Promise<void>;
}

export async function stubServer(
  answer: (request: IncomingMessage, response: ServerResponse, index: number) => void,
): Promise<StubServer> {
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      authorization: request.headers.authorization,
    });
    request.resume();
    request.on('end', () => {
      answer(request, response, received.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}
