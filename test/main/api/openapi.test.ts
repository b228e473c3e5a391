/**
 * The OpenAPI 3.1 document: generated from the route table and the contract's zod schemas, served at
 * /api/v1/openapi.json. Every route of the table is in it (and nothing else), extensions are marked, and
 * every response the server gives in this test — successes and refusals — matches the document's schema
 * for its path, method and status (the document's JSON Schema turned back into a validator).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HTTP_ROUTES, OPENAPI_PATH, pathParameters, type HttpRoute } from '../../../main/net/api-routes.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { MaintenanceSettingsSchema } from '../../../engine/config/maintenance.ts';
import { devTokenFor, serveApi, type ServedApi } from '../../helpers/api.ts';
import { suiteDir } from '../../helpers/temp.ts';
import { apiRegistry, callRoute, send, type RawAnswer, type Registry } from './fixtures.ts';

type Json = Record<string, unknown>;

function resolve(doc: Json, schema: Json): Json {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  return ((doc.components as Json).schemas as Record<string, Json>)[name] ?? {};
}

/** Validates an answer against the document: its status must be documented for the route, its body must match. */
function checkAgainstDocument(doc: Json, route: HttpRoute, answer: RawAnswer): void {
  const operation = (doc.paths as Record<string, Record<string, Json>>)[route.path]?.[route.method.toLowerCase()];
  const where = `${route.method} ${route.path} → ${String(answer.status)}`;
  expect(operation, where).toBeDefined();
  const response = (operation?.responses as Record<string, Json | undefined>)[String(answer.status)];
  expect(response, `${where} is not documented`).toBeDefined();
  const content = response?.content as Record<string, { schema: Json }>;
  const mediaType = String(answer.headers['content-type']).split(';')[0] ?? '';
  expect(Object.keys(content), where).toContain(mediaType);
  const schema = z.fromJSONSchema(resolve(doc, content[mediaType]?.schema ?? {}));
  const result = schema.safeParse(answer.json);
  expect(result.success, `${where}: ${JSON.stringify(result.error?.issues.slice(0, 3))}`).toBe(true);
}

