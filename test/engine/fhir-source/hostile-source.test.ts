/**
 * A source that misbehaves on purpose (a real HTTPS server on loopback): a page trickled a byte at a time, a
 * Retry-After of 31 years, next links that loop or page on forever, a page of far more entries than asked for,
 * bytes that are not UTF-8, a Patient nested 5,000 levels deep, an encoded slash in a next link, instants outside
 * the import's window, and a token endpoint that answers 503 or 429. Every import ends: it completes with what
 * it could take, or fails naming the rule, and a cancel or a worker asked to stop abandons a request at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Patient } from '@medplum/fhirtypes';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import type { JobState } from '../../../engine/contract/maintenance.ts';
import {
  CTX,
  makeRegistry,
  sourceEntry,
  sourcePatients,
  startWorld,
  TENANT,
  type World,
} from '../../helpers/fhir/world.ts';
import {
  HOSTILE_BASE_PATH,
  HOSTILE_TOKEN_PATH,
  page,
  sendJson,
  sendToken,
  startHostileServer,
  trickle,
  type Handler,
  type HostileServer,
} from '../../helpers/fhir/hostile-server.ts';
import { startProcess } from '../../helpers/processes.ts';

const FAST = { attempts: 3, baseMs: 5, capMs: 20, maxRetryAfterMs: 50 };

let world: World;
let hostile: HostileServer;
let patients: Patient[];
let registries = 0;

beforeAll(async () => {
  world = await startWorld();
  hostile = await startHostileServer(world.tls);
  patients = sourcePatients(30, 11);
});

afterAll(async () => {
  await hostile.close();
  await world.close();
});

const base = (): string => `${hostile.origin}${HOSTILE_BASE_PATH}`;
const pageUrl = (n: number): string => `${base()}/Patient?_getpages=abc&_page=${String(n)}`;

/** A registry whose one source is the hostile server (no authentication unless given). */
async function registry(
  source: Record<string, unknown> = {},
  maintenance: Record<string, unknown> = {},
): Promise<string> {
  return makeRegistry(world, `hostile-${String(++registries)}`, {
    FhirSources: [sourceEntry(world, { BaseUrl: base(), Authentication: { Type: 'None' }, PageSize: 10, ...source })],
    ...maintenance,
  });
}

async function startImport(engine: LocalEngine, changedSince?: string): Promise<string> {
  const { jobId } = await engine.call(
    'maintenance/reconcile',
    {
      reason: 'hostile source',
      batchSize: 25,
      externalSourceSystem: 'st-marys-hospital',
      ...(changedSince === undefined ? {} : { changedSince }),
    },
    CTX,
  );
  return jobId;
}

