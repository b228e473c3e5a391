/**
 * FHIR import goes through ingestion's own validation: a valid Patient with no name, or with a birth date that
 * cannot be a person's, is imported (not a failure); the date is ignored for matching and counted as a warning
 * whose note names the entry and the field, never the value. The job reports its review rate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Patient } from '@medplum/fhirtypes';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { main } from '../../../main/cli/main.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import {
  CTX,
  importAndReconcile,
  makeRegistry,
  SOURCE_MRN_SYSTEM,
  sourcePatients,
  startWorld,
  TENANT,
  type World,
} from '../../helpers/fhir/world.ts';

const FAST = { attempts: 3, baseMs: 5, capMs: 20, maxRetryAfterMs: 100 };
const FUTURE = '2199-07-04';
const IMPOSSIBLE = '2019-02-30';

let world: World;

beforeAll(async () => {
  world = await startWorld();
  const patients = sourcePatients(40);
  const special = (n: number, extra: Partial<Patient>): Patient => {
    const p = structuredClone(patients[n]) as Patient & { name?: unknown };
    delete p.name;
    return { ...p, identifier: [{ system: SOURCE_MRN_SYSTEM, value: `SPECIAL-${String(n)}` }], ...extra };
  };
  const named = patients[3];
  if (named === undefined) throw new Error('no patients');
  await world.fhir.seed([
    ...patients,
    special(0, {}), // no name
    special(1, { name: [{ prefix: ['Mr'] }] }),
    { ...named, identifier: [{ system: SOURCE_MRN_SYSTEM, value: 'SPECIAL-2' }], birthDate: FUTURE },
    { ...named, identifier: [{ system: SOURCE_MRN_SYSTEM, value: 'SPECIAL-3' }], birthDate: IMPOSSIBLE },
  ]);
});

afterAll(async () => {
  await world.close();
});

describe('import of valid Patients', () => {
  it('imports nameless Patients and impossible or future birth dates with warnings by path, and reports the review rate', async () => {
    const db = await makeRegistry(world, 'valid');
    const engine = LocalEngine.open({ dbPath: db });
    try {
      const job = await importAndReconcile(engine, 'valid patients', FAST);
      const { jobId } = job;
      expect(job.status).toBe('completed');
      expect(job.counters).toMatchObject({ imported: 44, failure: 0, warning: 2 });
      expect(job.phases[0]?.note).toMatch(
        /^page 1, Bundle\.entry\[\d+\]\.resource\.birthDate: is (in the future|not a real calendar date); ignored for matching$/,
      );
      const matching = job.phases.find((p) => p.name === 'matching')?.processed ?? NaN;
      expect(job.reviewRate).toEqual({
        reviewCases: job.counters.reviewCreated,
        matched: 44 + matching,
        perThousand: (1000 * job.counters.reviewCreated) / (44 + matching),
      });
      const fields = engine.env.store
        .statement(
          "SELECT local_id, fields_json FROM source_record WHERE tenant_id = ? AND local_id LIKE 'SPECIAL-%' ORDER BY local_id",
        )
        .all(TENANT) as { local_id: string; fields_json: string }[];
      expect(
        fields.map((r) => [
          r.local_id,
          (JSON.parse(r.fields_json) as MatchFields).birthDate !== null,
          (JSON.parse(r.fields_json) as MatchFields).familyName !== null,
        ]),
      ).toEqual([
        ['SPECIAL-0', true, false],
        ['SPECIAL-1', true, false],
        ['SPECIAL-2', false, true],
        ['SPECIAL-3', false, true],
      ]);
      // Imports and the matching phase open cases only at Probable or above (engine/ingest/review-gate.ts).
      const { Probable } = (await engine.call('profile/get', {}, CTX)).profile.MatchingRules.Thresholds;
      const scores = engine.env.store
        .statement('SELECT score FROM review_case WHERE tenant_id = ?')
        .pluck()
        .all(TENANT) as number[];
      expect(scores).toHaveLength(job.counters.reviewCreated);
      for (const score of scores) expect(score).toBeGreaterThanOrEqual(Probable);
      let out = '';
      const status = await main(
        ['--db', db, '--tenant', TENANT, 'job', 'show', jobId],
        (t) => (out += t),
        () => undefined,
      );
      expect(status).toBe(0);
      expect(out).toMatch(/^review rate\s+\d+\.\d per 1,000 matched \([\d,]+ cases?, [\d,]+ matched\)$/m);
      for (const value of [FUTURE, IMPOSSIBLE]) expect(JSON.stringify(job) + out).not.toContain(value);
    } finally {
      engine.close();
    }
  }, 120_000);
});
