/**
 * "Another origin": a second loopback HTTPS server (the test CA) that records every request's path and the
 * credentials it carried, and answers an empty searchset, so a client that followed a link to it would
 * succeed and the test would see the leak.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestTls } from './test-ca.ts';

export interface RecordingServer {
  readonly origin: string;
  readonly requests: { path: string; authorization: string | undefined; cookie: string | undefined }[];
  close(): Promise<void>;
}

export async function startRecordingServer(tls: TestTls): Promise<RecordingServer> {
  const requests: RecordingServer['requests'] = [];
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    requests.push({
      path: new URL(request.url ?? '/', 'https://x').pathname,
      authorization: request.headers.authorization,
      cookie: request.headers.cookie,
    });
    const body = '{"resourceType":"Bundle","type":"searchset","entry":[]}';
    response.writeHead(200, { 'content-type': 'application/fhir+json', 'content-length': String(body.length) });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
