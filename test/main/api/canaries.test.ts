/**
 * Patient values never leave through the API: planted values (names, birth date, address, postcode, phone,
 * national identifier) of ingested patients, and the same values sent where they do not belong in bad
 * requests, appear in no response (bodies and headers, errors included), no server log line, no audit row
 * and no job row — after evaluation, explanation, jobs run by the worker and every refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { MaintenanceSettingsSchema } from '../../../engine/config/maintenance.ts';
import type { LocalEngine } from '../../../engine/local-engine.ts';
import { devTokenFor, serveApi, type ServedApi } from '../../helpers/api.ts';
import { ctx, ndjson, NHI_SYSTEM, openRegistry, patient } from '../../helpers/registry.ts';
import { suiteDir } from '../../helpers/temp.ts';
import { send, type RawAnswer } from './fixtures.ts';

const CANARY = {
  family: 'Quillfeatherby',
  given: 'Zephyrinetta',
  birthDate: '1911-11-29',
  line: '77 Lanternwick Close',
  city: 'Brambleholt',
  postalCode: 'ZQ9 8XW',
  phone: '020 7946 0321',
  nhi: 'NHI-CANARY-4242',
};
/** Every planted value and the normalised forms the engine stores. */
const NEEDLES = [
  'quillfeatherby',
  'zephyrinetta',
  '1911-11-29',
  'lanternwick',
  'brambleholt',
  'zq98xw',
  'zq9 8xw',
  '2079460321',
  '7946 0321',
  'canary-4242',
  'canary4242',
];

function leaks(text: string): string[] {
  const lower = text.toLowerCase();
  return NEEDLES.filter((needle) => lower.includes(needle));
}

