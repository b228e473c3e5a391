/**
 * Property-based test of job requests (issue 7, "keep it that way"): start (re-index, reconciliation), get
 * and cancel with inputs of every shape — planted patient-like values and control characters in free text,
 * wrong types, out-of-range batch sizes, unknown keys, made-up and real job IDs. Every answer is a result or
 * an engine error of an expected kind naming its path, never a planted value; a refused start creates no
 * job and no audit row.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../engine/local-engine.ts';

import { CANARIES, expectSafeRejection, plantedText } from './fuzz-helpers.ts';
import { scratchDir } from '../helpers/temp.ts';

const CTX = { tenantId: 'jobs-fuzz', actor: 'test' };
let engine: LocalEngine;
let cleanup: () => void;
const realJobs: string[] = [];

beforeAll(async () => {
  const temp = scratchDir('mpi-fuzz-jobs-');
  cleanup = temp.cleanup;
  engine = LocalEngine.open({ dbPath: join(temp.dir, 'jobs.db') });
  await engine.call('sandbox/create', { syntheticPeople: 20, seed: 4 }, CTX);
  for (let i = 0; i < 3; i++)
    realJobs.push((await engine.call('maintenance/reindex', { reason: 'real job', batchSize: 5 }, CTX)).jobId);
});

afterAll(() => {
  engine.close();
  cleanup();
});

function counts(): string {
  const one = (sql: string): number => engine.env.store.statement(sql).pluck().get(CTX.tenantId) as number;
  return `${String(one('SELECT COUNT(*) FROM maintenance_job WHERE tenant_id = ?'))}/${String(one('SELECT COUNT(*) FROM audit_record WHERE tenant_id = ?'))}`;
}

const planted = plantedText(CANARIES);
const anyValue = fc.oneof(
  planted,
  fc.constantFrom(null, true, 0, 1, 25, 26, -3, 2.5, '', ' ', 'ok reason', [], {}),
  fc.string({ maxLength: 10 }),
  fc.integer(),
);
const cleanStart = fc.record({
  reason: fc.oneof(fc.constant('scheduled maintenance'), planted),
  batchSize: fc.integer({ min: 1, max: 25 }),
});
const messyStart = fc
  .record(
    {
      reason: fc.oneof(planted, anyValue, fc.constant('scheduled maintenance')),
      batchSize: fc.oneof(fc.integer({ min: 1, max: 25 }), anyValue),
      externalSourceSystem: fc.oneof(planted, anyValue, fc.constant('st-marys-hospital')),
      changedSince: fc.oneof(planted, anyValue, fc.constant('2025-01-01T00:00:00Z')),
    },
    { requiredKeys: [] },
  )
  .chain((input) =>
    fc.option(planted, { nil: undefined }).map((extra) => (extra === undefined ? input : { ...input, [extra]: 1 })),
  );
const startInput = fc.oneof(cleanStart, messyStart);
// Real job IDs are read when a value is drawn: the jobs are made in beforeAll.
const jobId = fc.oneof(
  fc.nat().map((i) => realJobs[i % realJobs.length] ?? ''),
  planted,
  anyValue,
  fc.constant('job-00000000-0000'),
);

describe('job requests, fuzzed', () => {
  it('answer or refuse cleanly, never repeat a planted value, and refuse without writing', async () => {
    const seen = { started: 0, refused: 0, looked: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('maintenance/reindex', 'maintenance/reconcile', 'jobs/get', 'jobs/cancel'),
        startInput,
        jobId,
        async (operation, input, id) => {
          const before = counts();
          try {
            if (operation === 'jobs/get' || operation === 'jobs/cancel') {
              await engine.call(operation, { jobId: id } as { jobId: string }, CTX);
              seen.looked++;
            } else {
              await engine.call(operation, input as { reason: string; batchSize: number }, CTX);
              seen.started++;
              expect(counts()).not.toBe(before);
            }
          } catch (error) {
            expectSafeRejection(error, CANARIES, ['validation', 'not_found', 'conflict']);
            if (operation.startsWith('maintenance/')) expect(counts()).toBe(before);
            seen.refused++;
          }
        },
      ),
      { numRuns: 200 },
    );
    expect(seen.started).toBeGreaterThan(3);
    expect(seen.refused).toBeGreaterThan(50);
  });
});