/** Runs one import to its end with the handler answering, and returns the job. */
async function importWith(
  handler: Handler,
  source: Record<string, unknown> = {},
  changedSince?: string,
): Promise<{ job: JobState; records: number; requests: number }> {
  hostile.handle(handler);
  const engine = LocalEngine.open({ dbPath: await registry(source) });
  try {
    const before = hostile.requests.length;
    const jobId = await startImport(engine, changedSince);
    await runWorker(engine.env, { tenants: [TENANT], once: true, importRetry: FAST });
    const job = await engine.call('jobs/get', { jobId }, CTX);
    const records = engine.env.store
      .statement('SELECT count(*) FROM source_record WHERE tenant_id = ?')
      .pluck()
      .get(TENANT) as number;
    return { job, records, requests: hostile.requests.length - before };
  } finally {
    engine.close();
  }
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('the sources a reconciliation can import from', () => {
  it('are the SourceTrust systems with an external FHIR source configured for the tenant (names only)', async () => {
    const engine = LocalEngine.open({ dbPath: await registry() });
    try {
      const summary = await engine.call('profile/summary', {}, CTX);
      expect(summary.importSources).toEqual(['st-marys-hospital']);
      expect(JSON.stringify(summary)).not.toContain(hostile.origin);
      await engine.call('sandbox/create', { syntheticPeople: 10, seed: 1 }, { tenantId: 'no-sources', actor: 'test' });
      expect(
        (await engine.call('profile/summary', {}, { tenantId: 'no-sources', actor: 'test' })).importSources,
      ).toEqual([]);
    } finally {
      engine.close();
    }
  });
});

describe('imports that never end', () => {
  it('a page trickled a byte at a time is abandoned at once when the job is cancelled', async () => {
    hostile.handle((_request, response) => {
      trickle(response, 1000);
    });
    // An hour's deadline: only the cancel can end this request within the test.
    const engine = LocalEngine.open({ dbPath: await registry({ RequestTimeoutSeconds: 3600 }) });
    const stop = new AbortController();
    try {
      const abandonedBefore = hostile.abandoned();
      const requestsBefore = hostile.requests.length;
      const jobId = await startImport(engine);
      const worker = runWorker(engine.env, { tenants: [TENANT], signal: stop.signal, importRetry: FAST });
      await until(() => hostile.requests.length > requestsBefore, 'the first page request');
      expect(await engine.call('jobs/cancel', { jobId }, CTX)).toMatchObject({ cancelRequested: true });
      await until(
        async () => (await engine.call('jobs/get', { jobId }, CTX)).status === 'cancelled',
        'the job to be cancelled',
      );
      await until(() => hostile.abandoned() > abandonedBefore, 'the trickled response to be abandoned');
      stop.abort();
      await worker;
      const job = await engine.call('jobs/get', { jobId }, CTX);
      expect(job.status).toBe('cancelled');
      expect(job.counters.imported).toBe(0);
    } finally {
      stop.abort();
      engine.close();
    }
  });

  it('a trickled page times out at RequestTimeoutSeconds, is retried with backoff, then fails the job', async () => {
    const { job } = await importWith(
      (_request, response) => {
        trickle(response, 200);
      },
      { RequestTimeoutSeconds: 1 },
    );
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(
      /no complete answer within 1 s \(RequestTimeoutSeconds\) \(transient\); gave up after 3 attempts/,
    );
  });

  it('a worker asked to stop abandons a trickled page and a 31-year Retry-After, and releases its lease', async () => {
    for (const handler of [
      ((_request, response) => {
        trickle(response, 1000);
      }) satisfies Handler,
      ((_request, response) => {
        sendJson(response, '', 503, { 'retry-after': '999999999' });
      }) satisfies Handler,
    ]) {
      hostile.handle(handler);
      const engine = LocalEngine.open({ dbPath: await registry({ RequestTimeoutSeconds: 3600 }) });
      const stop = new AbortController();
      try {
        const requestsBefore = hostile.requests.length;
        const jobId = await startImport(engine);
        // The default backoff: a Retry-After is honoured up to a minute, so only the stop can end the wait.
        const worker = runWorker(engine.env, { tenants: [TENANT], signal: stop.signal });
        await until(() => hostile.requests.length > requestsBefore, 'the first page request');
        stop.abort();
        expect(await worker).toEqual({ jobsRun: 1 });
        // Released: the lease expires now, so another worker resumes the job at once.
        const row = engine.env.store
          .statement('SELECT status, lease_expires_at FROM maintenance_job WHERE tenant_id = ? AND job_id = ?')
          .get(TENANT, jobId) as { status: string; lease_expires_at: string };
        expect(row.status).toBe('running');
        expect(Date.parse(row.lease_expires_at)).toBeLessThanOrEqual(Date.now());
      } finally {
        stop.abort();
        engine.close();
      }
    }
  });

  it('`mpi-console worker` exits on SIGTERM while a source trickles its page', async () => {
    hostile.handle((_request, response) => {
      trickle(response, 1000);
    });
    const dbPath = await registry({ RequestTimeoutSeconds: 3600 });
    const engine = LocalEngine.open({ dbPath });
    const requestsBefore = hostile.requests.length;
    try {
      await startImport(engine);
    } finally {
      engine.close();
    }
    const worker = startProcess(['--db', dbPath, '--tenant', TENANT, 'worker']);
    await until(() => hostile.requests.length > requestsBefore, 'the worker to ask for a page');
    const child = worker.child;
    child.kill('SIGTERM');
    const result = await worker.done;
    expect(result.signal).toBeNull();
    expect(result.status).toBe(0);
  });

  it('next links that loop (1 → 2 → 1, each a distinct URL) fail the job', async () => {
    const { job, requests } = await importWith((_request, response, url) => {
      const n = url.searchParams.get('_page');
      sendJson(response, page([], n === '2' ? pageUrl(1) : pageUrl(2)));
    });
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/names a page this import already read \(the pages loop\)/);
    expect(requests).toBe(3);
  });

  it('a source that pages on forever stops at MaxPages', async () => {
    const { job, requests } = await importWith(
      (_request, response, url) => {
        sendJson(response, page([], pageUrl(Number(url.searchParams.get('_page') ?? '0') + 1)));
      },
      { MaxPages: 4 },
    );
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/paged on past 4 pages \(MaxPages/);
    expect(requests).toBe(4);
  });

  it('requests to one source start no faster than MaxRequestsPerSecond', async () => {
    const before = hostile.requests.length;
    const { job } = await importWith(
      (_request, response, url) => {
        const n = Number(url.searchParams.get('_page') ?? '0');
        sendJson(response, page([], n < 5 ? pageUrl(n + 1) : undefined));
      },
      { MaxRequestsPerSecond: 5 },
    );
    expect(job.status).toBe('completed');
    const starts = hostile.requests.slice(before).map((r) => r.at);
    expect(starts).toHaveLength(6);
    // A lower bound the limiter guarantees (the client starts request i at least i × 200 ms after the first), not a
    // speed. The server stamps a request when its handler runs, which lags the client's start by a connection's
    // set-up and by whatever else the test process's thread is doing: 58 ms was seen for the first request, and a
    // gap of 67 ms between two requests in CI when one stamp lagged and the next did not. A stamp can lag but never
    // lead its start, so the span from the first request is checked, allowing that request one interval of lag.
    // Without the limiter the requests come as fast as the import reads pages: the third came 94 ms after the first,
    // and this check failed.
    for (let i = 1; i < starts.length; i++)
      expect((starts[i] ?? 0) - (starts[0] ?? 0)).toBeGreaterThanOrEqual((i - 1) * 200);
  });
});