describe('patient values through the API', () => {
  const dir = suiteDir();
  let engine: LocalEngine;
  let api: ServedApi;
  const answers: RawAnswer[] = [];

  beforeAll(async () => {
    engine = openRegistry(dir, ['t1']);
    const person = {
      family: CANARY.family,
      given: [CANARY.given],
      birthDate: CANARY.birthDate,
      line: CANARY.line,
      city: CANARY.city,
      postalCode: CANARY.postalCode,
      phone: CANARY.phone,
      nhi: CANARY.nhi,
    };
    await engine.call(
      'records/ingest',
      {
        sourceSystem: 'hospital',
        ndjson: ndjson(patient({ id: 'h1', mrn: 'MRN-001', ...person }), patient({ id: 'h2', mrn: 'MRN-002' })),
      },
      ctx('t1'),
    );
    await engine.call(
      'records/ingest',
      {
        sourceSystem: 'clinic',
        ndjson: ndjson(
          patient({ id: 'c1', ...person, phone: '020 7946 0322' }),
          patient({ id: 'c2', family: 'Other', given: ['Person'], birthDate: '1970-01-01' }),
        ),
      },
      ctx('t1'),
    );
    api = await serveApi(engine);
  });
  afterAll(async () => {
    await api.stop();
    engine.close();
  });

  it('are in the registry (the test can see them)', () => {
    const stored = JSON.stringify(
      engine.env.store.statement('SELECT fields_json FROM source_record WHERE tenant_id = ?').all('t1'),
    );
    expect(leaks(stored).length).toBeGreaterThan(4);
    expect(NHI_SYSTEM).toBeTruthy();
  });

  it('appear in no response, log line, audit row or job row', async () => {
    const token = { authorization: `Bearer ${await devTokenFor(engine)}` };
    const json = { ...token, 'content-type': 'application/json' };
    const call = async (method: string, path: string, options: Parameters<typeof send>[3] = {}): Promise<RawAnswer> => {
      const answer = await send(api.url, method, path, options);
      answers.push(answer);
      return answer;
    };
    const ref = (sourceSystem: string, localId: string) => ({ sourceSystem, localId });
    const pairs = [
      { left: ref('hospital', 'MRN-001'), right: ref('clinic', 'c1'), isMatch: true },
      { left: ref('hospital', 'MRN-002'), right: ref('clinic', 'c2'), isMatch: false },
      { left: ref('hospital', 'MRN-001'), right: ref('clinic', 'c2'), isMatch: false },
    ];
    expect(
      (
        await call('POST', '/api/v1/matching/evaluation', {
          headers: json,
          body: JSON.stringify({ datasetId: 'canary', pairs, thresholds: [0.5, 0.9], maximumErrorExamples: 10 }),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('POST', '/api/v1/matching/explain', {
          headers: json,
          body: JSON.stringify({ left: pairs[0]?.left, right: pairs[0]?.right }),
        })
      ).status,
    ).toBe(200);
    const started = await call('POST', '/api/v1/maintenance/reconciliation', {
      headers: json,
      body: JSON.stringify({ reason: 'canary check', batchSize: 1 }),
    });
    expect(started.status).toBe(202);
    await runWorker(engine.env, { tenants: ['t1'], once: true, maintenance: MaintenanceSettingsSchema.parse({}) });
    expect(
      ((await call('GET', String(started.headers.location), { headers: token })).json as { status: string }).status,
    ).toBe('completed');

    // The same values sent where they do not belong.
    const refusals = [
      await call('POST', '/api/v1/maintenance/reindex', {
        headers: json,
        body: JSON.stringify({ reason: 'x', batchSize: CANARY.family }),
      }),
      await call('POST', '/api/v1/maintenance/reindex', { headers: json, body: `{"reason": "${CANARY.given}` }),
      await call('POST', '/api/v1/maintenance/reindex', {
        headers: { ...token, 'content-type': `application/${CANARY.given}` },
        body: '{}',
      }),
      await call('GET', '/api/v1/maintenance/jobs', { headers: token, query: { limit: CANARY.city } }),
      await call('GET', '/api/v1/maintenance/jobs', { headers: token, query: { before: 'Lanternwick-Close-77' } }),
      await call('GET', `/api/v1/patients/${CANARY.family}/${CANARY.birthDate}`, { headers: token }),
      await call('POST', '/api/v1/matching/explain', {
        headers: json,
        body: JSON.stringify({ left: ref('hospital', CANARY.nhi), right: ref('clinic', CANARY.postalCode) }),
      }),
      await call('POST', '/api/v1/matching/evaluation', {
        headers: json,
        body: JSON.stringify({
          datasetId: 'bad',
          pairs: [{ left: ref('hospital', CANARY.phone), right: ref('hospital', CANARY.phone), isMatch: true }],
          thresholds: [0.5],
        }),
      }),
      await call('POST', '/api/v1/matching/evaluation', {
        headers: json,
        body: JSON.stringify({ datasetId: CANARY.line, pairs: [], thresholds: ['1911-11-29'] }),
      }),
      await call('GET', '/api/v1/maintenance/jobs', {
        headers: { authorization: `Bearer ${CANARY.family}.${CANARY.given}.sig` },
      }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([422, 400, 415, 422, 422, 404, 404, 422, 422, 401]);

    for (const answer of answers)
      expect(leaks(answer.text + JSON.stringify(answer.headers)), answer.text.slice(0, 300)).toEqual([]);
    // The comparison viewer asks for the values (mpi.admin): they are in that answer, and still never in the log.
    const withValues = await send(api.url, 'POST', '/api/v1/matching/explain', {
      headers: json,
      body: JSON.stringify({ left: pairs[0]?.left, right: pairs[0]?.right, withValues: true }),
    });
    expect(withValues.status).toBe(200);
    expect(leaks(withValues.text).length).toBeGreaterThan(0);
    expect(leaks(api.logs.text)).toEqual([]);
    const rows = (table: string): string =>
      JSON.stringify(engine.env.store.statement(`SELECT * FROM ${table} WHERE tenant_id = ?`).all('t1'));
    expect(leaks(rows('audit_record'))).toEqual([]);
    expect(leaks(rows('maintenance_job'))).toEqual([]);
    expect(leaks(rows('maintenance_job_phase'))).toEqual([]);
  });
});
