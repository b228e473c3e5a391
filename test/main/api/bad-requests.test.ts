/**
 * Bad requests over real HTTP (no client-side checks): each gets the documented status, a problem+json body
 * whose issues name the field, and nothing is written.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProblemSchema, type Problem } from '../../../main/net/api-routes.ts';
import { devTokenFor, serveApi, type ServedApi } from '../../helpers/api.ts';
import { databaseDigest } from '../../helpers/db-digest.ts';
import { suiteDir } from '../../helpers/temp.ts';
import { apiRegistry, send, type RawAnswer, type Registry } from './fixtures.ts';
import { DEFAULT_BODY_LIMIT } from '../../../main/api/app.ts';
import { MAX_JSON_DEPTH } from '../../../main/net/json-depth.ts';

describe('bad requests', () => {
  const dir = suiteDir();
  let registry: Registry;
  let api: ServedApi;
  let auth: Record<string, string>;
  let json: Record<string, string>;

  beforeAll(async () => {
    registry = await apiRegistry(dir);
    api = await serveApi(registry.engine);
    auth = { authorization: `Bearer ${await devTokenFor(registry.engine)}` };
    json = { ...auth, 'content-type': 'application/json' };
  });
  afterAll(async () => {
    await api.stop();
    registry.engine.close();
  });

  /** Sends, checks status and problem+json, checks the database is unchanged, returns the problem. */
  async function refused(
    status: number,
    method: string,
    path: string,
    options: Parameters<typeof send>[3],
  ): Promise<Problem & { answer: RawAnswer }> {
    const before = databaseDigest(registry.engine.env.store);
    const answer = await send(api.url, method, path, options);
    expect(answer.status, answer.text.slice(0, 500)).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(databaseDigest(registry.engine.env.store)).toBe(before);
    return { ...ProblemSchema.parse(answer.json), answer };
  }

  const pathsOf = (problem: Problem): string[] => problem.issues.map((i) => i.path);

  it('malformed JSON: 400 naming the body', async () => {
    const problem = await refused(400, 'POST', '/api/v1/maintenance/reindex', {
      headers: json,
      body: '{"reason": "x", "batchSize": 5',
    });
    expect(problem.kind).toBe('validation');
    expect(pathsOf(problem)).toEqual(['(body)']);
  });

  it(`a body nested deeper than ${String(MAX_JSON_DEPTH)} levels: 400 naming the body; ${String(MAX_JSON_DEPTH)} levels reach validation`, async () => {
    const nested = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
    // One level for the body's own object, the rest in an unknown key's value.
    for (const body of [
      `{"reason": "x", "batchSize": 5, "x": ${nested(MAX_JSON_DEPTH)}}`,
      `{"reason": "x", "batchSize": 5, "x": ${nested(100_000)}}`,
    ]) {
      const problem = await refused(400, 'POST', '/api/v1/maintenance/reindex', { headers: json, body });
      expect(problem.detail).toBe(`the body nests deeper than ${String(MAX_JSON_DEPTH)} levels`);
      expect(pathsOf(problem)).toEqual(['(body)']);
    }
    const deepest = await refused(422, 'POST', '/api/v1/maintenance/reindex', {
      headers: json,
      body: `{"reason": "x", "batchSize": 5, "x": ${nested(MAX_JSON_DEPTH - 1)}}`,
    });
    expect(deepest.issues[0]?.message).toMatch(/^1 unknown key\(s\), not shown/);
  });

  it('wrong types, unknown fields (a tenant in the body included), batch size 0 and 26: 422 naming the field', async () => {
    const wrongType = await refused(422, 'POST', '/api/v1/maintenance/reindex', {
      headers: json,
      body: JSON.stringify({ reason: 'x', batchSize: '5' }),
    });
    expect(wrongType.issues).toEqual([{ path: 'batchSize', message: 'expected number' }]);
    const unknown = await refused(422, 'POST', '/api/v1/maintenance/reindex', {
      headers: json,
      body: JSON.stringify({ reason: 'x', batchSize: 5, tenantId: 't2' }),
    });
    // An unknown key is counted, never echoed (it could hold a value).
    expect(unknown.issues[0]).toEqual({
      path: '(root)',
      message: expect.stringMatching(/^1 unknown key\(s\), not shown/) as unknown,
    });
    for (const batchSize of [0, 26]) {
      const problem = await refused(422, 'POST', '/api/v1/maintenance/reconciliation', {
        headers: json,
        body: JSON.stringify({ reason: 'x', batchSize }),
      });
      expect(pathsOf(problem)).toEqual(['batchSize']);
    }
    const missing = await refused(422, 'POST', '/api/v1/maintenance/reindex', {
      headers: json,
      body: JSON.stringify({ batchSize: 5 }),
    });
    expect(pathsOf(missing)).toEqual(['reason']);
    const noBody = await refused(422, 'POST', '/api/v1/maintenance/reindex', { headers: auth });
    expect(pathsOf(noBody)).toEqual(['(root)']);
  });

  it('10,001 pairs: 422 naming pairs; 10,000 pairs with references at their maximum lengths fit in the body limit', async () => {
    const pair = (i: number, width: number) => ({
      left: {
        sourceSystem: 'S'.repeat(width === 0 ? 1 : 100),
        localId: `${String(i)}L`.padEnd(width === 0 ? 2 : 200, 'x'),
      },
      right: {
        sourceSystem: 'S'.repeat(width === 0 ? 1 : 100),
        localId: `${String(i)}R`.padEnd(width === 0 ? 2 : 200, 'x'),
      },
      isMatch: i % 2 === 0,
    });
    const tooMany = Array.from({ length: 10_001 }, (_, i) => pair(i, 0));
    const problem = await refused(422, 'POST', '/api/v1/matching/evaluation', {
      headers: json,
      body: JSON.stringify({ datasetId: 'd', pairs: tooMany, thresholds: [0.5] }),
    });
    expect(pathsOf(problem)).toEqual(['pairs']);
    const widest = JSON.stringify({
      datasetId: 'd',
      pairs: Array.from({ length: 10_000 }, (_, i) => pair(i, 1)),
      thresholds: [0.5],
    });
    expect(Buffer.byteLength(widest)).toBeLessThan(DEFAULT_BODY_LIMIT);
    // Accepted by the transport, refused by the dataset rules: the records do not exist.
    const fits = await refused(422, 'POST', '/api/v1/matching/evaluation', { headers: json, body: widest });
    expect(fits.detail).toMatch(/rejected/);
  });

  it(`a body over the limit: 413 before it is parsed`, async () => {
    const huge = JSON.stringify({
      datasetId: 'd',
      pairs: [],
      thresholds: [0.5],
      padding: 'x'.repeat(DEFAULT_BODY_LIMIT),
    });
    const problem = await refused(413, 'POST', '/api/v1/matching/evaluation', { headers: json, body: huge });
    expect(pathsOf(problem)).toEqual(['(body)']);
  });

  it('a wrong or missing content type: 415', async () => {
    await refused(415, 'POST', '/api/v1/maintenance/reindex', {
      headers: { ...auth, 'content-type': 'text/plain' },
      body: JSON.stringify({ reason: 'x', batchSize: 5 }),
    });
    await refused(415, 'POST', '/api/v1/maintenance/reindex', {
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'reason=x&batchSize=5',
    });
    await refused(415, 'POST', '/api/v1/maintenance/reindex', {
      headers: auth,
      body: JSON.stringify({ reason: 'x', batchSize: 5 }),
    });
  });

  it('an unsupported method: 405 with Allow', async () => {
    const problem = await refused(405, 'DELETE', `/api/v1/maintenance/jobs/${registry.jobId}`, { headers: auth });
    expect(problem.answer.headers.allow).toBe('GET, HEAD');
    const put = await refused(405, 'PUT', '/api/v1/matching/evaluation', { headers: json, body: '{}' });
    expect(put.answer.headers.allow).toBe('POST');
    // TRACE too: a method HTTP defines is refused as not allowed here, not as an unknown path.
    const trace = await refused(405, 'TRACE', '/api/v1/maintenance/jobs', { headers: auth });
    expect(trace.answer.headers.allow).toBe('GET, HEAD');
  });

  it('path and query problems: a malformed job ID, unknown, repeated or non-numeric query parameters, a body on cancel', async () => {
    expect(pathsOf(await refused(422, 'GET', '/api/v1/maintenance/jobs/not%20a%20job', { headers: auth }))).toEqual([
      'jobId',
    ]);
    expect(
      (await refused(422, 'GET', '/api/v1/maintenance/jobs', { headers: auth, query: { tenantId: 't2' } })).issues[0]
        ?.message,
    ).toMatch(/unknown key/);
    expect(pathsOf(await refused(422, 'GET', '/api/v1/maintenance/jobs?limit=1&limit=2', { headers: auth }))).toEqual([
      'limit',
    ]);
    expect(
      pathsOf(await refused(422, 'GET', '/api/v1/maintenance/jobs', { headers: auth, query: { limit: 'ten' } })),
    ).toEqual(['limit']);
    expect(
      pathsOf(await refused(422, 'GET', '/api/v1/maintenance/jobs', { headers: auth, query: { limit: '0' } })),
    ).toEqual(['limit']);
    expect(
      pathsOf(
        await refused(422, 'POST', `/api/v1/maintenance/jobs/${registry.jobId}/cancel`, {
          headers: json,
          body: '{"jobId":"job-x"}',
        }),
      ),
    ).toEqual(['(body)']);
    expect(
      pathsOf(await refused(422, 'GET', `/api/v1/matching/profile`, { headers: auth, query: { version: '1' } })),
    ).toEqual(['(query)']);
    // The review list's hold filters take a rule (or none) and a case of the twin rule, nothing else.
    expect(
      pathsOf(await refused(422, 'GET', '/api/v1/review-cases', { headers: auth, query: { limitedBy: 'Twins' } })),
    ).toEqual(['limitedBy']);
    expect(
      pathsOf(
        await refused(422, 'GET', '/api/v1/review-cases', {
          headers: auth,
          query: { limitedBy: 'PossibleTwin', twinReason: "x' OR 1=1 --" },
        }),
      ),
    ).toEqual(['twinReason']);
  });

  it('an unknown route: 404 problem without an operation', async () => {
    const problem = await refused(404, 'GET', '/api/v1/maintenance/everything', { headers: auth });
    expect(problem.operation).toBeUndefined();
    expect(problem.kind).toBe('not_found');
  });

  it('a cancel sent with the JSON content type and an empty body is an ordinary cancel', async () => {
    const answer = await send(api.url, 'POST', `/api/v1/maintenance/jobs/${registry.jobId}/cancel`, {
      headers: json,
      body: '',
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ jobId: registry.jobId, status: 'cancelled', cancelRequested: true });
  });

  /** One raw HTTP/1.1 exchange on a socket of its own: what undici would refuse to send. */
  function rawExchange(text: string, halfClose = false): Promise<string> {
    return new Promise((resolve, reject) => {
      const url = new URL(api.url);
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(text);
        if (halfClose) socket.end();
      });
      let out = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (out += chunk));
      socket.on('close', () => {
        resolve(out);
      });
      socket.on('error', reject);
    });
  }

  /** Status, headers and problem body of a raw answer. */
  function parseRaw(text: string): { status: number; headers: Record<string, string>; problem: Problem } {
    const [head = '', body = ''] = text.split('\r\n\r\n');
    const [statusLine = '', ...lines] = head.split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length']);
    return {
      status: Number(statusLine.split(' ')[1]),
      headers,
      problem: ProblemSchema.parse(JSON.parse(Buffer.from(body).subarray(0, length).toString('utf8'))),
    };
  }

  it('refusals made by the HTTP framework are problem+json with the usual headers and never quote the request back', async () => {
    const planted = 'PLANTED-PATH-VALUE';
    const cases: [string, string, number, boolean][] = [
      [
        'a malformed percent-encoding (unauthenticated)',
        `GET /api/v1/${planted}/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        400,
        false,
      ],
      [
        'an over-long path parameter',
        `GET /api/v1/maintenance/jobs/${planted}${'a'.repeat(300)} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization ?? ''}\r\nConnection: close\r\n\r\n`,
        414,
        false,
      ],
      [
        'an over-large header block',
        `GET /api/v1/maintenance/jobs HTTP/1.1\r\nHost: x\r\nX-Planted: ${planted}${'b'.repeat(40_000)}\r\nConnection: close\r\n\r\n`,
        431,
        false,
      ],
      [
        'a body shorter than its Content-Length',
        `POST /api/v1/maintenance/reindex HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization ?? ''}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"reason":"${planted}"}`,
        400,
        true,
      ],
    ];
    for (const [name, request, status, halfClose] of cases) {
      const before = databaseDigest(registry.engine.env.store);
      const text = await rawExchange(request, halfClose);
      const answer = parseRaw(text);
      expect(answer.status, name).toBe(status);
      expect(answer.headers['content-type'], name).toMatch(/^application\/problem\+json/);
      expect(answer.headers['cache-control'], name).toBe('no-store');
      expect(answer.headers['x-content-type-options'], name).toBe('nosniff');
      expect(answer.headers['x-request-id'], name).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.problem.status, name).toBe(status);
      expect(answer.problem.kind, name).toBe('validation');
      expect(text, name).not.toContain(planted);
      expect(databaseDigest(registry.engine.env.store)).toBe(before);
    }
  });

  it('free text with an unpaired surrogate or a bidirectional control is refused with the field named, nothing stored', async () => {
    const bodies: [string, string, string][] = [
      ['/api/v1/maintenance/reindex', '{"reason":"rotate \\ud800 keys","batchSize":5}', 'reason'],
      ['/api/v1/maintenance/reindex', `{"reason":"rotate \u202esyek","batchSize":5}`, 'reason'],
      ['/api/v1/maintenance/reconciliation', `{"reason":"nightly \u2066x\u2069","batchSize":5}`, 'reason'],
      [
        '/api/v1/matching/evaluation',
        `{"datasetId":"set \u200f","pairs":[],"thresholds":[0.5],"maximumErrorExamples":1}`,
        'datasetId',
      ],
    ];
    for (const [path, body, field] of bodies) {
      const problem = await refused(422, 'POST', path, { headers: json, body });
      expect(
        problem.issues.map((i) => i.path),
        body,
      ).toContain(field);
      expect(problem.issues.find((i) => i.path === field)?.message).toMatch(/unpaired surrogate|bidirectional control/);
    }
  });
});
