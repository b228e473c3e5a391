/**
 * The import's rules in isolation: the next-link rule, the first search URL, backoff with Retry-After, the
 * search page reader, secrets from files and environment variables, and the FhirSources configuration.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkedNextLink, firstPageUrl } from '../../../engine/fhir-source/search-url.ts';
import { backoffDelay, withRetries } from '../../../engine/fhir-source/retry.ts';
import { networkFailure, SourceError, statusFailure } from '../../../engine/fhir-source/source-error.ts';
import { isTransientNetworkError, networkErrorCode, retryAfterMs } from '../../../engine/net/transient.ts';
import { readSearchPage } from '../../../engine/fhir-source/bundle.ts';
import { readSecret } from '../../../engine/fhir-source/secrets.ts';
import { settingsFromObject } from '../../../engine/config/settings.ts';
import { tempDir } from '../../helpers/temp.ts';

const BASE = 'https://fhir.example.org:8443/fhir/R4';

describe('next links keep the scheme, authority and base path', () => {
  it.each([
    'https://fhir.example.org:8443/fhir/R4?_getpages=abc&_getpagesoffset=200&_count=100',
    'https://fhir.example.org:8443/fhir/R4/Patient?_cursor=opaque',
    'https://FHIR.example.org:8443/fhir/R4/Patient?page=2#fragment',
  ])('follows %s', (next) => {
    expect(checkedNextLink(next, BASE)).toBe(new URL(next.replace(/#.*$/, '')).href);
  });

  it.each([
    ['http://fhir.example.org:8443/fhir/R4/Patient?page=2', /changes the scheme/],
    ['https://other.example.org:8443/fhir/R4/Patient?page=2', /leaves the authority/],
    ['https://fhir.example.org/fhir/R4/Patient?page=2', /leaves the authority/],
    ['https://fhir.example.org:8443.evil.org/fhir/R4/Patient', /not an absolute URL|leaves the authority/],
    ['https://user:pass@fhir.example.org:8443/fhir/R4/Patient', /user information/],
    ['https://fhir.example.org:8443/fhir/R4evil/Patient', /leaves the base path/],
    ['https://fhir.example.org:8443/fhir/R4/../../admin/Patient', /leaves the base path/],
    ['https://fhir.example.org:8443/other/R4/Patient?page=2', /leaves the base path/],
    ['/fhir/R4/Patient?page=2', /not an absolute URL/],
  ])('refuses %s, naming the rule and never the link', (next, rule) => {
    expect(() => checkedNextLink(next, BASE)).toThrow(rule);
    try {
      checkedNextLink(next, BASE);
    } catch (error) {
      expect(error).toBeInstanceOf(SourceError);
      expect((error as SourceError).transient).toBe(false);
      expect((error as Error).message).not.toContain('page=2');
      expect((error as Error).message).not.toContain('example');
    }
  });
});

describe('the first search URL', () => {
  it('bounds the window, the page size, and carries the configured parameters', () => {
    const url = new URL(
      firstPageUrl(
        `${BASE}/`,
        { organization: 'Organization/7', active: 'true' },
        { changedSince: '2025-01-02T03:04:05Z', upTo: '2025-02-01T00:00:00.000Z', pageSize: 250 },
      ),
    );
    expect(url.origin + url.pathname).toBe(`${BASE}/Patient`);
    expect(url.searchParams.getAll('_lastUpdated')).toEqual(['ge2025-01-02T03:04:05Z', 'le2025-02-01T00:00:00.000Z']);
    expect(url.searchParams.get('_count')).toBe('250');
    expect(url.searchParams.get('organization')).toBe('Organization/7');
    expect(url.searchParams.get('active')).toBe('true');
  });

  it('has no lower bound on a full import', () => {
    const url = new URL(firstPageUrl(BASE, {}, { changedSince: null, upTo: '2025-02-01T00:00:00.000Z', pageSize: 10 }));
    expect(url.searchParams.getAll('_lastUpdated')).toEqual(['le2025-02-01T00:00:00.000Z']);
  });
});

describe('transient failures and backoff', () => {
  const policy = { attempts: 5, baseMs: 100, capMs: 1000, maxRetryAfterMs: 30_000 };

  it('classifies statuses', () => {
    for (const status of [408, 425, 429, 500, 502, 503, 504])
      expect(statusFailure(status, 'x', undefined).transient).toBe(true);
    for (const status of [301, 302, 400, 401, 403, 404, 410, 422, 501, 505])
      expect(statusFailure(status, 'x', undefined).transient).toBe(false);
  });

  it('reads a connection failure by the code on its cause chain, never by its message', () => {
    const wrapped = new TypeError('fetch failed https://x.example/?name=Smith', {
      cause: Object.assign(new Error('socket'), { code: 'ECONNRESET' }),
    });
    expect(networkErrorCode(wrapped)).toBe('ECONNRESET');
    expect(isTransientNetworkError(wrapped)).toBe(true);
    expect(isTransientNetworkError(Object.assign(new Error('x'), { code: 'ENOTFOUND' }))).toBe(false);
    expect(networkErrorCode(Object.assign(new Error('x'), { code: 'not a code: Smith' }))).toBeUndefined();
    expect(networkFailure(wrapped, 'GET Patient').message).toBe('GET Patient: the connection failed (ECONNRESET)');
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it('waits a random time under an exponentially growing cap, never less than Retry-After (itself capped)', () => {
    expect(backoffDelay(policy, 1, undefined, () => 1)).toBe(100);
    expect(backoffDelay(policy, 3, undefined, () => 1)).toBe(400);
    expect(backoffDelay(policy, 8, undefined, () => 1)).toBe(1000);
    expect(backoffDelay(policy, 1, undefined, () => 0)).toBe(0);
    expect(backoffDelay(policy, 1, 5000, () => 0.5)).toBe(5000);
    expect(backoffDelay(policy, 1, 600_000, () => 0.5)).toBe(30_000);
  });

  it('retries transient failures a bounded number of times, permanent ones never', async () => {
    const waits: number[] = [];
    const wait = (ms: number): Promise<void> => {
      waits.push(ms);
      return Promise.resolve();
    };
    let calls = 0;
    await expect(withRetries(() => Promise.resolve(++calls), policy, undefined, wait)).resolves.toBe(1);
    calls = 0;
    const flaky = (): Promise<string> =>
      ++calls < 3 ? Promise.reject(new SourceError('busy', true, 2000)) : Promise.resolve('ok');
    await expect(withRetries(flaky, policy, undefined, wait)).resolves.toBe('ok');
    expect(waits).toEqual([2000, 2000]);
    calls = 0;
    await expect(
      withRetries(() => Promise.reject(new SourceError(`down ${String(++calls)}`, true)), policy, undefined, wait),
    ).rejects.toThrow(/down 5; gave up after 5 attempts/);
    calls = 0;
    await expect(
      withRetries(() => Promise.reject(new SourceError(`refused ${String(++calls)}`, false)), policy, undefined, wait),
    ).rejects.toThrow('refused 1');
  });
});

describe('search pages', () => {
  it.each([
    ['{"resourceType":"Bundle"', /not valid JSON/],
    ['[]', /not a Bundle/],
    ['{"resourceType":"Patient"}', /not a Bundle/],
    ['{"resourceType":"Bundle","type":"batch"}', /not a searchset/],
    ['{"resourceType":"Bundle","type":"searchset","entry":{}}', /entry is not an array/],
    [
      '{"resourceType":"Bundle","type":"searchset","link":[{"relation":"next","url":"a"},{"relation":"next","url":"b"}]}',
      /more than one next link/,
    ],
    ['{"resourceType":"Bundle","type":"searchset","link":[{"relation":"next"}]}', /next link without a URL/],
  ])('refuses %s', (body, rule) => {
    expect(() => readSearchPage(body)).toThrow(rule);
  });

  it('passes over includes and outcomes and names entries without a resource', () => {
    const page = readSearchPage(
      JSON.stringify({
        resourceType: 'Bundle',
        type: 'searchset',
        link: [
          { relation: 'self', url: 'x' },
          { relation: 'next', url: 'https://n' },
        ],
        entry: [
          { resource: { resourceType: 'Patient', id: 'a' }, search: { mode: 'match' } },
          { resource: { resourceType: 'Organization', id: 'o' }, search: { mode: 'include' } },
          { resource: { resourceType: 'OperationOutcome' }, search: { mode: 'outcome' } },
          { fullUrl: 'x' },
          { resource: { resourceType: 'Patient', id: 'b' } },
        ],
      }),
    );
    expect(page.entries.map((e) => e.path)).toEqual(['Bundle.entry[0].resource', 'Bundle.entry[4].resource']);
    expect(page.passedOver).toBe(2);
    expect(page.empty).toEqual(['Bundle.entry[3].resource']);
    expect(page.next).toBe('https://n');
  });
});

describe('secrets', () => {
  const SECRET = 'PLANTED-s3cret-value-91f2';
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('reads an owner-only file (one trailing newline dropped) and refuses one others can read', () => {
    const dir = tempDir();
    const file = join(dir, 'secret');
    writeFileSync(file, `${SECRET}\n`, { mode: 0o600 });
    expect(readSecret({ key: 'K', file })).toBe(SECRET);
    chmodSync(file, 0o640);
    expect(() => readSecret({ key: 'K', file })).toThrow(
      /can be read by group or others; make it owner-only \(chmod 600\)/,
    );
    expect(() => readSecret({ key: 'K', file: join(dir, 'missing') })).toThrow(/does not exist/);
  });

  it('reads an environment variable and refuses placeholders, empty values and unset variables, never quoting a value', () => {
    expect(readSecret({ key: 'K', env: 'S' }, { S: SECRET })).toBe(SECRET);
    for (const [env, rule] of [
      [{ S: '<CLIENT_SECRET>' }, /placeholder/],
      [{ S: '  ' }, /is empty/],
      [{}, /not set/],
      [{ S: `${SECRET}\nsecond line` }, /more than one line/],
    ] as const) {
      let message = '';
      try {
        readSecret({ key: 'Maintenance.FhirSources[0].Authentication.ClientSecretEnv', env: 'S' }, env);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(rule);
      expect(message).toContain('Maintenance.FhirSources[0].Authentication.ClientSecretEnv');
      expect(message).not.toContain(SECRET);
    }
  });
});

describe('Maintenance.FhirSources in the configuration file', () => {
  const KEY = 'A'.repeat(43) + '=';
  const source = (overrides: Record<string, unknown> = {}, auth: Record<string, unknown> = {}) => ({
    TenantId: 'acme',
    SourceSystem: 'hospital',
    BaseUrl: 'https://fhir.example.org/R4',
    LocalIdentifierSystem: 'urn:mrn',
    Authentication: {
      Type: 'ClientCredentials',
      TokenEndpoint: 'https://auth.example.org/token',
      ClientId: 'c',
      ClientSecretEnv: 'MPI_SECRET',
      Scope: 'system/Patient.read',
      ...auth,
    },
    ...overrides,
  });
  const load = (maintenance: Record<string, unknown>) => () =>
    settingsFromObject({ BlockingKeys: { acme: { k1: KEY } }, Maintenance: maintenance });
  const issues = (maintenance: Record<string, unknown>): { path: string; message: string }[] => {
    try {
      load(maintenance)();
    } catch (error) {
      return (error as { issues: { path: string; message: string }[] }).issues;
    }
    return [];
  };
  const saved = process.env.NODE_ENV;
  afterEach(() => {
    // Restored exactly (an absent variable stays absent): the next test file in this worker sees what this one saw.
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
  });

  it('accepts a source with defaults, and a schedule naming it', () => {
    const settings = load({
      FhirSources: [source()],
      ReconciliationSchedules: [
        { Key: 'n', TenantId: 'acme', SourceSystem: 'hospital', IntervalMinutes: 60, BatchSize: 5 },
      ],
    })();
    expect(settings.Maintenance?.FhirSources[0]).toMatchObject({ PageSize: 200, PatientSearchParameters: {} });
    expect(settings.Maintenance?.AllowInsecureHttp).toBe(false);
  });

  it('refuses a client secret in the file, the <CLIENT_SECRET> placeholder included, without quoting it', () => {
    for (const value of ['<CLIENT_SECRET>', 'PLANTED-real-secret-4411']) {
      const found = issues({
        FhirSources: [
          source({}, { ClientSecret: value, ClientSecretEnv: undefined, ClientSecretFile: '/run/secrets/fhir' }),
        ],
      });
      expect(found).toContainEqual({
        path: 'Maintenance.FhirSources[0].Authentication.ClientSecret',
        message: expect.stringMatching(
          /never kept in the configuration file.*ClientSecretFile or ClientSecretEnv/,
        ) as unknown,
      });
      if (value.startsWith('PLANTED')) expect(JSON.stringify(found)).not.toContain(value);
    }
  });

  it.each([
    [{ BaseUrl: 'http://fhir.example.org/R4' }, {}, 'Maintenance.FhirSources[0].BaseUrl', /HTTPS is required/],
    [{ BaseUrl: 'https://u:p@fhir.example.org/R4' }, {}, 'Maintenance.FhirSources[0].BaseUrl', /user name or password/],
    [{ BaseUrl: 'https://fhir.example.org/R4?x=1' }, {}, 'Maintenance.FhirSources[0].BaseUrl', /no query/],
    [
      {},
      { TokenEndpoint: 'http://auth.example.org/token' },
      'Maintenance.FhirSources[0].Authentication.TokenEndpoint',
      /HTTPS is required/,
    ],
    [{}, { ClientSecretFile: '/run/s' }, 'Maintenance.FhirSources[0].Authentication.ClientSecretFile', /exactly one/],
    [
      { PatientSearchParameters: { _count: '5' } },
      {},
      'Maintenance.FhirSources[0].PatientSearchParameters',
      /sets .*_count/,
    ],
    [{ PageSize: 5000 }, {}, 'Maintenance.FhirSources[0].PageSize', /too big/],
    [
      { Authentication: { Type: 'BearerToken', Token: 'PLANTED-bearer-77' } },
      {},
      'Maintenance.FhirSources[0].Authentication.Token',
      /never kept/,
    ],
  ])('refuses %j %j at %s', (overrides, auth, path, rule) => {
    const found = issues({ FhirSources: [source(overrides, auth)] });
    expect(found).toContainEqual({ path, message: expect.stringMatching(rule) as unknown });
    expect(JSON.stringify(found)).not.toContain('PLANTED');
  });

  it('permits plain HTTP only under AllowInsecureHttp, and never with NODE_ENV=production', () => {
    const http = {
      FhirSources: [
        source({ BaseUrl: 'http://localhost:8080/fhir' }, { TokenEndpoint: 'http://localhost:9000/token' }),
      ],
      AllowInsecureHttp: true,
    };
    expect(issues(http)).toEqual([]);
    process.env.NODE_ENV = 'production';
    expect(issues(http)).toContainEqual({
      path: 'Maintenance.AllowInsecureHttp',
      message: expect.stringMatching(/must not be enabled in production/) as unknown,
    });
  });

  it('refuses a duplicate source and a schedule naming no source', () => {
    expect(issues({ FhirSources: [source(), source()] })).toContainEqual({
      path: 'Maintenance.FhirSources[1].SourceSystem',
      message: expect.stringMatching(/same tenant and source system/) as unknown,
    });
    expect(
      issues({
        FhirSources: [source()],
        ReconciliationSchedules: [
          { Key: 'n', TenantId: 'acme', SourceSystem: 'clinic', IntervalMinutes: 60, BatchSize: 5 },
        ],
      }),
    ).toContainEqual({
      path: 'Maintenance.ReconciliationSchedules[0].SourceSystem',
      message: expect.stringMatching(/no FhirSources entry/) as unknown,
    });
  });

  it('does not show search parameter names or unknown keys in errors', () => {
    const found = issues({
      FhirSources: [source({ PatientSearchParameters: { 'PLANTED name': 'x' }, PLANTEDkey: 1 })],
    });
    expect(found.length).toBeGreaterThan(0);
    expect(JSON.stringify(found)).not.toContain('PLANTED');
  });
});