describe('the OpenAPI document', () => {
  const dir = suiteDir();
  let registry: Registry;
  let api: ServedApi;
  let specOnly: ServedApi;
  let doc: Json;

  beforeAll(async () => {
    registry = await apiRegistry(dir);
    api = await serveApi(registry.engine);
    specOnly = await serveApi(registry.engine, { routes: HTTP_ROUTES.filter((r) => !r.extension) });
    const answer = await send(api.url, 'GET', OPENAPI_PATH);
    expect(answer.status).toBe(200);
    doc = answer.json as Json;
  });
  afterAll(async () => {
    await api.stop();
    await specOnly.stop();
    registry.engine.close();
  });

  it('is OpenAPI 3.1, served without a token, and lists exactly the routes of the table with their scopes and extension marks', () => {
    expect(doc.openapi).toBe('3.1.0');
    const listed = Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(listed.sort()).toEqual(HTTP_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    for (const route of HTTP_ROUTES) {
      const operation =
        (doc.paths as Record<string, Record<string, Json>>)[route.path]?.[route.method.toLowerCase()] ?? {};
      expect(operation['x-operation']).toBe(route.operation);
      expect(operation['x-required-scope']).toBe(route.scope);
      expect(operation.security).toEqual([{ bearerAuth: [route.scope] }]);
      expect(operation['x-extension'] === true).toBe(route.extension);
      const parameters = (operation.parameters as { name: string; in: string }[])
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      expect(parameters).toEqual(pathParameters(route.path));
      expect(operation.requestBody !== undefined).toBe(route.input === 'body');
      expect(Object.keys(operation.responses as Json)).toContain(String(route.status));
    }
    // The six endpoints of the spec, and the extensions the console needs.
    expect(HTTP_ROUTES.filter((r) => !r.extension).map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v1/maintenance/reindex',
      'POST /api/v1/maintenance/reconciliation',
      'GET /api/v1/maintenance/jobs/{jobId}',
      'POST /api/v1/maintenance/jobs/{jobId}/cancel',
      'POST /api/v1/matching/evaluation',
      'POST /api/v1/matching/calibration/fellegi-sunter',
    ]);
  });

  it('of a registry serving only the spec endpoints lists those six and no extension', async () => {
    const answer = await send(specOnly.url, 'GET', OPENAPI_PATH);
    const paths = answer.json as { paths: Record<string, Record<string, Json>> };
    const operations = Object.values(paths.paths).flatMap((methods) => Object.values(methods));
    expect(operations).toHaveLength(6);
    expect(operations.some((o) => o['x-extension'] === true)).toBe(false);
  });

  it('describes every response the server gives: successes and refusals of every route', async () => {
    const full = `Bearer ${await devTokenFor(registry.engine)}`;
    const none = `Bearer ${await devTokenFor(registry.engine, ['mpi.none'])}`;
    let checked = 0;
    const check = (route: HttpRoute, answer: RawAnswer): void => {
      checkAgainstDocument(doc, route, answer);
      checked++;
    };
    const routeOf = (operation: string): HttpRoute => {
      const found = HTTP_ROUTES.find((r) => r.operation === operation);
      if (found === undefined) throw new Error(operation);
      return found;
    };
    for (const route of HTTP_ROUTES) {
      check(route, await callRoute(api.url, registry, route, undefined));
      check(route, await callRoute(api.url, registry, route, none));
      const ok = await callRoute(api.url, registry, route, full);
      expect(ok.status, ok.text.slice(0, 300)).toBe(route.status);
      check(route, ok);
      check(route, await callRoute(api.url, registry, route, 'Bearer x.y.z'));
    }
    const token = { authorization: full };
    const json = { ...token, 'content-type': 'application/json' };
    check(
      routeOf('jobs/get'),
      await send(api.url, 'GET', '/api/v1/maintenance/jobs/job-00000000-0000-4000-8000-000000000000', {
        headers: token,
      }),
    );
    check(routeOf('jobs/get'), await send(api.url, 'GET', '/api/v1/maintenance/jobs/bad%20id', { headers: token }));
    check(
      routeOf('maintenance/reindex'),
      await send(api.url, 'POST', '/api/v1/maintenance/reindex', { headers: json, body: '{' }),
    );
    check(
      routeOf('maintenance/reindex'),
      await send(api.url, 'POST', '/api/v1/maintenance/reindex', {
        headers: { ...token, 'content-type': 'text/plain' },
        body: 'x',
      }),
    );
    check(
      routeOf('matching/evaluate'),
      await send(api.url, 'POST', '/api/v1/matching/evaluation', {
        headers: json,
        body: JSON.stringify({ pad: 'x'.repeat(17 * 1024 * 1024) }),
      }),
    );
    check(
      routeOf('jobs/list'),
      await send(api.url, 'GET', '/api/v1/maintenance/jobs', { headers: token, query: { limit: '2' } }),
    );
    // 409: cancelling a finished job.
    const { jobId } = await registry.engine.call(
      'maintenance/reindex',
      { reason: 'finish me', batchSize: 25 },
      { tenantId: 't1', actor: 'test' },
    );
    await runWorker(registry.engine.env, {
      tenants: ['t1'],
      once: true,
      maintenance: MaintenanceSettingsSchema.parse({}),
    });
    const conflict = await send(api.url, 'POST', `/api/v1/maintenance/jobs/${jobId}/cancel`, { headers: token });
    expect(conflict.status).toBe(409);
    check(routeOf('jobs/cancel'), conflict);
    check(routeOf('jobs/get'), await send(api.url, 'GET', `/api/v1/maintenance/jobs/${jobId}`, { headers: token }));
    expect(checked).toBeGreaterThan(4 * HTTP_ROUTES.length);
  });
});
