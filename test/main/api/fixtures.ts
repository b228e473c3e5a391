/**
 * A registry for the API tests: tenant t1 (a synthetic sandbox with ground truth and one queued job) and
 * tenant t2 (registered, no records), and one valid input per route of the table.
 */
import { join } from 'node:path';
import { request } from 'undici';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { HTTP_ROUTES, routeRequest, type HttpRoute } from '../../../main/net/api-routes.ts';
import type { OperationInput, OperationName } from '../../../engine/contract/operations.ts';
import type { LabelPair } from '../../../engine/assurance/labels.ts';

export interface Registry {
  readonly engine: LocalEngine;
  readonly jobId: string;
  readonly pairs: LabelPair[];
  /** A valid input of every operation that has a route, for tenant t1. */
  readonly inputs: { readonly [K in OperationName]?: OperationInput<K> };
}

export async function apiRegistry(dir: string): Promise<Registry> {
  const engine = LocalEngine.open({ dbPath: join(dir, 'registry.db') });
  const t1 = { tenantId: 't1', actor: 'setup' };
  await engine.call('sandbox/create', { syntheticPeople: 400, seed: 5 }, t1);
  await engine.call('sandbox/create', { syntheticPeople: 0, seed: 1 }, { tenantId: 't2', actor: 'setup' });
  const { jobId } = await engine.call('maintenance/reindex', { reason: 'fixture', batchSize: 5 }, t1);
  const { pairs } = await engine.call('labels/sample', { maxPairs: 2000, seed: 2 }, t1);
  const [first] = pairs;
  if (first === undefined) throw new Error('no labelled pairs');
  // A case a decision can be recorded on: neither identity changed since it was opened.
  let caseId: string | undefined;
  for (const row of (await engine.call('reviews/list', { limit: 1000 }, t1)).rows) {
    if (!(await engine.call('reviews/get', { caseId: row.caseId }, t1)).case.stale) {
      caseId = row.caseId;
      break;
    }
  }
  if (caseId === undefined) throw new Error('the fixture sandbox has no current review case');
  const enterpriseId = (await engine.call('identities/list', { limit: 1 }, t1)).rows[0]?.enterpriseId ?? '';
  return {
    engine,
    jobId,
    pairs,
    inputs: {
      'maintenance/reindex': { reason: 'auth matrix', batchSize: 5 },
      'maintenance/reconcile': { reason: 'auth matrix', batchSize: 5 },
      'jobs/get': { jobId },
      'jobs/cancel': { jobId },
      'matching/evaluate': { datasetId: 'auth', pairs, thresholds: [0.5] },
      'matching/calibrate': {
        datasetId: 'auth',
        modelVersion: 'm1',
        pairs,
        priorMatchProbability: 0.1,
        smoothing: 1,
        validationFraction: 0.3,
        targetPrecision: 0.9,
      },
      'matching/estimate': { modelVersion: 'e1', randomPairs: 2000 },
      'jobs/list': { limit: 5 },
      'profile/summary': {},
      'profile/get': {},
      'labels/sample': { maxPairs: 20, seed: 1 },
      'matching/explain': { left: first.left, right: first.right },
      'runs/start': { operation: 'labels/sample', input: { maxPairs: 20, seed: 1 } },
      'runs/list': {},
      'reviews/list': { status: 'all', limit: 5 },
      'reviews/get': { caseId },
      // Unsure keeps the case open, so every call of the matrix that gets through can record it again.
      'reviews/decide': { caseId, decision: 'unsure', reason: 'auth matrix' },
      'reviews/labels': {},
      'links/scan': { maxListed: 5, openCases: false },
      'identities/history': { enterpriseId },
      'identities/of-record': first.left,
      'records/sources': {},
      'profile/preview': { document: {}, maxExamples: 1 },
      'health/series': { limit: 5 },
      'audit/sample': { labels: 40, seed: 1 },
      'audit/estimate': {
        strata: [{ name: 'linked', linked: true, population: 10 }],
        labels: [{ stratum: 'linked', left: first.left, right: first.right, isMatch: true }],
      },
      // Filled with the run the last successful runs/start of callRoute started (runs live in the serving process).
      'runs/get': { runId: 'no-run-started-yet-0000' },
      'runs/cancel': { runId: 'no-run-started-yet-0000' },
    },
  };
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  readonly json: unknown;
}

/** One raw HTTP request (no client-side checks): what any caller could send. */
export async function send(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; query?: Readonly<Record<string, string>> } = {},
): Promise<RawAnswer> {
  const url = new URL(path, base);
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
  const response = await request(url, {
    method: method as 'GET',
    headers: options.headers ?? {},
    body: options.body ?? null,
  });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, text, json };
}

/** A route called with its valid input and the given Authorization header (or none). */
export async function callRoute(
  base: string,
  registry: Registry,
  route: HttpRoute,
  authorization: string | undefined,
): Promise<RawAnswer> {
  const input = registry.inputs[route.operation];
  if (input === undefined) throw new Error(`no fixture input for ${route.operation}`);
  const routed = routeRequest(route, input);
  const answer = await send(base, route.method, routed.path, {
    headers: {
      ...(authorization === undefined ? {} : { authorization }),
      ...(routed.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(routed.body === undefined ? {} : { body: JSON.stringify(routed.body) }),
    ...(routed.query === undefined ? {} : { query: routed.query }),
  });
  if (route.operation === 'runs/start' && answer.status === 202) {
    const { runId } = answer.json as { runId: string };
    const inputs = registry.inputs as Record<string, unknown>;
    inputs['runs/get'] = { runId };
    inputs['runs/cancel'] = { runId };
  }
  return answer;
}

export const ROUTES = HTTP_ROUTES;