describe('hostile pages', () => {
  it('a Patient nested 5,000 levels deep is one failure with its path; the rest of the page is imported', async () => {
    // Built as text: JSON.stringify of such an object overflows the stack, which is the fault being tested.
    const nested = JSON.stringify({ ...patients[1], extension: [] }).replace(
      '"extension":[]',
      `"extension":${'[{"url":"urn:x","extension":'.repeat(5000)}[]${'}]'.repeat(5000)}`,
    );
    const body = `{"resourceType":"Bundle","type":"searchset","entry":[{"resource":${JSON.stringify(patients[0])}},{"resource":${nested}},{"resource":${JSON.stringify(patients[2])}}]}`;
    const { job, records } = await importWith((_request, response) => {
      sendJson(response, body);
    });
    expect(job.status).toBe('completed');
    expect(job.counters).toMatchObject({ imported: 2, failure: 1 });
    expect(records).toBe(2);
    expect(job.phases[0]?.notes?.join('\n')).toMatch(/page 1, Bundle\.entry\[1\]\.resource\.\S+: /);
  });

  it('a page of more entries than were asked for fails the job before any of them is taken', async () => {
    const { job, records } = await importWith(
      (_request, response) => {
        sendJson(response, page(patients.slice(0, 30)));
      },
      { PageSize: 5 },
    );
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/sent 30 entries in one page; 5 were asked for \(_count, PageSize\)/);
    expect(records).toBe(0);
  });

  it('a page that is not UTF-8 is refused, never repaired', async () => {
    const text = page(patients.slice(0, 2));
    const bytes = Buffer.from(text);
    const at = bytes.indexOf(Buffer.from('"family"'));
    const broken = Buffer.concat([bytes.subarray(0, at + 10), Buffer.from([0xc3, 0x28]), bytes.subarray(at + 10)]);
    const { job, records } = await importWith((_request, response) => {
      sendJson(response, broken);
    });
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/not valid UTF-8/);
    expect(records).toBe(0);
  });

  it('a next link with an encoded slash out of the base path is not followed', async () => {
    const { job, requests } = await importWith((_request, response) => {
      sendJson(response, page([], `${base()}/..%2f..%2ftenant-b/fhir/R4/Patient?_page=2`));
    });
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/encoded slash, backslash or dot segment/);
    expect(requests).toBe(1);
  });

  it('entries outside the import window are refused by path; the others are imported', async () => {
    const future = { ...patients[3], meta: { lastUpdated: '2999-01-01T00:00:00Z' } };
    const old = { ...patients[4], meta: { lastUpdated: '2001-01-01T00:00:00Z' } };
    const fine = { ...patients[5], meta: { lastUpdated: new Date(Date.now() - 60_000).toISOString() } };
    const { job, records } = await importWith(
      (_request, response) => {
        sendJson(response, page([future, old, fine]));
      },
      {},
      '2020-01-01T00:00:00Z',
    );
    expect(job.status).toBe('completed');
    expect(job.counters).toMatchObject({ imported: 1, failure: 2 });
    expect(records).toBe(1);
    const notes = job.phases[0]?.notes?.join('\n') ?? '';
    expect(notes).toMatch(/Bundle\.entry\[0\]\.resource\.meta\.lastUpdated: is after the instant the job started/);
    expect(notes).toMatch(/Bundle\.entry\[1\]\.resource\.meta\.lastUpdated: is before the import window asked for/);
    expect(notes).not.toContain('2999');
  });
});

