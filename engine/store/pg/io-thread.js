// The I/O thread of one synchronous PostgreSQL connection (connection.ts). It holds one node-postgres client and
// answers one request at a time: the engine's thread posts a request on the port, then sleeps on the shared flag
// (Atomics.wait) until this thread has posted the answer and set the flag to the request's number. Values travel
// as text both ways; the engine's side binds and parses them. Plain JavaScript, so the thread starts the same from
// source and when built.
import { workerData } from 'node:worker_threads';
import pg from 'pg';

/** @type {{ url: string, flag: SharedArrayBuffer, port: import('node:worker_threads').MessagePort, statementTimeoutMs: number, lockTimeoutMs: number, connectTimeoutMs: number }} */
const data = workerData;
const flag = new Int32Array(data.flag);
const port = data.port;
const asText = { getTypeParser: () => (/** @type {string} */ text) => text };

const client = new pg.Client({
  connectionString: data.url,
  connectionTimeoutMillis: data.connectTimeoutMs,
  statement_timeout: data.statementTimeoutMs,
  lock_timeout: data.lockTimeoutMs,
  application_name: 'mpi-console',
  keepAlive: true,
  types: asText,
});
// A broken connection fails the request in progress; the next one reports the connection lost.
client.on('error', () => undefined);
const connected = client.connect().then(() => client.query("SET TIME ZONE 'UTC'"));
// Awaited by every request (which then answers with the failure); marked handled so the thread stays up meanwhile.
connected.catch(() => undefined);

/** @param {unknown} error */
function failure(error) {
  const e = /** @type {{ code?: unknown, message?: unknown }} */ (error ?? {});
  const code = typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : '08006';
  // The primary message only: node-postgres keeps DETAIL (which can quote values) in its own field.
  const message = typeof e.message === 'string' ? e.message.split('\n')[0] : 'the database connection failed';
  return { error: { code, message } };
}

/** @param {{ op: string, sequence: number, text?: string, name?: string, values?: (string | null)[] }} request */
async function answer(request) {
  try {
    await connected;
    if (request.op === 'close') {
      await client.end();
      return { done: true };
    }
    if (request.op === 'exec') {
      await client.query(request.text ?? '');
      return { rows: [], names: [], types: [], changes: 0 };
    }
    const result = await client.query({
      text: request.text ?? '',
      values: request.values ?? [],
      ...(request.name === undefined ? {} : { name: request.name }),
      rowMode: 'array',
    });
    return {
      rows: result.rows,
      names: result.fields.map((f) => f.name),
      types: result.fields.map((f) => f.dataTypeID),
      changes: result.rowCount ?? 0,
    };
  } catch (error) {
    return failure(error);
  }
}

port.on('message', (request) => {
  void answer(request).then((reply) => {
    port.postMessage(reply);
    // The request's own number: the engine's thread waits for exactly this answer.
    Atomics.store(flag, 0, request.sequence);
    Atomics.notify(flag, 0);
    if (request.op === 'close') port.close();
  });
});
