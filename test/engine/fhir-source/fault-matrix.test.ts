/**
 * The fault matrix (spec "Errors" 5 and 6, "Authentication": transport): each fault is injected by the proxy
 * in front of the real FHIR server on the second page of a three-page import. Transient faults are retried
 * and the import completes with every Patient; permanent ones fail the job with an error naming the rule or
 * the status (never a query string) and an audit record; and "another origin" never receives a request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import type { JobState } from '../../../engine/contract/maintenance.ts';
import type { Fault } from '../../helpers/fhir/fault-proxy.ts';
import {
  CLIENT_SECRET,
  importAndReconcile,
  makeRegistry,
  sourcePatients,
  startWorld,
  TENANT,
  type World,
} from '../../helpers/fhir/world.ts';

const ATTEMPTS = 4;
const FAST = { attempts: ATTEMPTS, baseMs: 5, capMs: 50, maxRetryAfterMs: 1500 };
const PATIENTS = 300;

let world: World;
let registries = 0;

beforeAll(async () => {
  world = await startWorld();
  await world.fhir.seed(sourcePatients(PATIENTS));
});

afterAll(async () => {
  await world.close();
});

async function importWith(
  faults: readonly Fault[],
  skip = 1,
): Promise<{ job: JobState; failAudits: number; importedRecords: number }> {
  const engine = LocalEngine.open({ dbPath: await makeRegistry(world, `faults-${String(++registries)}`) });
  try {
    faults.forEach((fault, index) => {
      world.proxy.inject(fault, index === 0 ? skip : 0);
    });
    const job = await importAndReconcile(engine, 'fault matrix', FAST);
    const { jobId } = job;
    const failAudits = engine.env.store
      .statement(
        "SELECT count(*) FROM audit_record WHERE tenant_id = ? AND action = 'maintenance.job.fail' AND subject = ?",
      )
      .pluck()
      .get(TENANT, `maintenance-job/${jobId}`) as number;
    const importedRecords = engine.env.store
      .statement('SELECT count(*) FROM source_record WHERE tenant_id = ?')
      .pluck()
      .get(TENANT) as number;
    return { job, failAudits, importedRecords };
  } finally {
    engine.close();
  }
}

const transient: [string, Fault[]][] = [
  ['408 Request Timeout', [{ kind: 'status', status: 408 }]],
  ['429 with Retry-After: 1', [{ kind: 'status', status: 429, retryAfter: '1' }]],
  ['500 Internal Server Error', [{ kind: 'status', status: 500 }]],
  [
    '503 twice in a row',
    [
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
    ],
  ],
  ['a connection reset', [{ kind: 'reset' }]],
  ['401 once (the token is fetched again once)', [{ kind: 'status', status: 401 }]],
];

const permanent: [string, Fault[], RegExp][] = [
  [
    '503 on every attempt',
    Array.from({ length: ATTEMPTS }, () => ({ kind: 'status', status: 503 }) as const),
    /answered 503 \(transient\); gave up after 4 attempts/,
  ],
  ['404 Not Found', [{ kind: 'status', status: 404 }], /answered 404/],
  [
    '401 twice (after one new token)',
    [
      { kind: 'status', status: 401 },
      { kind: 'status', status: 401 },
    ],
    /refused the credentials \(401\)/,
  ],
  ['a malformed JSON body', [{ kind: 'malformed-json' }], /not valid JSON/],
  ['a Bundle that is not a Bundle', [{ kind: 'not-a-bundle' }], /not a Bundle/],
  [
    'a next link to another origin',
    [{ kind: 'next-other-origin', origin: 'https://127.0.0.1:1' }],
    /leaves the authority/,
  ],
  ['a next link with another base path', [{ kind: 'next-other-path' }], /leaves the base path/],
];

describe('transient faults are retried and the import completes', () => {
  it.each(transient)('%s', async (_name, faults) => {
    const tokensBefore = world.oauth.tokensIssued();
    const seenBefore = world.proxy.seen.length;
    const { job, importedRecords } = await importWith(faults);
    expect(job.error).toBeNull();
    expect(job.status).toBe('completed');
    expect(job.counters.imported).toBe(PATIENTS);
    expect(importedRecords).toBe(PATIENTS);
    // Every fault was served, then the same page again: three pages plus one request per fault.
    const seen = world.proxy.seen.slice(seenBefore);
    expect(seen.filter((s) => s.fault !== null)).toHaveLength(faults.length);
    expect(seen).toHaveLength(3 + faults.length);
    const newTokens = world.oauth.tokensIssued() - tokensBefore;
    expect(newTokens).toBe(faults.some((f) => f.kind === 'status' && f.status === 401) ? 2 : 1);
  });
});

describe('permanent faults fail the job, audited, with an error that names the rule', () => {
  it.each(permanent)('%s', async (_name, faults, message) => {
    const { job, failAudits, importedRecords } = await importWith(faults);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(message);
    expect(job.error).not.toMatch(/_getpages|\?|127\.0\.0\.1/);
    expect(job.error).not.toContain(CLIENT_SECRET);
    expect(failAudits).toBe(1);
    // The first page was committed before the fault; nothing after it.
    expect(importedRecords).toBe(100);
    expect(job.phases[0]).toMatchObject({ name: 'importing', status: 'failed', processed: 100 });
    expect(job.phases.slice(1).map((p) => p.status)).toEqual(['pending', 'pending']);
  });
});

describe('credentials never reach another origin', () => {
  it('a next link to the recording server is not followed', async () => {
    const before = world.other.requests.length;
    const { job } = await importWith([{ kind: 'next-other-origin', origin: world.other.origin }]);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/leaves the authority/);
    expect(world.other.requests.length - before).toBe(0);
  });

  it('a 302 to the recording server is not followed', async () => {
    const before = world.other.requests.length;
    const { job } = await importWith([
      { kind: 'redirect', location: `${world.other.origin}/fhir/R4/Patient?_count=100` },
    ]);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/redirect \(302\); redirects are never followed/);
    expect(world.other.requests.length - before).toBe(0);
  });

  it('the recording server does answer requests sent to it (the check above can fail)', async () => {
    const before = world.other.requests.length;
    const { Transport } = await import('../../../engine/fhir-source/transport.ts');
    const transport = new Transport({ trustedCaFile: world.tls.caFile });
    try {
      await transport.get(`${world.other.origin}/probe`, { authorization: 'Bearer probe' }, 'probe');
    } finally {
      await transport.close();
    }
    expect(world.other.requests.slice(before).map((r) => r.authorization)).toContain('Bearer probe');
  });
});
