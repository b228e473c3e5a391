/**
 * Large request bodies over real HTTP, behind the engine pool as `serve` runs it: a body over INLINE_BODY_BYTES
 * reaches an engine thread (or, for a run's start, the intake thread) as its bytes and is parsed there. Each is
 * answered exactly as the same value sent as a small body: the same report, the same refusals with the same issues.
 * The large bodies are the small ones with blanks after their first brace, so both hold the same JSON value.
 * A last test checks the hand-over itself: the server passes the bytes on unparsed to an engine that takes bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallContext, EngineClient, OperationName } from '../../../engine/contract/operations.ts';
import type { RunState } from '../../../engine/contract/runs.ts';
import { buildApi } from '../../../main/api/app.ts';
import { authenticatorFor } from '../../../main/api/auth/authenticator.ts';
import { bodyText, INLINE_BODY_BYTES, type BodyBytes } from '../../../main/net/json-body.ts';
import { ProblemSchema } from '../../../main/net/api-routes.ts';
import { devTokenFor, serveApi, type ServedApi } from '../../helpers/api.ts';
import { suiteDir } from '../../helpers/temp.ts';
import { apiRegistry, send, type RawAnswer, type Registry } from './fixtures.ts';

/** The same JSON value as `text`, longer than INLINE_BODY_BYTES. */
const padded = (text: string): string => `${text.slice(0, 1)}${' '.repeat(INLINE_BODY_BYTES + 10)}${text.slice(1)}`;

describe('large request bodies', () => {
  const dir = suiteDir();
  let registry: Registry;
  let api: ServedApi;
  let json: Record<string, string>;

  beforeAll(async () => {
    registry = await apiRegistry(dir);
    api = await serveApi(registry.engine);
    json = { authorization: `Bearer ${await devTokenFor(registry.engine)}`, 'content-type': 'application/json' };
  }, 120_000);
  afterAll(async () => {
    await api.stop();
    registry.engine.close();
  });

  /** The answers to the body sent small and sent padded: same status, and their bodies (ids and timings aside). */
  async function both(method: string, path: string, value: unknown): Promise<[RawAnswer, RawAnswer]> {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    expect(text.length).toBeLessThan(INLINE_BODY_BYTES);
    const small = await send(api.url, method, path, { headers: json, body: text });
    const large = await send(api.url, method, path, { headers: json, body: padded(text) });
    expect(large.status, large.text.slice(0, 300)).toBe(small.status);
    return [small, large];
  }

  function sameProblem([small, large]: [RawAnswer, RawAnswer], status: number): void {
    expect(small.status).toBe(status);
    const a = ProblemSchema.parse(small.json);
    const b = ProblemSchema.parse(large.json);
    expect({ ...b, instance: '' }).toEqual({ ...a, instance: '' });
  }

  async function ended(runId: string): Promise<RunState> {
    for (;;) {
      const state = (await send(api.url, 'GET', `/api/v1/runs/${runId}`, { headers: json, query: { waitMs: '5000' } }))
        .json as RunState;
      if (state.status !== 'queued' && state.status !== 'running') return state;
    }
  }

  it('an evaluation sent large gets the report it gets sent small, synchronously and as a run', async () => {
    const input = { datasetId: 'large', pairs: registry.pairs.slice(0, 60), thresholds: [0.5, 0.9] };
    const [small, large] = await both('POST', '/api/v1/matching/evaluation', input);
    expect(small.status).toBe(200);
    expect(large.json).toEqual(small.json);

    const [startedSmall, startedLarge] = await both('POST', '/api/v1/runs', { operation: 'matching/evaluate', input });
    expect(startedSmall.status).toBe(202);
    const runs = [startedSmall, startedLarge].map((a) => (a.json as RunState).runId);
    const [a, b] = await Promise.all(runs.map(ended));
    expect(a?.status).toBe('completed');
    expect(b?.status).toBe('completed');
    expect(b?.output).toEqual(small.json);
    expect(a?.output).toEqual(small.json);
  });

  it('a body that is not JSON, holds a __proto__ key or nests too deeply: the same 400, on every route kind', async () => {
    const deep = `{"datasetId": "x", "pairs": ${'['.repeat(70)}${']'.repeat(70)}}`;
    for (const body of ['{"datasetId": "x", "pairs": [', '{"__proto__": {"x": 1}, "datasetId": "x"}', deep]) {
      sameProblem(await both('POST', '/api/v1/matching/evaluation', body), 400);
      sameProblem(await both('POST', '/api/v1/runs', body), 400);
      sameProblem(await both('POST', '/api/v1/maintenance/reindex', body), 400);
    }
  });

  it("a run's start whose input does not fit its operation is refused at once, with the same issues", async () => {
    const refusals = [
      { operation: 'matching/evaluate', input: { datasetId: 'x', pairs: 'none' } },
      { operation: 'matching/evaluate', input: { pairs: [] }, extra: 1 },
      { operation: 'no/such-operation', input: {} },
    ];
    for (const body of refusals) {
      const answers = await both('POST', '/api/v1/runs', body);
      sameProblem(answers, 422);
      expect(ProblemSchema.parse(answers[0].json).issues.length).toBeGreaterThan(0);
    }
    // A valid start sent large starts, and its run completes.
    const started = await send(api.url, 'POST', '/api/v1/runs', {
      headers: json,
      body: padded(JSON.stringify({ operation: 'labels/sample', input: { maxPairs: 5, seed: 1 } })),
    });
    expect(started.status).toBe(202);
    expect((await ended((started.json as RunState).runId)).status).toBe('completed');
  });

  it("a path parameter repeated in a large body is refused as in a small one; the path's own is used", async () => {
    const caseId = registry.inputs['reviews/decide']?.caseId ?? '';
    const path = `/api/v1/review-cases/${caseId}/decision`;
    sameProblem(await both('POST', path, { caseId, decision: 'unsure', reason: 'x' }), 422);
    const [small, large] = await both('POST', path, { decision: 'unsure', reason: 'large bodies' });
    expect(small.status).toBe(200);
    const decided = (large.json as { case: { caseId: string; review: { decision: string } | null } }).case;
    expect(decided.caseId).toBe(caseId);
    expect(decided.review?.decision).toBe('unsure');
  });

  it('a route that takes no body takes a large blank object, and refuses a large one with a key', async () => {
    const path = `/api/v1/maintenance/jobs/${registry.jobId}/cancel`;
    const [small, large] = await both('POST', path, '{ }');
    expect(small.status).toBe(200);
    expect(large.status).toBe(200);
    sameProblem(await both('POST', path, '{"reason": "x"}'), 422);
  });
});