describe('job notes', () => {
  it('keeps every note of a phase, what it concluded first: records not returned are not hidden behind a failed entry', async () => {
    const engine = LocalEngine.open({ dbPath: await registry() });
    try {
      hostile.handle((_request, response) => {
        sendJson(response, page(patients.slice(0, 4)));
      });
      const first = await startImport(engine);
      await runWorker(engine.env, { tenants: [TENANT], once: true, importRetry: FAST });
      expect((await engine.call('jobs/get', { jobId: first }, CTX)).status).toBe('completed');
      // The next full import: one Patient back, one invalid entry, three not returned.
      hostile.handle((_request, response) => {
        sendJson(response, page([patients[0], { resourceType: 'Patient', birthDate: 'not a date' }]));
      });
      const second = await startImport(engine);
      await runWorker(engine.env, { tenants: [TENANT], once: true, importRetry: FAST });
      const job = await engine.call('jobs/get', { jobId: second }, CTX);
      expect(job.status).toBe('completed');
      const importing = job.phases[0];
      expect(importing?.notes).toHaveLength(2);
      expect(importing?.notes?.[0]).toMatch(
        /^3 record\(s\) of this source system were not returned by the full import; they stay linked/,
      );
      expect(importing?.notes?.[1]).toMatch(/^page 1, Bundle\.entry\[1\]\.resource\./);
      expect(importing?.note).toBe(importing?.notes?.[0]);
      expect(importing?.notesNotKept).toBe(0);
    } finally {
      engine.close();
    }
  });

  it('keeps at most 50 item notes a phase and counts the rest', async () => {
    const invalid = Array.from({ length: 60 }, () => ({ resourceType: 'Patient', birthDate: 'no' }));
    const { job } = await importWith((_request, response, url) => {
      const n = Number(url.searchParams.get('_page') ?? '0');
      sendJson(response, page(invalid.slice(n * 10, n * 10 + 10), n < 5 ? pageUrl(n + 1) : undefined));
    });
    expect(job.counters.failure).toBe(60);
    expect(job.phases[0]?.notes).toHaveLength(50);
    expect(job.phases[0]?.notesNotKept).toBe(10);
  });
});

describe('a token endpoint that misbehaves', () => {
  const withToken = (
    failures: { status: number; retryAfter?: string }[],
  ): { handler: Handler; tokens: () => number } => {
    let tokenRequests = 0;
    return {
      tokens: () => tokenRequests,
      handler: (request, response, url) => {
        if (url.pathname === HOSTILE_TOKEN_PATH) {
          const failure = failures[tokenRequests++];
          if (failure !== undefined) {
            sendJson(
              response,
              '<html>busy</html>',
              failure.status,
              failure.retryAfter === undefined ? {} : { 'retry-after': failure.retryAfter },
            );
            return;
          }
          request.resume();
          sendToken(response);
          return;
        }
        if (request.headers.authorization !== 'Bearer hostile-test-token') {
          sendJson(response, '', 401);
          return;
        }
        sendJson(response, page(patients.slice(0, 3)));
      },
    };
  };
  const clientCredentials = (): Record<string, unknown> => ({
    Authentication: {
      Type: 'ClientCredentials',
      TokenEndpoint: `${hostile.origin}${HOSTILE_TOKEN_PATH}`,
      ClientId: 'c',
      ClientSecretFile: world.secretFile,
      Scope: 'system/Patient.read',
    },
  });

  it.each([
    ['503 once', [{ status: 503 }]],
    ['429 with Retry-After, then 502', [{ status: 429, retryAfter: '1' }, { status: 502 }]],
    ['408 once', [{ status: 408 }]],
  ])('%s: retried with backoff, and the import completes', async (_name, failures) => {
    const { handler, tokens } = withToken(failures);
    const { job, records } = await importWith(handler, clientCredentials());
    expect(job.error).toBeNull();
    expect(job.status).toBe('completed');
    expect(records).toBe(3);
    expect(tokens()).toBe(failures.length + 1);
  });

  it('503 on every attempt fails the job after the bounded retries', async () => {
    const { handler, tokens } = withToken([{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }]);
    const { job } = await importWith(handler, clientCredentials());
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/the token endpoint answered 503 \(transient\); gave up after 3 attempts/);
    expect(tokens()).toBe(3);
  });
});
