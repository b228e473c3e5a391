/**
 * The ceiling of the API bench's job GET: a bare node:http server that answers every request with the same
 * bytes serve answers (the job's JSON and the same response headers), with no routing, authentication,
 * engine or logging. Run in its own process like serve, loaded by the same autocannon settings, so the ratio
 * shows what the registry's layers cost on this machine at this moment.
 *
 *   node --import tsx test/bench/bare-http.ts BODY_FILE   prints {"url": …} once it listens; SIGTERM stops it
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.argv[2] ?? '', 'utf8');
const length = String(Buffer.byteLength(body));
const server = createServer((_request, response) => {
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': length,
    'x-request-id': randomUUID(),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${String(address.port)}` }) + '\n');
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close();
});