describe('the hand-over of a large body', () => {
  const dir = suiteDir();
  let registry: Registry;

  beforeAll(async () => {
    registry = await apiRegistry(dir);
  }, 120_000);
  afterAll(() => {
    registry.engine.close();
  });

  it('passes the bytes on unparsed, with the path parameters, to an engine that reads bodies itself', async () => {
    const calls: { kind: string; name: OperationName; input: unknown }[] = [];
    const answer = (kind: string, name: OperationName, input: unknown): Promise<never> => {
      calls.push({ kind, name, input });
      return Promise.resolve({ recorded: true } as never);
    };
    const engine: EngineClient & Record<string, unknown> = {
      call: (name: OperationName, input: unknown) => answer('call', name, input),
      callWith: (name: OperationName, input: unknown) => answer('callWith', name, input),
      callWithBody: (name: OperationName, body: BodyBytes, _ctx: CallContext) =>
        answer('callWithBody', name, { text: bodyText(body.bytes), params: body.params }),
    };
    const app = buildApi({ engine, authenticator: await authenticatorFor(registry.engine.env, true) });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const headers = {
        authorization: `Bearer ${await devTokenFor(registry.engine)}`,
        'content-type': 'application/json',
      };
      const text = padded(JSON.stringify({ decision: 'unsure', reason: 'x' }));
      const small = JSON.stringify({ decision: 'unsure', reason: 'x' });
      for (const body of [text, small])
        expect((await send(url, 'POST', '/api/v1/review-cases/rc-1/decision', { headers, body })).status).toBe(200);
      expect(calls).toEqual([
        { kind: 'callWithBody', name: 'reviews/decide', input: { text, params: { caseId: 'rc-1' } } },
        { kind: 'callWith', name: 'reviews/decide', input: { decision: 'unsure', reason: 'x', caseId: 'rc-1' } },
      ]);
    } finally {
      await app.close();
    }
  });
});
